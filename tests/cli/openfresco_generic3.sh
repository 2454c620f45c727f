#!/usr/bin/env bash
# OpenFresco's expElement generic over three nodes (docs/openfresco.md, "Setups with several
# actuators"; EEGeneric.cpp: its basic DOFs are listed DOFs of any number of nodes, their
# absolute displacements, its -initStif over all of them), on a perfect virtual laboratory
# (SimUniaxialMaterials): a three-story frame (columns elasticBeamColumn, floors at nodes 2, 3, 4
# with mass in x and y) whose floors are held against a reaction wall by one experimental element
# on the three floors' ux through `expSetup NoTransformation -dof 1 2 3` (three actuators:
# Steel01 yielding on floor 1, Elastic on floors 2 and 3), under a ground motion in x with
# Newmark. hysim builds it as a link per pair of floors (their stiffness between them), which
# add up to the element.
#  - Newton, no -initStif: its twin is the same frame with the three specimens as zeroLength
#    springs from fixed nodes at the floors: hysim's twin to 1e-10 of each column's peak, and with
#    OPENSEES set, OpenSees 3.8 running the twin to 1e-8.
#  - `algorithm Linear` with -initStif coupling every pair of floors (k12, k13, k23): the
#    element's stiffness is -initStif, its force the specimens'. The twin adds the part of
#    -initStif the specimens lack as springs without force (Elastic in MinMax +-1e-300, as
#    openfresco_generic.sh): -k_ab between floors a and b, sum_b k_ab - E_a from the wall to floor
#    a, under `algorithm Linear -initial` (hysim has no MinMax: OpenSees runs it), to 1e-8. Without
#    the couplings the response must differ (they reach it).
# Usage: openfresco_generic3.sh hysim
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
node 2 0.0 120.0 -mass 0.2 0.2 0.0
node 3 0.0 240.0 -mass 0.15 0.15 0.0
node 4 0.0 360.0 -mass 0.1 0.1 0.0
node 12 0.0 120.0
node 13 0.0 240.0
node 14 0.0 360.0
fix 1 1 1 1
fix 12 1 1 1
fix 13 1 1 1
fix 14 1 1 1
geomTransf Linear 1
element elasticBeamColumn 1 1 2 20.0 29000.0 150.0 1
element elasticBeamColumn 2 2 3 20.0 29000.0 100.0 1
element elasticBeamColumn 3 3 4 20.0 29000.0 80.0 1
uniaxialMaterial Steel01 1 4.0 12.0 0.05
uniaxialMaterial Elastic 2 8.0
uniaxialMaterial Elastic 3 5.0
$1
timeSeries Sine 1 0.0 3.0 0.4 -factor 120.0
pattern UniformExcitation 1 1 -accel 1
recorder Node -file floors.out -time -precision 16 -node 2 3 4 -dof 1 2 3 disp
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

EXP='expControl SimUniaxialMaterials 1 1 2 3
expSetup NoTransformation 1 -control 1 -dof 1 2 3 -sizeTrialOut 3 3
expSite LocalSite 1 1'
SPRINGS='element zeroLength 10 12 2 -mat 1 -dir 1
element zeroLength 11 13 3 -mat 2 -dir 1
element zeroLength 12 14 4 -mat 3 -dir 1'

c=$dir/newton
mkdir -p "$c/exp/src" "$c/twin/src" "$c/os"
model "$EXP
expElement generic 10 -node 2 3 4 -dof 1 -dof 1 -dof 1 -site 1" Newton > "$c/exp/src/model.tcl"
model "$SPRINGS" Newton > "$c/twin/src/model.tcl"
cp "$c/twin/src/model.tcl" "$c/os/model.tcl"
hysim_run "$c/exp" model.tcl || fail "newton: hysim stopped on the experimental script: $(head -3 "$c/exp/err.log")"
hysim_run "$c/twin" model.tcl || fail "newton: hysim stopped on the twin: $(head -3 "$c/twin/err.log")"
moves "$c/exp/run" newton
compare "newton: hysim experimental vs hysim twin" "$c/exp/run" "$c/twin/run" 1e-10

# -initStif coupling every pair of floors: k11 20, k22 17, k33 10, k12 -6, k13 -2, k23 -3
# (column-major, symmetric); row sums 12, 8, 5 = the specimens' E, so the twin's springs from
# the wall carry none of it and its springs between the floors 6 (1-2), 2 (1-3), 3 (2-3)
K="20.0 -6.0 -2.0 -6.0 17.0 -3.0 -2.0 -3.0 10.0"
c=$dir/initstif
mkdir -p "$c/exp/src" "$c/twin/src" "$c/os"
model "$EXP
expElement generic 10 -node 2 3 4 -dof 1 -dof 1 -dof 1 -site 1 -initStif $K" Linear > "$c/exp/src/model.tcl"
hysim_run "$c/exp" model.tcl || fail "initstif: hysim stopped on the experimental script: $(head -3 "$c/exp/err.log")"
moves "$c/exp/run" initstif
# the same without the couplings must differ (they reach the response)
mkdir -p "$c/plain/src"
model "$EXP
expElement generic 10 -node 2 3 4 -dof 1 -dof 1 -dof 1 -site 1 -initStif 20.0 0 0 0 17.0 0 0 0 10.0" Linear > "$c/plain/src/model.tcl"
hysim_run "$c/plain" model.tcl || fail "initstif: hysim stopped without the couplings: $(head -3 "$c/plain/err.log")"
w=$(worst "$c/exp/run/floors.out" "$c/plain/run/floors.out" | tail -1)
echo "initstif: with vs without the couplings: $w of the peak"
awk -v a="$w" 'BEGIN { exit !(a > 1e-4) }' || fail "initstif: the couplings change nothing ($w of the peak)"
model "$SPRINGS
$(zero_force 21 6.0)
$(zero_force 22 2.0)
$(zero_force 23 3.0)
element zeroLength 20 2 3 -mat 121 -dir 1
element zeroLength 21 2 4 -mat 122 -dir 1
element zeroLength 22 3 4 -mat 123 -dir 1" "Linear -initial" > "$c/twin/src/model.tcl"
cp "$c/twin/src/model.tcl" "$c/os/model.tcl"

if ! have_opensees; then
    echo "$me: OpenSees comparison skipped (set OPENSEES=/path/to/OpenSees)"
    echo "$me: OK"
    exit 0
fi
(cd "$dir/newton/os" && run_opensees model.tcl os.log) || fail "newton: OpenSees stopped: $(tail -3 "$dir/newton/os/os.log")"
compare "newton: hysim experimental vs OpenSees twin" "$dir/newton/exp/run" "$dir/newton/os" 1e-8
(cd "$c/os" && run_opensees model.tcl os.log) || fail "initstif: OpenSees stopped: $(tail -3 "$c/os/os.log")"
compare "initstif: hysim experimental vs OpenSees twin" "$c/exp/run" "$c/os" 1e-8
echo "$me: OK"
