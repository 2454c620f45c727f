#!/usr/bin/env bash
# OpenFresco's expElement generic over two nodes in a script (docs/openfresco.md, "Setups with
# several actuators"; EEGeneric.cpp: its basic DOFs are listed DOFs of any nodes, their absolute
# displacements), on a perfect virtual laboratory (SimUniaxialMaterials): a two-story frame
# (columns elasticBeamColumn, floors at nodes 2 and 3 with mass in x and y) whose floors are held
# against a reaction wall by one experimental element on node 2's and node 3's ux through
# `expSetup NoTransformation -dof 1 2` (two actuators: Steel01 yielding on floor 1, Elastic on
# floor 2), under a ground motion in x with Newmark.
#  - Newton, no -initStif: its twin is the same frame with the two specimens as zeroLength
#    springs from fixed nodes at the floors. hysim runs both and must agree to 1e-10 of each
#    column's peak (the floors' displacements, the lower column's end forces; the upper one's
#    moment at the free top is round-off); with OPENSEES set,
#    OpenSees runs the twin, to 1e-8.
#  - `algorithm Linear` with -initStif coupling the floors (k11 k12; k12 k22): the element's
#    stiffness is -initStif, its force the specimens'. The OpenSees twin (OPENSEES set) adds the
#    part of -initStif the specimens' initial stiffness lacks as springs without force (Elastic in
#    MinMax +-1e-300: tests/cli/lib/openfresco_twin.tcl's device): k11 + k12 - E1 from the wall to
#    floor 1, k22 + k12 - E2 to floor 2, and -k12 between the floors, with `algorithm Linear
#    -initial` (its matrix is then the frame's plus -initStif); 1e-8 of the peaks.
# Usage: openfresco_generic.sh hysim
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
node 12 0.0 120.0
node 13 0.0 240.0
fix 1 1 1 1
fix 12 1 1 1
fix 13 1 1 1
geomTransf Linear 1
element elasticBeamColumn 1 1 2 20.0 29000.0 150.0 1
element elasticBeamColumn 2 2 3 20.0 29000.0 100.0 1
uniaxialMaterial Steel01 1 4.0 12.0 0.05
uniaxialMaterial Elastic 2 8.0
$1
timeSeries Sine 1 0.0 3.0 0.4 -factor 120.0
pattern UniformExcitation 1 1 -accel 1
recorder Node -file floors.out -time -precision 16 -node 2 3 -dof 1 2 3 disp
recorder Element -file columns.out -time -precision 16 -ele 1 force
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

EXP='expControl SimUniaxialMaterials 1 1 2
expSetup NoTransformation 1 -control 1 -dof 1 2 -sizeTrialOut 2 2
expSite LocalSite 1 1'
SPRINGS='element zeroLength 10 12 2 -mat 1 -dir 1
element zeroLength 11 13 3 -mat 2 -dir 1'

c=$dir/newton
mkdir -p "$c/exp/src" "$c/twin/src" "$c/os"
model "$EXP
expElement generic 10 -node 2 3 -dof 1 -dof 1 -site 1" Newton > "$c/exp/src/model.tcl"
model "$SPRINGS" Newton > "$c/twin/src/model.tcl"
cp "$c/twin/src/model.tcl" "$c/os/model.tcl"
hysim_run "$c/exp" model.tcl || fail "newton: hysim stopped on the experimental script: $(head -3 "$c/exp/err.log")"
hysim_run "$c/twin" model.tcl || fail "newton: hysim stopped on the twin: $(head -3 "$c/twin/err.log")"
moves "$c/exp/run" newton
compare "newton: hysim experimental vs hysim twin" "$c/exp/run" "$c/twin/run" 1e-10

# -initStif coupling the floors: k11 = 20, k22 = 14, k12 = -6 (E1 = 12, E2 = 8)
c=$dir/initstif
mkdir -p "$c/exp/src" "$c/os"
model "$EXP
expElement generic 10 -node 2 3 -dof 1 -dof 1 -site 1 -initStif 20.0 -6.0 -6.0 14.0" Linear > "$c/exp/src/model.tcl"
hysim_run "$c/exp" model.tcl || fail "initstif: hysim stopped on the experimental script: $(head -3 "$c/exp/err.log")"
moves "$c/exp/run" initstif
# the same without the coupling must differ (the coupling reaches the response)
mkdir -p "$c/plain/src"
model "$EXP
expElement generic 10 -node 2 3 -dof 1 -dof 1 -site 1 -initStif 20.0 0.0 0.0 14.0" Linear > "$c/plain/src/model.tcl"
hysim_run "$c/plain" model.tcl || fail "initstif: hysim stopped without the coupling: $(head -3 "$c/plain/err.log")"
w=$(worst "$c/exp/run/floors.out" "$c/plain/run/floors.out" | tail -1)
echo "initstif: with vs without the coupling k12: $w of the peak"
awk -v a="$w" 'BEGIN { exit !(a > 1e-4) }' || fail "initstif: the coupling k12 changes nothing ($w of the peak)"

if ! have_opensees; then
    echo "$me: OpenSees comparison skipped (set OPENSEES=/path/to/OpenSees)"
    echo "$me: OK"
    exit 0
fi
(cd "$dir/newton/os" && run_opensees model.tcl os.log) || fail "newton: OpenSees stopped: $(tail -3 "$dir/newton/os/os.log")"
compare "newton: hysim experimental vs OpenSees twin" "$dir/newton/exp/run" "$dir/newton/os" 1e-8
# -initStif = (k11 + k12) e1 e1' + (k22 + k12) e2 e2' - k12 (e1 - e2)(e1 - e2)': from the wall
# 14 to floor 1 (the specimen has 12 of it), 8 to floor 2 (the specimen's 8), 6 between floors
model "$SPRINGS
$(zero_force 21 2.0)
$(zero_force 23 6.0)
element zeroLength 20 12 2 -mat 121 -dir 1
element zeroLength 22 2 3 -mat 123 -dir 1" "Linear -initial" > "$c/os/model.tcl"
(cd "$c/os" && run_opensees model.tcl os.log) || fail "initstif: OpenSees stopped: $(tail -3 "$c/os/os.log")"
compare "initstif: hysim experimental vs OpenSees twin" "$c/exp/run" "$c/os" 1e-8
echo "$me: OK"
