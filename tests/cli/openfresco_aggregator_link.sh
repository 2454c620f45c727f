#!/usr/bin/env bash
# OpenFresco's expSetup Aggregator of a setup with actuator geometry and a OneActuator under
# expElement twoNodeLink (2-D) and beamColumn (3-D), on a perfect virtual laboratory
# (docs/openfresco.md, "Setups with several actuators"; src/opensees/opensees_tcl_exp_aggregate.c).
# ESAggregator.cpp: the element's basic vector is its setups' trial vectors one after the other,
# each setup taking its own part both ways; EETwoNodeLink.cpp takes a direction more than once.
# 1. link2d: a column top (node 2) held by `expElement twoNodeLink 10 6 2 -dir 1 2 3 1` from a
#    fixed node at its place: ThreeActuators2d -nlGeom (Steel01 yielding on the horizontal
#    actuator) on its ux, uy, rz and a OneActuator (Elastic) on ux again; 600 steps of a
#    two-component sine (Newmark). Its twin: two twoNodeLinks, one per setup on its own site.
#    Newton on the exact tangents, and algorithm Linear with a 4 x 4 -initStif (the twin's links
#    with its blocks): equal to 1e-12 of each column's peak (bit for bit in practice).
# 2. beam3: a 3-D cantilever (Cantilever3D's column, 54 in along Z) as one `expElement
#    beamColumn` on ThreeActuators2d -nlGeom -phiLocX 90 (B's axial, shear y, rz: a horizontal
#    actuator along X, two vertical ones) aggregated with a OneActuator on B's shear z, its
#    -initStif block-diagonal; Newton, 150 steps of a three-component motion. Its twin: the
#    twoNodeLinks of B's directions (-orient of the transformation's y, -shearDist 1 1) on the
#    two setups and a third on B's torsion and ry (EEBeamColumn3d's elastic torsion kb55 db5: the
#    test measures none), to 1e-12.
#    The same column on one ThreeActuators setup (trial DOFs 2 1 3 of 6), shaken in X and Z,
#    against its twoNodeLinks.
# 3. With OPENFRESCO_OPENSEES (OpenFresco 2.8 loaded by a relinked OpenSees 3.8,
#    docs/openfresco.md) both scripts run in OpenFresco too: every recorder file to 1e-8 of each
#    column's peak. A 2-D beamColumn cannot take such an Aggregator (its basic system B has 3
#    DOFs, every 2-D setup with geometry takes 3 of them): hysim refuses it naming both sizes, and
#    OpenFresco stops at ExperimentalSetup::checkSize.
# Usage: openfresco_aggregator_link.sh hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
work_dir

# link2d PARTS ALGORITHM
link2d() {
    cat <<TCL
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 0.0 120.0 -mass 0.3 0.3 50.0
node 6 0.0 120.0
fix 1 1 1 1
fix 6 1 1 1
geomTransf Linear 1
element elasticBeamColumn 1 1 2 20.0 29000.0 400.0 1
uniaxialMaterial Steel01 1 6.0 12.0 0.05
uniaxialMaterial Elastic 2 30.0
uniaxialMaterial Elastic 3 45.0
uniaxialMaterial Elastic 4 9.0
$1
timeSeries Sine 1 0.0 3.0 0.45 -factor 150.0
timeSeries Sine 2 0.0 3.0 0.3 -factor 80.0
pattern UniformExcitation 1 1 -accel 1
pattern UniformExcitation 2 2 -accel 2
recorder Node -file nodes.out -time -precision 16 -node 2 -dof 1 2 3 disp
recorder Element -file columns.out -time -precision 16 -ele 1 force
recorder Element -file link.out -time -precision 16 -ele 10 force
constraints Transformation
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-10 50
algorithm $2
integrator Newmark 0.5 0.25
analysis Transient
analyze 600 0.005
TCL
}
LENGTHS="40.0 30.0 36.0 20.0 25.0 -nlGeom"
LINK_AGG="expControl SimUniaxialMaterials 1 1 2 3 4
expSetup ThreeActuators2d 1 $LENGTHS
expSetup OneActuator 2 1 -sizeTrialOut 1 1
expSetup Aggregator 3 -control 1 -setup 1 2
expSite LocalSite 1 3"
LINK_TWIN="expControl SimUniaxialMaterials 1 1 2 3
expControl SimUniaxialMaterials 2 4
expSetup ThreeActuators2d 1 -control 1 $LENGTHS
expSetup OneActuator 2 -control 2 1 -sizeTrialOut 1 1
expSite LocalSite 1 1
expSite LocalSite 2 2"

