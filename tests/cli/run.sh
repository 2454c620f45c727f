#!/usr/bin/env bash
# `hysim run`: exit codes 0 (completed), 1 (unstable, every step kept), 2 (bad input), and the
# files a run leaves behind. Usage: run.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

. "$(dirname "$0")/lib/two_story_building.sh"
two_story_building two-story 100.0 5 "{type: exact}" > "$dir/good.yaml"
"$hysim" run "$dir/good.yaml" -o "$dir/out" --quiet || fail "good run exited $?"
for f in summary.json response.csv results.h5; do
    [ -s "$dir/out/$f" ] || fail "missing $f"
done
rows=$(($(wc -l < "$dir/out/response.csv") - 1))
[ "$rows" -eq 501 ] || fail "response.csv has $rows rows, expected 501 (t = 0 .. 5 s)"
head -1 "$dir/out/response.csv" | grep -qx 't,floor1,floor2' || fail "response.csv header (a shear building's DOFs are its floors)"
grep -q '"status": "completed"' "$dir/out/summary.json" || fail "status not completed"

# A stiff frame with the explicit method far beyond its stability limit (omega dt = 2.66 > 2).
sed -e 's/k: 2.8/k: 280/' -e 's/type: exact/type: newmark_explicit/' "$dir/good.yaml" > "$dir/unstable.yaml"
"$hysim" run "$dir/unstable.yaml" -o "$dir/bad" --quiet 2> "$dir/err"
rc=$?
[ "$rc" -eq 1 ] || fail "unstable run exited $rc, expected 1"
grep -q 'unstable' "$dir/err" || fail "no reason printed: $(cat "$dir/err")"
grep -q '"status": "unstable"' "$dir/bad/summary.json" || fail "summary status not unstable"
steps=$(grep '"steps"' "$dir/bad/summary.json" | tr -dc 0-9)
rows=$(($(wc -l < "$dir/bad/response.csv") - 1))
[ "$rows" -eq $((steps + 1)) ] || fail "kept $rows rows for $steps steps"
[ "$steps" -gt 0 ] && [ "$steps" -lt 500 ] || fail "stopped after $steps steps"

sed 's/dt: 0.01$/dt: -0.01/' "$dir/good.yaml" > "$dir/input.yaml"
"$hysim" run "$dir/input.yaml" -o "$dir/x" --quiet 2> "$dir/err2"
rc=$?
[ "$rc" -eq 2 ] || fail "bad input exited $rc, expected 2"
grep -q 'input.yaml:[0-9]*:[0-9]*:' "$dir/err2" || fail "no FILE:LINE:COL: $(cat "$dir/err2")"
echo "run.sh: ok"
