#!/usr/bin/env bash
# Consistent mass from the test file (structure.model.mass_type, element rho / mass_type,
# docs/fe_model.md "Mass"):
#  - a cantilever of 8 consistent-mass beams: `hysim modes` gives the Euler-Bernoulli first
#    period 2 pi / (1.8751^2 sqrt(EI / (m L^4))) (the FE error is 2e-6);
#  - a run with the central difference method (it factors the full mass) completes;
#  - bad input names FILE:LINE:COL;
#  - the braced cantilever below written as an OpenSees Tcl script (elasticBeamColumn -mass
#    -cMass, truss -rho -cMass 1) and read by hysim (structure.model.opensees) has the YAML
#    model's periods to every printed digit;
#  - with OPENSEES=/path/to/OpenSees, a cantilever braced by a truss, consistent beam and truss
#    mass plus a nodal mass, has OpenSees' eigen periods (-cMass, -fullGenLapack), and two trusses
#    with consistent mass under a uniform excitation respond as OpenSees' UniformExcitation (whose
#    -M R ag includes the mass coupling to the fixed nodes) to 1e-9 of the peak; skipped with a
#    message otherwise.
# Usage: fe_mass.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

{
    cat <<'YAML'
hysim: 1
name: cantilever
units: {force: N, length: m, time: s}
structure:
  model:
    mass_type: consistent
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
YAML
    for k in 1 2 3 4 5 6 7 8; do echo "      - {id: $((k + 1)), x: $(awk -v k=$k 'BEGIN { print k * 0.5 }'), y: 0}"; done
    echo "    elements:"
    for k in 1 2 3 4 5 6 7 8; do
        echo "      - {type: elastic_beam, nodes: [$k, $((k + 1))], E: 2e11, A: 0.01, I: 8e-5, rho: 78.5}"
    done
    cat <<'YAML'
  damping: {none: true}
ground_motion:
  synthetic: {seed: 1, pga: 1.0, duration: 1, dt: 0.001}
analysis:
  integrator: {type: central_difference}
  dt: 0.00001
  steps: 200
YAML
} > cant.yaml
"$hysim" modes cant.yaml > m.out 2>&1 || fail "modes: $(cat m.out)"
t1=$(awk '$1 == 1 { print $2 }' m.out)
e1=$(awk 'BEGIN { b = 1.875104068711961; w = b * b * sqrt(2e11 * 8e-5 / (78.5 * 4^4))
    printf "%.10g", 2 * atan2(0, -1) / w }')
near "$t1" "$e1" 1e-4 || fail "consistent-mass cantilever T1 = $t1, Euler-Bernoulli $e1: $(head -5 m.out)"
echo "consistent-mass cantilever: T1 = $t1 s (Euler-Bernoulli $e1 s)"
"$hysim" run cant.yaml -o run --quiet 2> err || fail "central difference run: $(cat err)"
[ "$(wc -l < run/response.csv)" -eq 202 ] || fail "run: $(wc -l < run/response.csv) rows"

sed 's/mass_type: consistent/mass_type: distributed/' cant.yaml > bad.yaml
refused bad.yaml "a bad mass_type" "bad.yaml:6:[0-9]*: structure.model.mass_type: expected lumped or consistent, got 'distributed'"
sed 's/I: 8e-5, rho: 78.5}/I: 8e-5, rho: -1}/' cant.yaml > bad2.yaml
refused bad2.yaml "a negative rho" "bad2.yaml:[0-9]*:[0-9]*: .*rho (mass per length) must be >= 0"

cat > braced.yaml <<'YAML'
hysim: 1
name: braced
units: {force: N, length: m, time: s}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 1, y: 0}
      - {id: 3, x: 2, y: 0}
      - {id: 4, x: 3, y: 0, mass: [50, 50, 0]}
      - {id: 5, x: 2, y: -1.5, fix: [1, 1, 1]}
    elements:
      - {type: elastic_beam, nodes: [1, 2], E: 2e11, A: 0.01, I: 8e-5, rho: 78.5, mass_type: consistent}
      - {type: elastic_beam, nodes: [2, 3], E: 2e11, A: 0.01, I: 8e-5, rho: 78.5, mass_type: consistent}
      - {type: elastic_beam, nodes: [3, 4], E: 2e11, A: 0.01, I: 8e-5, rho: 78.5, mass_type: consistent}
      - {type: truss, nodes: [5, 3], E: 2e11, A: 0.0005, rho: 20, mass_type: consistent}
  damping: {none: true}