# beam3 PARTS: the 3-D cantilever, shaken along Y by YMOTION
YMOTION=-60.0
beam3() {
    cat <<TCL
model BasicBuilder -ndm 3 -ndf 6
node 1 0.0 0.0 0.0
node 2 0.0 0.0 54.0 -mass 0.08 0.08 0.08 0.0 0.0 0.0
fix 1 1 1 1 1 1 1
geomTransf Linear 1 0 -1 0
uniaxialMaterial Steel01 1 1.5 2.8 0.05
uniaxialMaterial Elastic 2 60.0
uniaxialMaterial Elastic 3 80.0
uniaxialMaterial Elastic 4 2.8
$1
set vals {}
for {set k 0} {\$k < 200} {incr k} { lappend vals [expr {sin(0.0314159 * \$k * 7.0)}] }
timeSeries Path 1 -dt 0.02 -values \$vals -factor 100.0
timeSeries Path 2 -dt 0.02 -values \$vals -factor $YMOTION
timeSeries Path 3 -dt 0.02 -values \$vals -factor 30.0
pattern UniformExcitation 1 1 -accel 1
pattern UniformExcitation 2 2 -accel 2
pattern UniformExcitation 3 3 -accel 3
recorder Node -file nodes.out -precision 16 -time -node 2 -dof 1 2 3 4 5 6 disp
recorder Element -file link.out -precision 16 -time -ele 1 forces
system BandGeneral
numberer Plain
constraints Plain
test NormDispIncr 1.0e-12 50
integrator Newmark 0.5 0.25
algorithm Newton
analysis Transient
analyze 150 0.02
TCL
}
# -initStif in B's order (axial, shear y, rz, shear z, ry, torsion): the setups' linear
# stiffness there (140, 2.8, 20^2 60 + 25^2 80 = 74000 through ThreeActuators2d turned by 90
# degrees; 2.8 on shear z), ry's 2721.6 and the torsion's 1e4 (EEBeamColumn3d's elastic torsion)
BEAM_AGG="expControl SimUniaxialMaterials 1 1 2 3 4
expSetup ThreeActuators2d 1 40.0 30.0 36.0 20.0 25.0 -nlGeom -phiLocX 90.0
expSetup OneActuator 2 1 -sizeTrialOut 3 3
expSetup Aggregator 3 -control 1 -setup 1 2
expSite LocalSite 1 3
expElement beamColumn 1 1 2 1 -site 1 -initStif 140 0 0 0 0 0  0 2.8 0 0 0 0  0 0 74000 0 0 0  0 0 0 2.8 0 0  0 0 0 0 2721.6 0  0 0 0 0 0 1E4"
# the twin: B's rows are twoNodeLink directions 1, 2, 6, 3, 5, 4 with local y' = vecxz x x =
# (-1, 0, 0) and the shears at node j; torsion the Elastic kb55 = 1e4, ry without force
BEAM_TWIN="uniaxialMaterial Elastic 5 1.0e4
uniaxialMaterial Elastic 6 0.0
expControl SimUniaxialMaterials 1 1 2 3
expControl SimUniaxialMaterials 2 4
expControl SimUniaxialMaterials 3 5 6
expSetup ThreeActuators2d 1 -control 1 40.0 30.0 36.0 20.0 25.0 -nlGeom -phiLocX 90.0
expSetup OneActuator 2 -control 2 1 -sizeTrialOut 1 1
expSetup NoTransformation 3 -control 3 -dof 1 2 -sizeTrialOut 2 2
expSite LocalSite 1 1
expSite LocalSite 2 2
expSite LocalSite 3 3
expElement twoNodeLink 1 1 2 -dir 1 2 6 -site 1 -orient -1 0 0 -shearDist 1 1 -initStif 140 0 0 0 2.8 0 0 0 74000
expElement twoNodeLink 11 1 2 -dir 3 -site 2 -orient -1 0 0 -shearDist 1 1 -initStif 2.8
expElement twoNodeLink 12 1 2 -dir 4 5 -site 3 -orient -1 0 0 -shearDist 1 1 -initStif 1e4 0 0 2721.6"
# the 3-D beamColumn on one setup with geometry: ThreeActuators on trial DOFs 2 1 3 of 6 (ux = B's
# shear y, uy = its axial, rz = its rz; LShapedColumn_Server2b.tcl's form), shear z held by
# nothing (shaken in X and Z only); its twin the twoNodeLinks of B's directions
BEAM_ONE="expControl SimUniaxialMaterials 1 1 2 3
expSetup ThreeActuators 1 -control 1 2 1 3 6 6 40.0 30.0 36.0 20.0 25.0 0.0 -nlGeom
expSite LocalSite 1 1
expElement beamColumn 1 1 2 1 -site 1 -initStif 140 0 0 0 0 0  0 2.8 0 0 0 0  0 0 74000 0 0 0  0 0 0 2.8 0 0  0 0 0 0 2721.6 0  0 0 0 0 0 1E4"
BEAM_ONE_TWIN="uniaxialMaterial Elastic 5 1.0e4
uniaxialMaterial Elastic 6 0.0
uniaxialMaterial Elastic 7 0.0
expControl SimUniaxialMaterials 1 1 2 3
expControl SimUniaxialMaterials 3 5 6 7
expSetup ThreeActuators 1 -control 1 2 1 3 3 3 40.0 30.0 36.0 20.0 25.0 0.0 -nlGeom
expSetup NoTransformation 3 -control 3 -dof 1 2 3 -sizeTrialOut 3 3
expSite LocalSite 1 1
expSite LocalSite 3 3
expElement twoNodeLink 1 1 2 -dir 1 2 6 -site 1 -orient -1 0 0 -shearDist 1 1 -initStif 140 0 0 0 2.8 0 0 0 74000
expElement twoNodeLink 12 1 2 -dir 4 3 5 -site 3 -orient -1 0 0 -shearDist 1 1 -initStif 1e4 0 0 0 2.8 0 0 0 2721.6"

