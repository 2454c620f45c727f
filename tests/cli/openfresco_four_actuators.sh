#!/usr/bin/env bash
# OpenFresco's expSetup FourActuators3d in a script (docs/openfresco.md; ESFourActuators3d.cpp),
# on a perfect virtual laboratory (SimUniaxialMaterials): a 3-D cantilever column (node 2 at its
# top, mass in every DOF) held at its top by four actuators through one expElement generic on
# node 2 (-dof 3 1 5 2 4 6 with -phiLocX 180: the setup's D = (ux, uy, rx, ry) of node 2 in
# global axes), Steel01 yielding on actuator 1, Elastic on the others, under a two-component sine
# ground motion with Newmark and Newton. The setup's geometry is always exact (OpenFresco has no
# linear form) and its rotations a rotation vector. It controls ux, uy, rx, ry and takes uz and
# rz as zero (held by the test rig's guides): node 2's uz and rz are fixed in both models, else
# the twin's actuators would also push the top up and twist it.
# Its twin carries the actuators as corotTruss elements from fixed bases to pin nodes, the pins on
# node 2 by stiff corotational beams (the arms; hysim's 3-D corotational beam reads the rotation
# DOFs as a total rotation vector, docs/fe_model.md), each truss's material the specimen's with
# E' = E La and the same yield force (its strain is the stroke over the length La). The strokes
# are the same functions of the pose in both; the forces differ at second order in the tilt: the
# experimental element puts the setup's moments about the column top on the rotation DOFs, as
# OpenFresco's elements put its setups' daq forces on their basic DOFs, while the twin's nodal
# moments are the work conjugates of its rotation vector (T(psi)^T m, which differs from m by
# terms in psi^2 when rz is held). So at a peak tilt of 0.011 rad the two agree to 1e-4 of
# each column's peak, and ten times larger (0.13 rad, well past yield) the relative difference
# grows by the square of the amplitude (asserted: 30 to 300 times), as that term does. A twin
# with OpenSees is not made: its corotational rotations are incremental, not a rotation vector,
# and its rigid links linear.
# Usage: openfresco_four_actuators.sh hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
work_dir

# model PARTS AMPLITUDE
model() {
    cat <<TCL
model BasicBuilder -ndm 3 -ndf 6
node 1 0.0 0.0 0.0
node 2 0.0 0.0 100.0 -mass 0.2 0.2 0.2 40.0 40.0 40.0
fix 1 1 1 1 1 1 1
fix 2 0 0 1 0 0 1
geomTransf Linear 1 0.0 1.0 0.0
element elasticBeamColumn 1 1 2 20.0 29000.0 11000.0 300.0 150.0 150.0 1
uniaxialMaterial Steel01 1 5.0 10.0 0.05
uniaxialMaterial Elastic 2 8.0
uniaxialMaterial Elastic 3 12.0
uniaxialMaterial Elastic 4 9.0
$1
timeSeries Sine 1 0.0 3.0 0.5 -factor $((15 * $2)).0
timeSeries Sine 2 0.0 3.0 0.35 -factor $((11 * $2)).0
pattern UniformExcitation 1 1 -accel 1
pattern UniformExcitation 2 2 -accel 2
recorder Node -file top.out -time -precision 16 -node 2 -dof 1 2 3 4 5 6 disp
constraints Transformation
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 50
algorithm Newton
integrator Newmark 0.5 0.25
analysis Transient
analyze 400 0.005
TCL
}

