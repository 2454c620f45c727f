#!/usr/bin/env bash
# The 2-D frame model from the test file (structure.model, docs/fe_model.md):
#  - examples/fe_two_story_frame.yaml: `hysim modes` gives the shear building's periods,
#    omega^2 = k / m (3 -/+ sqrt 5) / 2 with k = 2 x 12 E I / h^3, m = 50 t;
#  - examples/fe_two_story_frame_hybrid.yaml (one column at a perfect virtual lab, attached to
#    node 3's x DOF by a control point) responds as the all-numerical frame to round-off;
#  - bad input names FILE:LINE:COL;
#  - with OPENSEES=/path/to/OpenSees, a portal frame's two periods equal OpenSees' eigen
#    (-fullGenLapack) to 1e-6; skipped with a message otherwise.
# Usage: fe_model.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
examples="$here/../../examples"
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/frame_models.sh"
work_dir

"$hysim" modes "$examples/fe_two_story_frame.yaml" > modes.out 2>&1 || fail "modes: $(cat modes.out)"
read -r t1 t2 _ <<< "$(periods modes.out)"
read -r e1 e2 < <(awk 'BEGIN { k = 2 * 12 * 200e6 * 1e-4 / 3.2^3; m = 50; pi = atan2(0, -1)
    printf "%.10g %.10g", 2 * pi / sqrt(k / m * (3 - sqrt(5)) / 2), 2 * pi / sqrt(k / m * (3 + sqrt(5)) / 2) }')
near "$t1" "$e1" 1e-4 || fail "T1 = $t1, closed form $e1"
near "$t2" "$e2" 1e-4 || fail "T2 = $t2, closed form $e2"
echo "two-story frame: T1 = $t1 s (closed form $e1), T2 = $t2 s ($e2)"
# mode 1 phi = [(sqrt 5 - 1) / 2, 1]: Gamma = sum phi / sum phi^2, effective mass m (sum phi)^2 /
# sum phi^2 of 2 m
grep -q '^DOFs: 1 = n3_ux, 2 = n5_ux (4 massless DOFs condensed)$' modes.out ||
    fail "modes: DOF names: $(cat modes.out)"
read -r g1 p1 < <(awk '$1 == "mode" && $2 == "1:" { gsub(/[,(]/, ""); print $4, $8 }' modes.out)
read -r eg ep < <(awk 'BEGIN { a = (sqrt(5) - 1) / 2; s = 1 + a; q = 1 + a * a
    printf "%.10g %.10g", s / q, 100 * s * s / q / 2 }')
near "$g1" "$eg" 1e-4 || fail "participation of mode 1: $g1, closed form $eg"
near "$p1" "$ep" 1e-4 || fail "effective mass of mode 1: $p1 %, closed form $ep %"
echo "two-story frame: mode 1 participation $g1 (closed form $eg), effective mass $p1 % ($ep %)"

"$hysim" run "$examples/fe_two_story_frame.yaml" -o num --quiet 2> err || fail "run: $(cat err)"
"$hysim" run "$examples/fe_two_story_frame_hybrid.yaml" -o hyb --quiet 2> err ||
    fail "hybrid run: $(cat err)"
[ "$(wc -l < num/response.csv)" -gt 1000 ] || fail "numerical run too short"
[ "$(wc -l < num/response.csv)" = "$(wc -l < hyb/response.csv)" ] || fail "row counts differ"
same_response "hybrid vs numerical" num/response.csv hyb/response.csv 1e-12 1e-3 || fail "the hybrid frame differs from the numerical one"

# the same frame as a shear building (springs k = 2 x 12 E I / h^3): the same response and energy
cat > sb.yaml <<'YAML'
hysim: 1
name: sb
units: {force: kN, length: m, time: s}
structure:
  dofs: 2
  mass: [50, 50]
  shear_building:
    stories: [{material: col}, {material: col}]
  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}
materials:
  col: {type: elastic, k: 14648.4375}
ground_motion:
  synthetic: {seed: 7, pga: 3.0, duration: 10, dt: 0.01}
analysis:
  integrator: {type: central_difference}
  dt: 0.009765625
  steps: 1024
YAML
"$hysim" run sb.yaml -o sb --quiet 2> err || fail "shear building run: $(cat err)"
same_response "frame vs shear building" sb/response.csv num/response.csv 1e-12 1e-3 || fail "the frame differs from the shear building"
# number KEY FILE: the first value of "KEY": in FILE
number() { grep -o "\"$1\": [-0-9.eE+]*" "$2" | head -1 | awk '{print $2}'; }
for key in strain damping input; do
    a=$(number "$key" sb/summary.json) b=$(number "$key" num/summary.json)
    [ -n "$a" ] && near "$b" "$a" 1e-9 || fail "energy $key: frame $b, shear building $a"
