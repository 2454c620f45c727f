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
# First, without OpenSees: the YAML model's bearing against the script's (below). The rest needs
# OPENSEES (skipped otherwise). Usage: opensees_bearing.sh hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
work_dir

# The YAML model's bearing: a two_node_link with bearing_plasticity on its shear, p_delta [0.5,
# 0.5] and p_delta_rotation 0.5, equals the script's elastomericBearingPlasticity (the test
# file's analysis, one bearing under a mass whose axial compression is its material's initial
# stress, balanced by a column link above; a rotation that moves) byte for byte.
cat > iso.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0
node 2 0 0.5
node 3 0 3.0
fix 1 1 1 1
fix 3 1 1 1
mass 2 40 40 0.5
uniaxialMaterial Steel02 1 1e12 8e5 0.01 20 0.925 0.15 0 1 0 1 -2000.0
uniaxialMaterial Elastic 3 900
uniaxialMaterial Steel02 4 1e12 3e5 0.01 20 0.925 0.15 0 1 0 1 -2000.0
element elastomericBearingPlasticity 1 1 2 4000.0 60.0 0.1 0.05 2.0 -P 1 -Mz 3 -shearDist 0.4
element twoNodeLink 2 2 3 -mat 4 -dir 1
TCL
cat > iso.yaml <<'YAML'
hysim: 1
name: iso
units: {force: kN, length: m, time: s}
materials:
  axial: {type: steel02, fy: 1e12, E0: 8e5, b: 0.01, R0: 20, cR1: 0.925, cR2: 0.15, a1: 0,
          a2: 1, a3: 0, a4: 1, sig_init: -2000}
  shear: {type: bearing_plasticity, k_init: 4000, q_yield: 60, alpha1: 0.1, alpha2: 0.05, mu: 2}
  rot: {type: elastic, k: 900}
  column: {type: steel02, fy: 1e12, E0: 3e5, b: 0.01, R0: 20, cR1: 0.925, cR2: 0.15, a1: 0,
           a2: 1, a3: 0, a4: 1, sig_init: -2000}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 0, y: 0.5, mass: [40, 40, 0.5]}
      - {id: 3, x: 0, y: 3.0, fix: [1, 1, 1]}
    elements:
      - {type: two_node_link, nodes: [1, 2], dirs: [x, y, rz], materials: [axial, shear, rot],
         p_delta: [0.5, 0.5], p_delta_rotation: 0.5, shear_dist: 0.4}
      - {type: two_node_link, nodes: [2, 3], dirs: [x], materials: [column]}
  damping: {none: true}
ground_motion:
  synthetic: {seed: 2, pga: 6.0, duration: 3, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 300
YAML
tcl_twin iso.yaml iso.tcl > iso_tcl.yaml
"$hysim" run iso.yaml -o yaml_run --quiet > yaml_run.log 2>&1 || fail "hysim run (YAML)"
"$hysim" run iso_tcl.yaml -o tcl_run --quiet > tcl_run.log 2>&1 || fail "hysim run (Tcl)"
cmp -s yaml_run/response.csv tcl_run/response.csv ||
    fail "the YAML bearing's response.csv differs from the Tcl one's: $(diff yaml_run/response.csv tcl_run/response.csv | head -4)"
awk -F, 'NR > 2 { a = $2 < 0 ? -$2 : $2; if (a > p) p = a } END { printf "%.4g\n", p; exit !(p > 60 / 3600.0) }' \
    yaml_run/response.csv > peak.txt || fail "the bearing stayed elastic (peak $(cat peak.txt) m)"
echo "$me: the YAML bearing equals the script's byte for byte (peak $(cat peak.txt) m, yield at $(awk 'BEGIN { printf "%.4g", 60 / 3600 }'))"

rest_needs_opensees

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
