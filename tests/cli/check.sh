#!/usr/bin/env bash
# `hysim check` and `hysim modes` on a good and a bad test definition.
# Usage: check.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$dir/good.yaml" <<'YAML'
hysim: 1
name: two-story-shear
units: {force: kip, length: in, time: s}
structure:
  dofs: 2
  mass: [0.0103600103600104, 0.0103600103600104]
  shear_building:
    stories: [{material: col}, {material: col}]
  damping: {rayleigh: {modes: [1, 2], ratios: [0.05, 0.05]}}
materials:
  col: {type: elastic, k: 2.8}
ground_motion:
  synthetic: {seed: 7, pga: 3.0, duration: 2, dt: 0.01}
analysis:
  integrator: {type: newmark_explicit}
  dt: 0.01
  duration: 30
YAML
sed 's/  damping:/  dampnig:/' "$dir/good.yaml" > "$dir/bad.yaml"

out=$("$hysim" check "$dir/good.yaml" 2>&1); rc=$?
[ $rc -eq 0 ] || fail "check good: exit $rc: $out"
[ "$(echo "$out" | head -1)" = "$dir/good.yaml: ok (2 DOFs, integrator newmark_explicit, 3000 steps)" ] ||
    fail "check good printed: $out"
# the physics report follows (tests/cli/check_physics.sh); a sound file has no warning
echo "$out" | grep -q '^periods (s): 0.6184 0.23621;' || fail "check good: no periods: $out"
! echo "$out" | grep -q '^warning' || fail "check good warned: $out"

out=$("$hysim" check "$dir/bad.yaml" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "check bad: exit $rc (expected 2): $out"
case "$out" in
"$dir/bad.yaml:9:3: unknown key 'dampnig' in structure; did you mean 'damping'?"*) ;;
*) fail "check bad printed: $out" ;;
esac

out=$("$hysim" check "$dir/missing.yaml" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "check missing file: exit $rc"

out=$("$hysim" modes "$dir/good.yaml" 2>&1); rc=$?
[ $rc -eq 0 ] || fail "modes good: exit $rc: $out"
# periods of the two-story frame, T = 2 pi / omega, omega^2 = (k/m)(3 -+ sqrt 5)/2
echo "$out" | grep -Eq '^ +1 +0\.6184[0-9]* ' || fail "modes: no period 0.6184 for mode 1: $out"
echo "$out" | grep -Eq '^ +2 +0\.2362[0-9]* ' || fail "modes: no period 0.2362 for mode 2: $out"
# mode 1 shape normalised to max 1: [(sqrt 5 - 1)/2, 1] = [0.6180, 1]
echo "$out" | grep -Eq '^ +1 .* 0\.6180 +1\.0000$' || fail "modes: mode 1 shape: $out"

out=$("$hysim" modes "$dir/bad.yaml" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "modes bad: exit $rc (expected 2)"
echo "ok"
