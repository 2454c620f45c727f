#!/usr/bin/env bash
# OpenSees' element elastomericBearingPlasticity (ElastomericBearingPlasticity2d of OpenSees 3.8)
# in the script's own analysis against OpenSees itself, on a script written here: a one-bay
# frame on two bearings, one with nonlinear hardening (alpha2 0.02, mu 2.5), a shear distance of
# 0.3 and -doRayleigh, the other turned by -orient (its local x along +Y given, not taken from the
# chord: the same axes); the axial material Elastic with damping eta and a stiffer compression
# (Eneg). Gravity by LoadControl and Newton, loadConst, `eigen` (the tangent with the bearings'
# P-Delta is nonsymmetric: OpenSees' -fullGenLapack eigenvalues), Rayleigh betaKcomm from the
# first one (damping with the last committed tangent), then 600 steps of a sine ground motion
# that takes the bearings fifteen times past their yield (Newmark, Newton). Checks: the eigenvalues to 1e-10,
# every column of every recorder (node displacements, the bearings' global, local and basic
# forces and basic deformations) to 1e-8 of its peak, and that the bearings yielded.
# Needs OPENSEES (skipped otherwise). Usage: opensees_bearing.sh hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
need_opensees
work_dir

cat > frame.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
set m 0.02
node 1 0.0 0.0
node 2 0.0 8.0 -mass $m $m 0.0
node 3 0.0 108.0 -mass $m $m 0.0
node 4 150.0 0.0
node 5 150.0 8.0 -mass $m $m 0.0
node 6 150.0 108.0 -mass $m $m 0.0
fix 1 1 1 1
fix 4 1 1 1
uniaxialMaterial Elastic 1 10.0 0.4 1500.0
uniaxialMaterial Elastic 2 200.0
element elastomericBearingPlasticity 1 1 2 8.0 5.0 0.1 0.02 2.5 -P 1 -Mz 2 -shearDist 0.3 -doRayleigh
element elastomericBearingPlasticity 2 4 5 8.0 5.0 0.1 0.0 2.0 -P 1 -Mz 2 -orient 0.0 1.0 0.0 -1.0 0.0 0.0
geomTransf Linear 1
element elasticBeamColumn 3 2 3 20.0 29000.0 400.0 1
element elasticBeamColumn 4 5 6 20.0 29000.0 400.0 1
element elasticBeamColumn 5 2 5 20.0 29000.0 400.0 1
element elasticBeamColumn 6 3 6 20.0 29000.0 400.0 1
pattern Plain 1 Linear {
    load 2 0.0 -10.0 0.0
    load 3 0.0 -10.0 0.0
    load 5 0.0 -10.0 0.0
    load 6 0.0 -10.0 0.0
}
system BandGeneral
numberer Plain
constraints Plain
test NormDispIncr 1.0e-12 20
integrator LoadControl 0.1
algorithm Newton
analysis Static
analyze 10
loadConst -time 0.0
set lambda [eigen -fullGenLapack 4]
set f [open eigen.txt w]
foreach l $lambda { puts $f [format %.16e $l] }
close $f
rayleigh 0.0 0.0 0.0 [expr {2.0 * 0.02 / sqrt([lindex $lambda 0])}]
timeSeries Sine 2 0.0 6.0 0.8 -factor 200.0
pattern UniformExcitation 2 1 -accel 2
recorder Node -file disp.out -precision 16 -time -node 2 3 5 6 -dof 1 2 3 disp
recorder Element -file force.out -precision 16 -time -ele 1 2 force
recorder Element -file local.out -precision 16 -time -ele 1 2 localForce
recorder Element -file basic.out -precision 16 -time -ele 1 2 basicForce
recorder Element -file deform.out -precision 16 -time -ele 1 2 basicDeformation
wipeAnalysis
system BandGeneral
numberer Plain
constraints Plain
test NormDispIncr 1.0e-12 20
integrator Newmark 0.5 0.25
algorithm Newton
analysis Transient
analyze 600 0.01
TCL
mkdir -p hs/src os
cp frame.tcl hs/src/
cp frame.tcl os/
os_testfile bearing src/frame.tcl > hs/b.yaml
(cd hs && "$hysim" run b.yaml -o run > run.log 2>&1) || fail "hysim: $(grep -v warning: hs/run.log | head -3)"
(cd os && run_opensees frame.tcl os.log) || fail "OpenSees: $(tail -3 os/os.log)"
paste hs/run/eigen.txt os/eigen.txt | awk '{ r = $1 / $2 - 1; if (r < 0) r = -r; if (r > w) w = r } END { printf "%.3g\n", w; exit !(w <= 1e-10) }' > eig.txt ||
    fail "eigenvalues differ from OpenSees' by $(cat eig.txt) (hysim $(tr '\n' ' ' < hs/run/eigen.txt), OpenSees $(tr '\n' ' ' < os/eigen.txt))"
echo "$me: eigenvalues $(tr '\n' ' ' < os/eigen.txt): $(cat eig.txt) from OpenSees'"
for f in disp force local basic deform; do
    [ "$(wc -l < "hs/run/$f.out")" -eq 600 ] || fail "$f.out: $(wc -l < "hs/run/$f.out") rows, expected 600"
    w=$(worst "hs/run/$f.out" "os/$f.out" | tail -1)
    echo "$me: $f.out: $w of each column's peak from OpenSees"
    [ "$w" != rows ] && awk -v a="$w" 'BEGIN { exit !(a <= 1e-8) }' || fail "$f.out differs from OpenSees by $w"
done
# the bearings yielded: shear deformation beyond 4 times qd / k0 = 5 / 7.2
awk '{ for (j = 3; j <= 6; j += 3) { x = $j < 0 ? -$j : $j; if (x > m) m = x } } END { printf "%.4g\n", m; exit !(m > 4 * 5 / 7.2) }' \
    os/deform.out > peak.txt || fail "the bearings stayed near elastic (peak shear $(cat peak.txt))"
echo "$me: peak shear deformation $(cat peak.txt) (yield at $(awk 'BEGIN { printf "%.4g", 5 / 7.2 }'))"
echo "$me: OK"
