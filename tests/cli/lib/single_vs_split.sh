# The single model against its distributed split (Hashash et al. 2004's examples,
# tests/cli/hashash2004*.sh). Needs $hysim, $single, $split (test files) and fail; sources
# response_diff.sh.
. "$(dirname "${BASH_SOURCE[0]}")/response_diff.sh"

# single_vs_split NAME INTEGRATOR [--set ...]: both files run with INTEGRATOR (into s_NAME,
# d_NAME), the distributed one completed; prints "MAXDIFF PEAK" of their response.csv
single_vs_split() {
    local name=$1 type=$2
    shift 2
    "$hysim" run "$single" -o "s_$name" --quiet --set analysis.integrator.type="$type" "$@" 2> err ||
        fail "single $name: $(cat err)"
    "$hysim" run "$split" -o "d_$name" --quiet --set analysis.integrator.type="$type" "$@" 2> err ||
        fail "distributed $name: $(cat err)"
    grep -q '"status": "completed"' "d_$name/summary.json" || fail "distributed $name not completed"
    response_diff "s_$name/response.csv" "d_$name/response.csv" || fail "$name: not comparable"
}
