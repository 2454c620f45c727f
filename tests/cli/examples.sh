#!/usr/bin/env bash
# Every example runs from a clone. The examples are copied into a temporary repository layout
# (TMP/repo/examples) where ../../shared does not exist; no example may name ../shared outside a
# comment. Every examples/*.yaml (templates such as examples/distributed/*.in are not test files)
# then passes `hysim check` and runs shortened to a few hundred steps with --set
# (analysis.steps, or analysis.duration for files that give a duration): exit 0, status
# completed, the number of steps asked for. For the hybrid examples the summary has a hybrid
# block, and Mosqueda and Ahmadizadeh's (2008b) nonlinear case updated its estimated tangent
# (hybrid.stiffness_update_percent > 0: the coupons yield, so the measured increments change it).
# Usage: examples.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$dir/repo"
cp -r "$here/../../examples" "$dir/repo/examples"
examples="$dir/repo/examples"
[ ! -e "$examples/../../shared" ] || fail "the copy sees a shared folder: $examples/../../shared"

if grep -n '^[^#]*\.\./shared' "$examples"/*.yaml; then fail "examples above read ../shared"; fi

# number KEY FILE: the first value of "KEY": in FILE
number() { grep -o "\"$1\": [-0-9.eE+]*" "$2" | head -1 | awk '{print $2}'; }

steps=300
ran=0
cd "$dir" || exit 1
for f in "$examples"/*.yaml; do
    ex=$(basename "$f" .yaml)
    "$hysim" check "$f" > "$dir/check.out" 2> "$dir/err" ||
        fail "hysim check $ex: $(cat "$dir/err")"
    if grep -q '^  duration:' "$f"; then
        dt=$(awk '/^analysis:/ { a = 1 } a && /^  dt:/ { print $2; exit }' "$f")
        short="analysis.duration=$(awk -v dt="$dt" -v n="$steps" 'BEGIN { printf "%.10g", dt * n }')"
    else
        short="analysis.steps=$steps"
    fi
    "$hysim" run "$f" -o "$dir/$ex" --quiet --set "$short" 2> "$dir/err" ||
        fail "hysim run $ex --set $short exited $?: $(cat "$dir/err")"
    s="$dir/$ex/summary.json"
    grep -q '"status": "completed"' "$s" || fail "$ex: status not completed"
    [ "$(number steps "$s")" = "$steps" ] || fail "$ex: $(number steps "$s") steps, expected $steps"
    if grep -q '^experimental:' "$f"; then
        grep -q '"hybrid": {' "$s" || fail "$ex: no hybrid block in summary.json"
        echo "$ex: completed $steps steps, implicit $(number implicit_percent "$s") %," \
            "tangent updated $(number stiffness_update_percent "$s") %"
    else
        echo "$ex: completed $steps steps"
    fi
    ran=$((ran + 1))
done
[ "$ran" -ge 20 ] || fail "only $ran examples ran" # the files of examples/*.yaml; examples/distributed runs in run_distributed.sh

upd=$(number stiffness_update_percent "$dir/mosqueda2008b_nonlinear_hybrid/summary.json")
[ -n "$upd" ] || fail "mosqueda2008b_nonlinear_hybrid: no stiffness_update_percent"
awk -v v="$upd" 'BEGIN { exit !(v > 0) }' || fail "mosqueda2008b_nonlinear_hybrid: tangent never updated"
echo "examples.sh: ok ($ran examples from a copy without ../shared)"