# case NAME MODEL EXP TWIN ALGORITHM: hysim runs both (NAME/exp, NAME/twin)
case_run() {
    local c=$dir/$1
    mkdir -p "$c/exp/src" "$c/twin/src"
    $2 "$3" "$5" > "$c/exp/src/model.tcl"
    $2 "$4" "$5" > "$c/twin/src/model.tcl"
    hysim_run "$c/exp" model.tcl || fail "$1: hysim stopped on the Aggregator: $(head -3 "$c/exp/err.log")"
    hysim_run "$c/twin" model.tcl || fail "$1: hysim stopped on the twin: $(head -3 "$c/twin/err.log")"
}

# link_sum RUN: the twin's two links' forces added (RUN/link.out, as the Aggregator's one element)
link_sum() {
    paste -d' ' "$1/link.out" "$1/link11.out" |
        awk '{ printf "%s", $1; for (j = 2; j <= 7; j++) printf " %.17g", $j + $(j + 7); print "" }' > "$1/sum.out"
    mv "$1/sum.out" "$1/link.out"
}

# peak FILE COLUMN: its largest |value|
peak() { awk -v c="$2" '{ x = $c < 0 ? -$c : $c; if (x > p) p = x } END { print p + 0 }' "$1"; }

case_run newton link2d "$LINK_AGG
expElement twoNodeLink 10 6 2 -dir 1 2 3 1 -site 1" "$LINK_TWIN
expElement twoNodeLink 10 6 2 -dir 1 2 3 -site 1
expElement twoNodeLink 11 6 2 -dir 1 -site 2
recorder Element -file link11.out -time -precision 16 -ele 11 force" Newton
link_sum "$dir/newton/twin/run"
p=$(peak "$dir/newton/exp/run/nodes.out" 2)
awk -v p="$p" 'BEGIN { exit !(p > 0.6) }' || fail "link2d: the column top hardly moves (peak ux $p in; the actuator yields at 0.5)"
echo "link2d: peak ux $p in"
same link2d-newton "$dir/newton/exp/run" "$dir/newton/twin/run" 1e-12 nodes.out columns.out link.out
case_run initstif link2d "$LINK_AGG
expElement twoNodeLink 10 6 2 -dir 1 2 3 1 -site 1 -initStif 60 0 0 0 0 40 0 0 0 0 9000 0 0 0 0 9" "$LINK_TWIN
expElement twoNodeLink 10 6 2 -dir 1 2 3 -site 1 -initStif 60 0 0 0 40 0 0 0 9000
expElement twoNodeLink 11 6 2 -dir 1 -site 2 -initStif 9
recorder Element -file link11.out -time -precision 16 -ele 11 force" Linear
link_sum "$dir/initstif/twin/run"
same link2d-initstif "$dir/initstif/exp/run" "$dir/initstif/twin/run" 1e-12 nodes.out columns.out link.out
case_run beam3 beam3 "$BEAM_AGG" "$BEAM_TWIN" ""
p=$(peak "$dir/beam3/exp/run/nodes.out" 2)
awk -v p="$p" 'BEGIN { exit !(p > 1.0) }' || fail "beam3: the column top hardly moves (peak ux $p in; the actuator yields at 0.54)"
echo "beam3: peak ux $p in"
same beam3 "$dir/beam3/exp/run" "$dir/beam3/twin/run" 1e-12 nodes.out
YMOTION=0.0
case_run beam3one beam3 "$BEAM_ONE" "$BEAM_ONE_TWIN" ""
p=$(peak "$dir/beam3one/exp/run/nodes.out" 2)
awk -v p="$p" 'BEGIN { exit !(p > 1.0) }' || fail "beam3one: the column top hardly moves (peak ux $p in)"
echo "beam3one: peak ux $p in"
same beam3-one-setup "$dir/beam3one/exp/run" "$dir/beam3one/twin/run" 1e-12 nodes.out

