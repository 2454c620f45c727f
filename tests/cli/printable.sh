#!/usr/bin/env bash
# What files and peers say reaches the terminal without escape sequences: a test file whose units
# hold an ESC character is refused by `hysim check` with FILE:LINE:COL and the character's code;
# a site file whose name holds one is refused by `hysim site` the same way. Neither output
# contains an ESC byte (what peers send is tested in tests/test_site_server_guard.c).
set -u
HYSIM=${1:?usage: printable.sh PATH_TO_hysim}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
esc=$(printf '\033')

# "\e" is YAML's escape for ESC (a raw ESC byte is refused by the YAML parser already)
cat > "$dir/t.yaml" <<'YAML'
hysim: 1
name: escapes
units: {force: "\e[31mkN", length: m, time: s}
materials: {c: {type: elastic, k: 10}}
structure:
  dofs: 1
  mass: [1]
  springs: [{from: ground, to: 1, material: c}]
  damping: {rayleigh: {modes: [1, 1], ratios: [0.02, 0.02]}}
ground_motion: {synthetic: {seed: 1, pga: 1, duration: 1, dt: 0.01}}
analysis: {integrator: {type: newmark_explicit}, dt: 0.01, steps: 10}
YAML
"$HYSIM" check "$dir/t.yaml" >"$dir/check.out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "check with an ESC in units: exit $rc, not 2: $(cat -v "$dir/check.out")"
grep -q "t.yaml:3:[0-9]*: units.force: control character 0x1b at character 1" "$dir/check.out" ||
    fail "check: $(cat -v "$dir/check.out")"
grep -q "$esc" "$dir/check.out" && fail "check printed an ESC byte: $(cat -v "$dir/check.out")"

printf 'site:\n  name: "\\e[31mRED"\n  plain: true\n  listen: "127.0.0.1:0"\n  actuators: {a1: {}}\n  specimen: {type: linear, K: [[1]]}\n' > "$dir/s.yaml"
"$HYSIM" site --config "$dir/s.yaml" >"$dir/site.out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "site with an ESC in its name: exit $rc, not 2: $(cat -v "$dir/site.out")"
grep -q "s.yaml:2:9: site.name: control character 0x1b at character 1" "$dir/site.out" ||
    fail "site: $(cat -v "$dir/site.out")"
grep -q "$esc" "$dir/site.out" && fail "site printed an ESC byte: $(cat -v "$dir/site.out")"
echo "ok: no escape sequence printed from a test file or a site file"
