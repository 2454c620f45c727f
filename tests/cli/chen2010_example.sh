#!/usr/bin/env bash
# examples/chen2010_mr_frame.yaml (Chen & Ricles 2010, Test 4) loads and completes with `hysim run`; both
# sites report adaptive tracking (RMS below the 8 % bound of tests/test_chen2010.c) and no limit.
# Usage: chen2010_example.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
file="$here/../../examples/chen2010_mr_frame.yaml"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$hysim" check "$file" >/dev/null || fail "check exited $?"
"$hysim" run "$file" -o "$dir/out" --quiet || fail "run exited $?"
s="$dir/out/summary.json"
grep -q '"status": "completed"' "$s" || fail "not completed"
flags=$(grep -o '"limit_flags": [0-9]*' "$s" | grep -vc ': 0$')
[ "$flags" -eq 0 ] || fail "a limit flag is set"
n=$(grep -o '"name": "story[12]"' "$s" | wc -l)
[ "$n" -eq 2 ] || fail "expected sites story1 and story2, got $n"
rms=$(grep -o '"rms_percent": [0-9.e+-]*' "$s" | awk '{print $2}')
[ "$(echo "$rms" | wc -l)" -eq 2 ] || fail "expected 2 actuators, got: $rms"
for v in $rms; do
    awk -v v="$v" 'BEGIN { exit !(v > 0 && v < 8) }' || fail "rms $v % outside (0, 8)"
done
echo "ok"