# L1 .. L4 a1 .. a4 h: actuators 1, 3 along x pinned at (-a1, 0, 0) and (-a3, 0, h) from the
# column top, 2, 4 along y at (0, -a2, 0) and (0, -a4, h)
L=(40.0 36.0 44.0 38.0) A=(6.0 5.0 7.0 4.0) H=12.0
twin() {
    local i x y z bx by
    printf 'geomTransf Corotational 2 0.0 0.0 1.0\ngeomTransf Corotational 3 0.0 1.0 0.0\n'
    printf 'uniaxialMaterial Steel01 101 5.0 %s 0.05\n' "$(awk -v l="${L[0]}" 'BEGIN { printf "%.17g", 10 * l }')"
    printf 'uniaxialMaterial Elastic 102 %s\n' "$(awk -v l="${L[1]}" 'BEGIN { printf "%.17g", 8 * l }')"
    printf 'uniaxialMaterial Elastic 103 %s\n' "$(awk -v l="${L[2]}" 'BEGIN { printf "%.17g", 12 * l }')"
    printf 'uniaxialMaterial Elastic 104 %s\n' "$(awk -v l="${L[3]}" 'BEGIN { printf "%.17g", 9 * l }')"
    for i in 0 1 2 3; do
        z=$(awk -v h="$H" -v i="$i" 'BEGIN { print 100 + (i >= 2 ? h : 0) }')
        if [ $((i % 2)) -eq 0 ]; then
            x=-${A[$i]} y=0.0 bx=$(awk -v a="${A[$i]}" -v l="${L[$i]}" 'BEGIN { print -a - l }') by=0.0
        else
            x=0.0 y=-${A[$i]} bx=0.0 by=$(awk -v a="${A[$i]}" -v l="${L[$i]}" 'BEGIN { print -a - l }')
        fi
        printf 'node %d %s %s %s\nnode %d %s %s %s\nfix %d 1 1 1 1 1 1\n' $((21 + i)) "$x" "$y" "$z" \
            $((31 + i)) "$bx" "$by" "$z" $((31 + i))
        printf 'element elasticBeamColumn %d 2 %d 10.0 1.0e9 4.0e8 2.0e3 1.0e3 1.0e3 %d\n' \
            $((21 + i)) $((21 + i)) $((i >= 2 ? 3 : 2))
        printf 'element corotTruss %d %d %d 1.0 %d\n' $((11 + i)) $((31 + i)) $((21 + i)) $((101 + i))
    done
}
EXP="expControl SimUniaxialMaterials 1 1 2 3 4
expSetup FourActuators3d 1 -control 1 ${L[*]} ${A[*]} $H 1.0 1.0 1.0 1.0 1.0 1.0 1.0 -nlGeom -phiLocX 180
expSite LocalSite 1 1
expElement generic 10 -node 2 -dof 3 1 5 2 4 6 -site 1"
# run AMPLITUDE: both models; prints the worst difference over the columns of top.out
run() {
    local c=$dir/a$1
    mkdir -p "$c/exp/src" "$c/twin/src"
    model "$EXP" "$1" > "$c/exp/src/model.tcl"
    model "$(twin)" "$1" > "$c/twin/src/model.tcl"
    hysim_run "$c/exp" model.tcl || fail "hysim stopped on the experimental script: $(head -3 "$c/exp/err.log")"
    hysim_run "$c/twin" model.tcl || fail "hysim stopped on the twin: $(head -3 "$c/twin/err.log")"
    awk 'NR > 1 { for (j = 2; j <= 7; j++) { x = $j < 0 ? -$j : $j; if (x > p[j]) p[j] = x } }
         END { printf "peaks: ux %g uy %g (in), rx %g ry %g (rad)\n", p[2], p[3], p[5], p[6] > "/dev/stderr"
               exit !(p[2] > 0.05 && p[5] > 0.0002 && p[6] > 0.001) }' "$c/exp/run/top.out" ||
        fail "the column top hardly moves"
    worst "$c/exp/run/top.out" "$c/twin/run/top.out" | tail -1
}
small=$(run 1) || { echo "$small"; exit 1; }
echo "amplitude 1: top.out: hysim experimental vs hysim twin (stiff corotational arms): $small of the peak"
[ "$small" != rows ] && awk -v a="$small" 'BEGIN { exit !(a <= 1e-4) }' ||
    fail "the experimental FourActuators3d differs from its twin by $small of the peak"
large=$(run 10) || { echo "$large"; exit 1; }
echo "amplitude 10: top.out: $large of the peak (ratio $(awk -v a="$large" -v b="$small" 'BEGIN { printf "%.0f", a / b }'))"
awk -v a="$large" -v b="$small" 'BEGIN { exit !(a / b >= 30 && a / b <= 300) }' ||
    fail "the difference does not grow as the square of the amplitude ($small, then $large)"
echo "$me: OK"