ground_motion:
  synthetic: {seed: 1, pga: 1.0, duration: 1, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.001
  steps: 10
YAML
"$hysim" modes braced.yaml > bm.out 2>&1 || fail "braced modes: $(cat bm.out)"
read -r p1 p2 p3 _ <<< "$(periods bm.out)"
cat > braced.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 1 0; node 3 2 0; node 4 3 0; node 5 2 -1.5
fix 1 1 1 1; fix 5 1 1 1
mass 4 50 50 0
geomTransf Linear 1
element elasticBeamColumn 1 1 2 0.01 2e11 8e-5 1 -mass 78.5 -cMass
element elasticBeamColumn 2 2 3 0.01 2e11 8e-5 1 -mass 78.5 -cMass
element elasticBeamColumn 3 3 4 0.01 2e11 8e-5 1 -mass 78.5 -cMass
uniaxialMaterial Elastic 1 2e11
element truss 4 5 3 0.0005 1 -rho 20 -cMass 1
set lam [eigen -fullGenLapack 3]
foreach l $lam { puts [format "period %.10g" [expr 2*acos(-1)/sqrt($l)]] }
TCL
# the same script as hysim's model (structure.model.opensees: -cMass of beams and trusses)
tcl_twin braced.yaml braced.tcl > braced_tcl.yaml
"$hysim" modes braced_tcl.yaml > tm.out 2>&1 || fail "braced.tcl modes: $(cat tm.out)"
read -r q1 q2 q3 _ <<< "$(periods tm.out)"
[ "$p1 $p2 $p3" = "$q1 $q2 $q3" ] || fail "braced.tcl (-cMass) periods $q1 $q2 $q3, the YAML's $p1 $p2 $p3"
echo "braced cantilever from the Tcl script (-cMass): T = $q1, $q2, $q3 s, as the YAML model"
if have_opensees; then
    run_opensees braced.tcl os.out 120 || fail "OpenSees: $(tail -5 os.out)"
    read -r o1 o2 o3 _ <<< "$(script_periods os.out)"
    near "$p1" "$o1" 1e-4 || fail "braced T1: hysim $p1, OpenSees $o1"
    near "$p2" "$o2" 1e-4 || fail "braced T2: hysim $p2, OpenSees $o2"
    near "$p3" "$o3" 1e-4 || fail "braced T3: hysim $p3, OpenSees $o3"
    echo "braced cantilever, consistent mass: hysim T = $p1, $p2, $p3 s; OpenSees $o1, $o2, $o3 s"
    # uniform excitation of two trusses with consistent mass: the mass coupling to the fixed
    # nodes loads the free node too (OpenSees' -M R ag over all nodes)
    decaying_sine ag.txt 4 2
    cat > trusses.yaml <<'YAML'
hysim: 1
name: trusses
units: {force: kN, length: m, time: s}
structure:
  model:
    mass_type: consistent
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 3, y: 4, fix: [0, 0, 1], mass: [2, 2, 0]}
      - {id: 3, x: 6, y: 0, fix: [1, 1, 1]}
    elements:
      - {type: truss, nodes: [1, 2], E: 2e8, A: 0.001, rho: 30}
      - {type: truss, nodes: [3, 2], E: 2e8, A: 0.002, rho: 40}
  damping: {none: true}
ground_motion: {file: ag.txt, format: columns, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 300
  initial_acceleration: zero
YAML
    cat > trusses.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 2
node 1 0 0; node 2 3 4; node 3 6 0
fix 1 1 1; fix 3 1 1
mass 2 2 2
uniaxialMaterial Elastic 1 2e8
element truss 1 1 2 0.001 1 -rho 30 -cMass 1
element truss 2 3 2 0.002 1 -rho 40 -cMass 1
timeSeries Path 2 -dt 0.01 -filePath ag.txt
pattern UniformExcitation 2 1 -accel 2
recorder Node -file tr.out -time -precision 16 -node 2 -dof 1 2 disp
TCL
    tcl_newmark 300 Plain >> trusses.tcl
    run_opensees trusses.tcl os2.out 120 || fail "OpenSees trusses: $(tail -5 os2.out)"
    "$hysim" run trusses.yaml -o tr --quiet 2> err || fail "trusses run: $(cat err)"
    within_opensees "consistent-mass trusses, uniform excitation vs OpenSees" tr/response.csv tr.out 1e-9 1e-3 300 ||
        fail "the consistent-mass trusses differ from OpenSees"
else
    echo "consistent mass vs OpenSees: skipped (set OPENSEES=/path/to/OpenSees to compare)"
fi
echo "fe_mass.sh: ok"
