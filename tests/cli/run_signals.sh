#!/usr/bin/env bash
# SIGTERM, SIGHUP and SIGINT to `hysim run` with `checkpoint_every: 0` (docs/checkpoints.md,
# "Signals"): the run stops after the step in progress and ends `aborted` (exit 3) with every step
# it made kept, as the operator's abort does: summary.json says aborted and why, response.csv
# holds one row per step done and t = 0 (before, the signal killed the program and every step
# was lost). The run goes through a `hysim site` over its virtual lab, so that it lasts.
# Usage: run_signals.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/lab_procs.sh"
umask 077
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/east.key"
cat > "$dir/site.yaml" <<YAML
hysim: 1
site:
  name: east
  listen: "127.0.0.1:0"
  key: east.key
  perfect: true
  actuators: {a1: {}}
  specimen: {type: linear, K: [[1.0]]}
YAML
"$hysim" site --config "$dir/site.yaml" > "$dir/site.out" 2> "$dir/site.err" &
site_pid=$!
pids+=($site_pid)
port=$(site_port site)
[ -n "$port" ] || fail "the site did not start: $(cat "$dir/site.err")"
two_story_test "$dir/test.yaml" signals 8000 \
    "{kind: remote, url: \"hysim://127.0.0.1:$port\", key: east.key, actuators: {a1: {}}}"
echo "  checkpoint_every: 0" >> "$dir/test.yaml"

for sig in TERM HUP INT; do
    "$hysim" run "$dir/test.yaml" -o "$dir/run_$sig" --quiet > "$dir/run_$sig.log" 2>&1 &
    run_pid=$!
    pids+=($run_pid)
    wait_steps "run_$sig" 100 || fail "SIG$sig: the run recorded no 100 steps in 30 s"
    kill -"$sig" "$run_pid"
    wait "$run_pid"
    rc=$?
    [ $rc -eq 3 ] || fail "SIG$sig: the run exited $rc, expected 3 (aborted, steps kept)"
    grep -q '"status": "aborted"' "$dir/run_$sig/summary.json" 2>/dev/null ||
        fail "SIG$sig: no summary.json saying aborted"
    grep -q "stopped by SIG$sig" "$dir/run_$sig.log" || fail "SIG$sig: the run does not name the signal"
    done_steps=$(sed -n 's/.*aborted after \([0-9]*\) of.*/\1/p' "$dir/run_$sig.log")
    rows=$(($(wc -l < "$dir/run_$sig/response.csv") - 1))
    [ -n "$done_steps" ] && [ "$done_steps" -ge 100 ] && [ "$rows" -eq $((done_steps + 1)) ] ||
        fail "SIG$sig: response.csv has $rows rows for ${done_steps:-?} steps done"
    [ -f "$dir/run_$sig/results.h5" ] || fail "SIG$sig: no results.h5"
    echo "run_signals.sh: SIG$sig: exit 3, $done_steps steps kept ($rows rows from t = 0)"
done
kill "$site_pid"
wait "$site_pid" 2>/dev/null
exit 0
