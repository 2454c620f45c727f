#!/usr/bin/env bash
# The bounds of an OpenSees Tcl model script (docs/opensees_tcl.md, "Bounds"; issue 17, section
# 2): `while 1 {}` and `vwait` (which hung `hysim check`) are stopped by Tcl's time limit
# (structure.model.time_limit: 1 s here) with a message, within 30 s of wall time under load;
# `source /dev/zero` (read without end) is refused as not a regular file; `source` of a file
# outside the script's folder is refused unless structure.model.source_paths allows its folder;
# a file below the script's folder is sourced.
# Usage: opensees_tcl_bounds.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$dir/model/sub" "$dir/shared"
cd "$dir" || exit 1
cat > model/base.tcl <<'TCL'
model BasicBuilder -ndm 1 -ndf 1
node 1 0
node 2 0 -mass 1
fix 1 1
uniaxialMaterial Elastic 1 50
element zeroLength 1 1 2 -mat 1 -dir 1
TCL
printf 'rayleigh 0.1 0 0 0\n' > model/sub/inner.tcl
printf 'rayleigh 0.1 0 0 0\n' > shared/outer.tcl
test_file() { # NAME TAIL_OF_SCRIPT [MODEL_KEYS]
    { cat model/base.tcl; printf '%s\n' "$2"; } > "model/$1.tcl"
    cat > "$1.yaml" <<YAML
hysim: 1
name: $1
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: model/$1.tcl${3:+, $3}}
ground_motion:
  synthetic: {seed: 7, pga: 3.0, duration: 1, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 10
YAML
}
# check NAME EXPECTED_EXIT PATTERN: hysim check within 30 s, its exit code and message
check() {
    local start=$SECONDS rc
    timeout 30 "$hysim" check "$1.yaml" > "$1.out" 2>&1
    rc=$?
    [ $rc -ne 124 ] || fail "$1: hysim check still ran after 30 s"
    [ $rc -eq "$2" ] || fail "$1: exit $rc, expected $2: $(cat "$1.out")"
    grep -q -- "$3" "$1.out" || fail "$1: expected '$3': $(cat "$1.out")"
    echo "$1: exit $rc after $((SECONDS - start)) s: $(grep -o -- "$3.\{0,60\}" "$1.out" | head -1)"
}
test_file loop 'while 1 {}' "time_limit: 1"
check loop 2 "model/loop.tcl: stopped after its time limit: hysim bounds a model script to 1 s"
test_file wait 'vwait forever' "time_limit: 1"
check wait 2 "model/wait.tcl: stopped after its time limit"
test_file zero 'source /dev/zero'
check zero 2 "model/zero.tcl:7: source: '/dev/zero' is not a regular file"
test_file outside 'source ../shared/outer.tcl'
check outside 2 "outside.tcl:7: source: '$dir/shared/outer.tcl' is outside the script's folder $dir/model: .*structure.model.source_paths"
test_file allowed 'source ../shared/outer.tcl' "source_paths: [shared]"
check allowed 0 "allowed.yaml: ok"
test_file inside 'source sub/inner.tcl'
check inside 0 "inside.yaml: ok"
exit 0
