#!/usr/bin/env bash
# The `tangent` option of hht from a test file (docs/integrators.md): examples/two_story_bouc_wen.yaml
# (Bouc-Wen columns that yield: peak 2.6 in against a yield displacement of 0.5 in) run with
# tol 1e-8 and tangent current (full Newton), initial and `every 5`: the modified-Newton responses
# agree with full Newton within the tolerance-derived bound 2 S tol peak (S = 2000 steps, each
# step's converged state within tol |d| of the exact one for both runs, carried without growth by
# the dissipative scheme); a misspelt value is refused with FILE:LINE:COL and the accepted values.
# Usage: modified_newton.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
example="$here/../../examples/two_story_bouc_wen.yaml"
# shellcheck source=lib/response_diff.sh
. "$here/lib/response_diff.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$dir" || exit 1

grep -q 'integrator: {type: hht, alpha: -0.05}' "$example" || fail "the example's integrator line changed"
for t in current initial "every 5"; do
    name=${t// /}
    sed "s/integrator: {type: hht, alpha: -0.05}/integrator: {type: hht, alpha: -0.05, tol: 1e-8, tangent: $t}/" \
        "$example" > "$name.yaml"
    "$hysim" run "$name.yaml" -o "$name" --quiet 2> "$name.err" || fail "tangent $t: $(cat "$name.err")"
done
for t in initial every5; do
    read -r diff peak < <(response_diff current/response.csv "$t/response.csv") || fail "$t: $diff"
    bound=$(awk -v p="$peak" 'BEGIN { printf "%.6g", 2 * 2000 * 1e-8 * p }')
    echo "two-story Bouc-Wen, tangent $t against current: max difference $diff in, peak $peak in, bound $bound"
    within 2.0 "$peak" || fail "the frame should yield (peak $peak in, yield 0.5 in)"
    within "$diff" "$bound" || fail "tangent $t: difference $diff above $bound"
done

sed "s/integrator: {type: hht, alpha: -0.05}/integrator: {type: hht, alpha: -0.05, tangent: evry 5}/" \
    "$example" > bad.yaml
"$hysim" run bad.yaml -o bad --quiet > out 2>&1 && fail "a misspelt tangent was accepted"
grep -q "^bad.yaml:[0-9]*:[0-9]*: .*tangent must be 'current', 'initial' or 'every N'.*(got 'evry 5')" out ||
    fail "refusal: $(cat out)"
echo "misspelt tangent refused: $(cat out)"
echo PASS
