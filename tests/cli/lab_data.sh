#!/usr/bin/env bash
# Laboratory data that is not a measurement reaches no integrator (docs/site_controller.md,
# "Safety limits"): a NEES lab (tests/support/nees_fake_lab.py, written from the protocol
# document) whose story-2 spring answers forces of order 1e297: `hysim run` ends `aborted` (exit
# 3), naming the site, the channel and the value as laboratory data, the steps before kept (before:
# the force went on to the integrator and the run ended "unstable", exit 1, blaming the
# integration). The site-side check (a hysim site's own lab) is tested in test_site_unload.c.
# Usage: lab_data.sh PATH_TO_hysim
set -u
hysim=${1:?usage: lab_data.sh PATH_TO_hysim}
if ! command -v python3 >/dev/null 2>&1; then
    echo "lab_data.sh: SKIP: python3 is not available to play the NEES lab"
    exit 0
fi
src=${HS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
fake="$src/tests/support/nees_fake_lab.py"
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/lab_procs.sh"
python3 "$fake" --accept-timeout 20 --idle-timeout 20 --log "$dir/fake.log" --format exact \
    --spring "MDL-00-01:LBCB1,x,displacement,1.0" --spring "MDL-00-01:LBCB2,x,displacement,1e300" \
    > "$dir/fake.out" 2>&1 &
pids+=($!)
port=$(printed_port "$dir/fake.out" 's/^PORT \([0-9]*\)$/\1/p')
[ -n "$port" ] || fail "the fake NEES lab did not start"
site=$(printf '  lab:\n    kind: remote\n    url: "nees://127.0.0.1:%s"\n    actuators: {a1: {}, a2: {}}\n    nees:\n      control_points:\n        "MDL-00-01:LBCB1": {dofs: [x displacement], actuators: [a1]}\n        "MDL-00-01:LBCB2": {dofs: [x displacement], actuators: [a2]}\n' "$port")
two_story_file "$dir/test.yaml" lab_data 50 1 lab lab a2 "$site"
"$hysim" run "$dir/test.yaml" -o "$dir/run" --quiet > "$dir/run.log" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "the run exited $rc, expected 3 (aborted on laboratory data)"
grep -q "site lab sent laboratory data that is not a measurement at step [0-9]*: actuator 2 of the site, measured force [0-9.e+]*" "$dir/run.log" ||
    fail "the run does not name the laboratory data: $(cat "$dir/run.log")"
grep -q '"status": "aborted"' "$dir/run/summary.json" || fail "summary.json does not say aborted"
grep -qi "unstable" "$dir/run.log" && fail "the laboratory data was blamed on the integration"
echo "lab_data.sh: $(grep -o 'site lab sent laboratory data.*(not a number or beyond 1e+12)' "$dir/run.log")"
exit 0
