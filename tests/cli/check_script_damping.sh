#!/usr/bin/env bash
# `hysim check`'s warning 6 (docs/testfile.md, "What check checks"): a Tcl model whose rayleigh
# factors come from the script's own `eigen`, which does not see the experimental elements'
# stiffness. A 1-D two-story shear building (unit masses; story 1: a 50 kN/m spring in the script
# and a 50 kN/m specimen at a virtual lab, story 2: 100 kN/m) with factors for 2 % at the
# script's two frequencies. The damping of the test's modes is computed here independently:
# zeta_n = (a0 / omega_n + a1 omega_n) / 2 with omega_n of K = [[200, -100], [-100, 100]] (hysim's
# C = a0 M + a1 K0, K0 the initial stiffness with the specimen's, docs/opensees_tcl.md), a0 and
# a1 from the script's Kn = [[150, -100], [-100, 100]]. The warning names
# both; it is absent when the script's eigen sees the whole stiffness (all-numerical story 1) or
# when the test file's structure.damping is used; `check --strict` exits 1 on it.
# Usage: check_script_damping.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$dir" || exit 1

script() { # FILE K1: the shear building, story 1 of stiffness K1 in the script
    cat > "$1" <<TCL
model BasicBuilder -ndm 1 -ndf 1
node 1 0
node 2 0 -mass 1
node 3 0 -mass 1
fix 1 1
uniaxialMaterial Elastic 1 $2
uniaxialMaterial Elastic 2 100
element zeroLength 1 1 2 -mat 1 -dir 1 -doRayleigh 1
element zeroLength 2 2 3 -mat 2 -dir 1 -doRayleigh 1
set lambda [eigen 2]
set w1 [expr {sqrt([lindex \$lambda 0])}]
set w2 [expr {sqrt([lindex \$lambda 1])}]
set zeta 0.02
rayleigh [expr {2 * \$zeta * \$w1 * \$w2 / (\$w1 + \$w2)}] 0 0 [expr {2 * \$zeta / (\$w1 + \$w2)}]
TCL
}
test_file() { # FILE SCRIPT EXPERIMENTAL [DAMPING]
    cat > "$1" <<YAML
hysim: 1
name: tcl-damping
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: $2}
${4:-}
$3
ground_motion:
  synthetic: {seed: 7, pga: 3.0, duration: 10, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 100
YAML
}
exp='experimental:
  - {name: col, site: lab, control_point: {node: 2, dofs: [x]}, actuators: [act]}
sites:
  lab: {kind: virtual, rate: 1000, perfect: true, actuators: {act: {}}, specimen: {type: linear, K: [[50]]}}'
script half.tcl 50
script whole.tcl 100
test_file hybrid.yaml half.tcl "$exp"
test_file numerical.yaml whole.tcl ""
test_file own.yaml half.tcl "$exp" "  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}"

# the expected damping, from the closed-form 2 x 2 eigenproblems (M = I)
read -r z1 z2 t1 t2 s1 s2 < <(awk 'BEGIN {
    # the script: Kn = [[150, -100], [-100, 100]]
    a = 150; b = -100; c = 100; m = (a + c) / 2; r = sqrt(((a - c) / 2)^2 + b * b)
    w1 = sqrt(m - r); w2 = sqrt(m + r)
    a0 = 2 * 0.02 * w1 * w2 / (w1 + w2); a1 = 2 * 0.02 / (w1 + w2)
    # the test: K = [[200, -100], [-100, 100]]
    A = 200; m = (A + c) / 2; r = sqrt(((A - c) / 2)^2 + b * b)
    for (n = 1; n <= 2; n++) {
        w = sqrt(n == 1 ? m - r : m + r)
        z[n] = (a0 / w + a1 * w) / 2; T[n] = 2 * 3.14159265358979 / w
    }
    printf "%.3g %.3g %.4g %.4g %.4g %.4g\n", 100 * z[1], 100 * z[2], T[1], T[2],
        2 * 3.14159265358979 / w1, 2 * 3.14159265358979 / w2 }')
"$hysim" check hybrid.yaml > out 2> err || fail "check hybrid.yaml: exit $?: $(cat err)"
grep -q "^warning 1: structure.model.opensees: the rayleigh factors of half.tcl:14 give damping $z1 % (mode 1, T = $t1 s), $z2 % (mode 2, T = $t2 s) in this model's modes, yet 2 % (T = $s1 s), 2 % (T = $s2 s) at the periods of the script's own eigen (half.tcl:10)" out ||
    fail "expected $z1 % and $z2 % for 2 % (T $t1, $t2 s; script $s1, $s2 s): $(grep -E 'warning|periods' out)"
grep -q "^periods (s): .*; damping (% of critical): $z1 $z2$" out || fail "periods line: $(grep periods out)"
echo "hybrid: damping $z1 % and $z2 % where the script aimed at 2 % (its eigen: T = $s1, $s2 s; the test's: $t1, $t2 s)"
"$hysim" check --strict hybrid.yaml > /dev/null 2>&1
[ $? -eq 1 ] || fail "check --strict did not exit 1 on the damping warning"
"$hysim" check numerical.yaml > out 2> err || fail "check numerical.yaml: $(cat err)"
grep -q "^warning" out && fail "a warning when the script's eigen sees the whole model: $(grep warning out)"
grep -q "damping (% of critical): 2 2$" out || fail "the all-numerical model: $(grep periods out)"
"$hysim" check own.yaml > out 2> err || fail "check own.yaml: $(cat err)"
grep -q "structure.model.opensees: the rayleigh" out && fail "a warning about the script's rayleigh the test file replaces"
grep -q "damping (% of critical): 2 2$" out || fail "the test file's damping: $(grep periods out)"
echo "no warning when the script's eigen sees the whole model (2 %, 2 %) or when structure.damping is used"
exit 0