# a 2-D beamColumn: B has 3 DOFs, the Aggregator 4
mkdir -p "$dir/bc2/src"
link2d "$LINK_AGG
expElement beamColumn 10 1 2 1 -site 1 -initStif 60 0 0 0 40 0 0 0 9000" Linear |
    grep -v '^element elasticBeamColumn' > "$dir/bc2/src/model.tcl"
hysim_run "$dir/bc2" model.tcl && fail "a 2-D beamColumn on an Aggregator of 4 trial DOFs ran"
line=$(grep -n '^expElement' "$dir/bc2/src/model.tcl" | cut -d: -f1)
grep -q "model.tcl:$line: expElement: site 1: its setup 3 (Aggregator) has a trial vector of 4, this element has 3 basic DOFs" "$dir/bc2/err.log" ||
    fail "2-D beamColumn: no refusal naming the sizes: $(head -3 "$dir/bc2/err.log")"
echo "2-D beamColumn refused: $(grep -o 'site 1: its setup 3.*' "$dir/bc2/err.log" | head -1)"

if [ -z "${OPENFRESCO_OPENSEES:-}" ] || [ ! -x "${OPENFRESCO_OPENSEES:-}" ]; then
    echo "$me: SKIP (OpenFresco itself): set OPENFRESCO_OPENSEES to an OpenSees that can loadPackage OpenFresco (docs/openfresco.md)"
    echo "$me: OK"
    exit 0
fi
# openfresco CASE: the script hysim ran (CASE/exp) in OpenFresco 2.8, in CASE/of (its exit at
# the end, a segmentation fault in its teardown, is not the run's: every row is compared)
openfresco() {
    local lib
    mkdir -p "$1/of"
    sed '1a loadPackage OpenFresco' "$1/exp/src/model.tcl" > "$1/of/model.tcl"
    lib=$(dirname "$OPENFRESCO_OPENSEES")
    (cd "$1/of" && LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} timeout 600 \
        "$OPENFRESCO_OPENSEES" model.tcl > of.log 2>&1 < /dev/null) 2> /dev/null
    grep -q "OpenFresco -- Open Framework" "$1/of/of.log" || fail "$1: OpenFresco not loaded: $(tail -3 "$1/of/of.log")"
}
openfresco "$dir/initstif"
same "link2d vs OpenFresco 2.8" "$dir/initstif/exp/run" "$dir/initstif/of" 1e-8 nodes.out columns.out link.out
openfresco "$dir/beam3"
# the element's force at its base (node 1); node 2's moment about Y is 0 in theory, round-off of
# 1e-9 in OpenFresco (its rotation of the local axes) and 0 in hysim
for f in "$dir/beam3/exp/run" "$dir/beam3/of"; do cut -d' ' -f1-7 "$f/link.out" > "$f/base.out"; done
same "beam3 vs OpenFresco 2.8" "$dir/beam3/exp/run" "$dir/beam3/of" 1e-8 nodes.out base.out
openfresco "$dir/beam3one"
for f in "$dir/beam3one/exp/run" "$dir/beam3one/of"; do cut -d' ' -f1-7 "$f/link.out" > "$f/base.out"; done
same "beam3 on ThreeActuators vs OpenFresco 2.8" "$dir/beam3one/exp/run" "$dir/beam3one/of" 1e-8 nodes.out base.out
mkdir -p "$dir/bc2x/exp/src" && cp "$dir/bc2/src/model.tcl" "$dir/bc2x/exp/src/"
openfresco "$dir/bc2x"
grep -q "ExperimentalSetup::checkSize() - wrong sizeTrial/Out from site received" "$dir/bc2x/of/of.log" ||
    fail "OpenFresco ran the 2-D beamColumn on the Aggregator: $(tail -3 "$dir/bc2x/of/of.log")"
echo "2-D beamColumn in OpenFresco 2.8: $(grep -A2 checkSize "$dir/bc2x/of/of.log" | paste -sd' ' | tr -s ' \t' ' ')"
echo "$me: OK"
