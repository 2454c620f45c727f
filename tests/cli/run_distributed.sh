#!/usr/bin/env bash
# scripts/run-distributed.sh (`make run`) leaves no process behind: the two `hysim site`
# processes it starts (their pids in OUT/distributed/sites.pids) are gone when it returns, after
# a completed run, after a run refused as bad input, and after the script is sent SIGTERM
# mid-run. The run is shortened with --set analysis.steps=N (real clock, 20 ms a step).
# Usage: run_distributed.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
script="$here/../../scripts/run-distributed.sh"
dir=$(mktemp -d)
script_pid=""
cleanup() {
    [ -n "$script_pid" ] && kill -TERM "$script_pid" 2>/dev/null && wait "$script_pid" 2>/dev/null
    for f in "$dir"/*/distributed/sites.pids; do
        [ -f "$f" ] && while read -r p; do kill -TERM "$p" 2>/dev/null; done < "$f"
    done
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

# survivors OUT: the site pids of that run still alive as hysim processes
survivors() {
    local f="$1/distributed/sites.pids" alive=""
    [ -f "$f" ] || { echo "no-pids-file"; return; }
    while read -r p; do
        if kill -0 "$p" 2>/dev/null && tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q site
        then alive="$alive $p"; fi
    done < "$f"
    echo "$alive"
}

# 1. a completed run
bash "$script" "$hysim" "$dir/ok" --quiet --set analysis.steps=40 > "$dir/ok.out" 2>&1 ||
    fail "run-distributed.sh exited $?: $(tail -5 "$dir/ok.out")"
[ "$(wc -l < "$dir/ok/distributed/sites.pids")" -eq 2 ] || fail "expected 2 site pids"
grep -q '"steps": 40' "$dir/ok/summary.json" || fail "the shortened run did not complete 40 steps"
s=$(survivors "$dir/ok"); [ -z "$s" ] || fail "site processes left after a completed run:$s"
echo "completed run: both sites stopped"

# 2. a run refused (bad --set): exit 2, sites stopped
bash "$script" "$hysim" "$dir/bad" --set analysis.dt=-1 > "$dir/bad.out" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "a refused run: exit $rc, expected 2"
s=$(survivors "$dir/bad"); [ -z "$s" ] || fail "site processes left after a refused run:$s"
echo "refused run: both sites stopped"

# 3. SIGTERM to the script while the test runs (200 steps, about 4 s)
bash "$script" "$hysim" "$dir/term" --quiet --set analysis.steps=200 > "$dir/term.out" 2>&1 &
script_pid=$!
for _ in $(seq 1 200); do
    [ -f "$dir/term/distributed/sites.pids" ] &&
        [ "$(wc -l < "$dir/term/distributed/sites.pids")" -eq 2 ] && break
    sleep 0.05
done
[ "$(wc -l < "$dir/term/distributed/sites.pids" 2>/dev/null)" = 2 ] || fail "sites did not start"
kill -TERM "$script_pid"
wait "$script_pid"
script_pid=""
s=$(survivors "$dir/term"); [ -z "$s" ] || fail "site processes left after SIGTERM:$s"
echo "SIGTERM: both sites stopped"
echo "run_distributed.sh: ok"