done
echo "frame vs shear building: strain energy $(number strain num/summary.json) in both"

# a nonlinear frame (a column on a bilinear hinge: the hinge rotation is a condensed massless DOF)
# killed after step 100 and resumed from its checkpoint gives the same response.csv, byte for byte
cat > hinge.yaml <<'YAML'
hysim: 1
name: fe-hinge
units: {force: kN, length: m, time: s}
materials:
  hinge: {type: bilinear, k: 5e4, fy: 60, b: 0.05}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 0, y: 0, fix: [1, 1, 0]}
      - {id: 3, x: 0, y: 3, mass: [20, 0, 0]}
    elements:
      - {type: zero_length, name: hinge, nodes: [1, 2], dir: rz, material: hinge}
      - {type: elastic_beam, name: col, nodes: [2, 3], E: 200e6, A: 0.01, I: 1e-4, transf: pdelta,
         axial_compression: 200}
  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}
ground_motion:
  synthetic: {seed: 3, pga: 4.0, duration: 4, dt: 0.01}
analysis:
  integrator: {type: hht}
  dt: 0.01
  steps: 300
  checkpoint_every: 7
YAML
"$hysim" run hinge.yaml -o hfull --quiet 2> err || fail "hinge run: $(cat err)"
HS_TEST_KILL_AT_STEP=100 "$hysim" run hinge.yaml -o hpart --quiet 2> /dev/null
[ $? -eq 137 ] || fail "the killed hinge run did not stop at step 100"
"$hysim" run --resume hpart --quiet 2> err || fail "hinge resume: $(cat err)"
cmp hfull/response.csv hpart/response.csv || fail "the resumed frame run differs"
awk -F, 'NR > 1 { a = $2 < 0 ? -$2 : $2; if (a > p) p = a } END { printf "hinged column: peak %g m, ", p
    exit !(p > 0.02) }' hfull/response.csv || fail "the hinge never yielded"
# (yield at F L = My: F = 20 kN, d = F L^3 / 3EI + My / k L = 0.009 + 0.0036 = 0.0126 m)
echo "killed after step 100 and resumed: response.csv identical"

# errors point at the line
sed 's/type: elastic_beam, name: col2_left/type: elastic_bean, name: col2_left/' \
    "$examples/fe_two_story_frame.yaml" > bad.yaml
refused bad.yaml "a bad element type" "bad.yaml:[0-9]*:[0-9]*: .*unknown element type 'elastic_bean'; did you mean 'elastic_beam'"
sed 's/control_point: {node: 3, dofs: \[x\]}/control_point: {node: 3, dofs: [y]}/' \
    "$examples/fe_two_story_frame_hybrid.yaml" > bad2.yaml
refused bad2.yaml "a fixed control-point DOF" "bad2.yaml:[0-9]*:[0-9]*: .*node 3 y is fixed"

# a portal frame (flexible beam, rotations and vertical DOFs condensed) against OpenSees
cat > portal.yaml <<YAML
hysim: 1
name: portal
units: {force: kN, length: m, time: s}
structure:
  model:
    nodes:
$(portal_yaml_nodes)
    elements:
      - {type: elastic_beam, nodes: [1, 3], E: 30e6, A: 0.02, I: 2e-3}
      - {type: elastic_beam, nodes: [2, 4], E: 30e6, A: 0.02, I: 2e-3}
      - {type: elastic_beam, nodes: [3, 4], E: 30e6, A: 0.03, I: 4e-3}
$(modes_only_tail)
YAML
"$hysim" modes portal.yaml > pm.out 2>&1 || fail "portal modes: $(cat pm.out)"
read -r p1 p2 _ <<< "$(periods pm.out)"
if have_opensees; then
    {
        portal_tcl Linear Linear
        cat <<'TCL'
set lam [eigen -fullGenLapack 2]
foreach l $lam { puts [format "period %.10g" [expr 2*acos(-1)/sqrt($l)]] }
TCL
    } > portal.tcl
    run_opensees portal.tcl os.out 120 || fail "OpenSees: $(tail -5 os.out)"
    read -r o1 o2 _ <<< "$(script_periods os.out)"
    near "$p1" "$o1" 1e-4 || fail "portal T1: hysim $p1, OpenSees $o1"
    near "$p2" "$o2" 1e-4 || fail "portal T2: hysim $p2, OpenSees $o2"
    echo "portal frame: hysim T = $p1, $p2 s; OpenSees $o1, $o2 s"
else
    echo "portal frame vs OpenSees: skipped (set OPENSEES=/path/to/OpenSees to compare)"
fi
echo "fe_model.sh: ok"
