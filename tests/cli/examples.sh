#!/usr/bin/env bash
# The examples stay valid: every examples/*.yaml loads (`hysim check` exits 0; templates such as
# examples/distributed/*.in are not test files and are not globbed), those that read ../shared
# only when it is present. The two hybrid seed examples then run shortened to a few hundred steps
# (a temporary copy with `steps: N` and record paths made absolute): exit 0, status completed,
# N steps, and for seed 003's nonlinear case an estimated tangent that was updated
# (hybrid.stiffness_update_percent > 0: the coupons yield, so the measured increments change it).
# Usage: examples.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
examples=$(cd "$here/../../examples" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

have_shared=0
[ -d "$examples/../../shared/data/records" ] && have_shared=1
reads_shared() { grep -q '^[^#]*\.\./shared/' "$1"; }

checked=0
for f in "$examples"/*.yaml; do
    name=$(basename "$f")
    if reads_shared "$f" && [ "$have_shared" -eq 0 ]; then
        echo "SKIP: hysim check $name: it reads ../shared, which is absent"
        continue
    fi
    "$hysim" check "$f" > /dev/null 2> "$dir/err" || fail "hysim check $name: $(cat "$dir/err")"
    checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || fail "no example checked"
echo "hysim check: $checked examples ok"

# shorten FILE STEPS OUT: analysis.steps (or duration) replaced by STEPS, relative `file:` paths
# resolved against examples/; without ../shared a record read from it becomes a synthetic one.
shorten() {
    local gm='ground_motion: {synthetic: {seed: 1, pga: 3000, duration: 39.99, dt: 0.01}}'
    sed -e "s/^  duration: .*/  steps: $2/" -e "s/^  steps: .*/  steps: $2/" \
        -e "s#^\\( *file: *\\)\\([^/ ]\\)#\\1$examples/\\2#" "$1" > "$3.tmp"
    if reads_shared "$1" && [ "$have_shared" -eq 0 ]; then
        echo "note: $(basename "$1"): ../shared is absent, running it on a synthetic record"
        awk -v gm="$gm" '/^ground_motion:/ { print gm; skip = 1; next }
                         skip && (/^$/ || /^[^ ]/) { skip = 0 }
                         !skip { print }' "$3.tmp" > "$3"
    else
        mv "$3.tmp" "$3"
    fi
}

# number KEY FILE: the first value of "KEY": in FILE
number() { grep -o "\"$1\": [-0-9.eE+]*" "$2" | head -1 | awk '{print $2}'; }

steps=300
for ex in seed003_nonlinear_hybrid seed001_15story_hybrid; do
    [ -f "$examples/$ex.yaml" ] || fail "missing examples/$ex.yaml"
    shorten "$examples/$ex.yaml" "$steps" "$dir/$ex.yaml"
    grep -q "^  steps: $steps\$" "$dir/$ex.yaml" || fail "$ex: could not shorten the run"
    "$hysim" run "$dir/$ex.yaml" -o "$dir/$ex" --quiet 2> "$dir/err" ||
        fail "hysim run $ex exited $?: $(cat "$dir/err")"
    s="$dir/$ex/summary.json"
    grep -q '"status": "completed"' "$s" || fail "$ex: status not completed"
    [ "$(number steps "$s")" = "$steps" ] || fail "$ex: $(number steps "$s") steps, expected $steps"
    grep -q '"hybrid": {' "$s" || fail "$ex: no hybrid block in summary.json"
    echo "$ex: completed $steps steps, implicit $(number implicit_percent "$s") %," \
        "tangent updated $(number stiffness_update_percent "$s") %"
done

upd=$(number stiffness_update_percent "$dir/seed003_nonlinear_hybrid/summary.json")
[ -n "$upd" ] || fail "seed003_nonlinear_hybrid: no stiffness_update_percent"
awk -v v="$upd" 'BEGIN { exit !(v > 0) }' || fail "seed003_nonlinear_hybrid: tangent never updated"
echo "examples.sh: ok"
