#!/usr/bin/env bash
# OpenFresco's expSetup Aggregator of a setup with actuator geometry and a linear one under one
# expElement generic (docs/openfresco.md; ESAggregator.cpp: its trial vector is its setups'
# trial vectors one after the other, its actuators theirs, each setup transforming its own part
# both ways), on a perfect virtual laboratory: a column top (node 2: ux, uy, rz) held by
# ThreeActuators2d with -nlGeom (Steel01 yielding on the horizontal actuator) and a second
# column's top (node 4: ux) by OneActuator, one element `-node 2 4 -dof 1 2 3 -dof 1` on the
# Aggregator of both, 600 steps of a two-component sine ground motion (Newmark, Newton). Its
# twin: the same frame with two generic elements, one on each setup. hysim runs both and they
# must agree to 1e-12 of each column's peak; and again with a block-diagonal -initStif (the
# element's stiffness, its setups' links then carrying none) under algorithm Linear against the
# twin's two elements with their blocks.
# Usage: openfresco_aggregator.sh hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
work_dir

# model PARTS ALGORITHM
model() {
    cat <<TCL
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 0.0 120.0 -mass 0.3 0.3 50.0
node 5 200.0 0.0
node 4 200.0 120.0 -mass 0.2 0.2 0.0
fix 1 1 1 1
fix 5 1 1 1
geomTransf Linear 1
element elasticBeamColumn 1 1 2 20.0 29000.0 400.0 1
element elasticBeamColumn 2 5 4 20.0 29000.0 300.0 1
uniaxialMaterial Steel01 1 6.0 12.0 0.05
uniaxialMaterial Elastic 2 30.0
uniaxialMaterial Elastic 3 45.0
uniaxialMaterial Elastic 4 9.0
$1
timeSeries Sine 1 0.0 3.0 0.45 -factor 150.0
timeSeries Sine 2 0.0 3.0 0.3 -factor 80.0
pattern UniformExcitation 1 1 -accel 1
pattern UniformExcitation 2 2 -accel 2
recorder Node -file nodes.out -time -precision 16 -node 2 4 -dof 1 2 3 disp
recorder Element -file columns.out -time -precision 16 -ele 1 2 force
constraints Transformation
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-14 30
algorithm $2
integrator Newmark 0.5 0.25
analysis Transient
analyze 600 0.005
TCL
}

PLATFORM="ThreeActuators2d 1 -control 1 40.0 30.0 36.0 20.0 25.0 -nlGeom"
AGG="expControl SimUniaxialMaterials 1 1 2 3 4
expSetup $PLATFORM
expSetup OneActuator 2 -control 1 1 -sizeTrialOut 1 1
expSetup Aggregator 3 -control 1 -setup 1 2
expSite LocalSite 1 3"
TWIN="expControl SimUniaxialMaterials 1 1 2 3
expControl SimUniaxialMaterials 2 4
expSetup $PLATFORM
expSetup OneActuator 2 -control 2 1 -sizeTrialOut 1 1
expSite LocalSite 1 1
expSite LocalSite 2 2"

# run NAME EXP_ELEMENT TWIN_ELEMENTS ALGORITHM
run() {
    local c=$dir/$1 f w peak
    mkdir -p "$c/exp/src" "$c/twin/src"
    model "$AGG
$2" "$4" > "$c/exp/src/model.tcl"
    model "$TWIN
$3" "$4" > "$c/twin/src/model.tcl"
    hysim_run "$c/exp" model.tcl || fail "$1: hysim stopped on the experimental script: $(head -3 "$c/exp/err.log")"
    hysim_run "$c/twin" model.tcl || fail "$1: hysim stopped on the twin: $(head -3 "$c/twin/err.log")"
    peak=$(awk 'NR > 1 { x = $2 < 0 ? -$2 : $2; if (x > p) p = x } END { print p + 0 }' "$c/exp/run/nodes.out")
    awk -v p="$peak" 'BEGIN { exit !(p > 0.6) }' || fail "$1: the column top hardly moves (peak ux $peak in; the actuator yields at 0.5)"
    for f in nodes.out columns.out; do
        w=$(worst "$c/exp/run/$f" "$c/twin/run/$f" | tail -1)
        echo "$1: $f: Aggregator vs two elements: $w of the peak (peak ux $peak in)"
        [ "$w" != rows ] && awk -v a="$w" 'BEGIN { exit !(a <= 1e-12) }' ||
            fail "$1: $f: the aggregated setups differ from their two elements by $w of the peak"
    done
}

run newton "expElement generic 10 -node 2 4 -dof 1 2 3 -dof 1 -site 1" \
    "expElement generic 10 -node 2 -dof 1 2 3 -site 1
expElement generic 11 -node 4 -dof 1 -site 2" Newton
run initstif "expElement generic 10 -node 2 4 -dof 1 2 3 -dof 1 -site 1 -initStif 60 0 0 0 0 40 0 0 0 0 9000 0 0 0 0 9" \
    "expElement generic 10 -node 2 -dof 1 2 3 -site 1 -initStif 60 0 0 0 40 0 0 0 9000
expElement generic 11 -node 4 -dof 1 -site 2 -initStif 9" Linear
# another element than generic on such an Aggregator is refused (in 2-D, by its size already)
mkdir -p "$dir/refused/src"
model "$AGG
expElement twoNodeLink 10 1 2 -dir 1 2 3 -site 1" Newton > "$dir/refused/src/model.tcl"
hysim_run "$dir/refused" model.tcl && fail "a twoNodeLink on an Aggregator with actuator geometry ran"
grep -q "model.tcl:20: expElement: site 1: its setup 3 (Aggregator) has a trial vector of 4, this element has 3 basic DOFs" "$dir/refused/err.log" ||
    fail "no refusal of the twoNodeLink: $(head -3 "$dir/refused/err.log")"
echo "$me: OK"
