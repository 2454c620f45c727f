#!/usr/bin/env bash
# Refusals before the specimen moves (issue 17, section 3; docs/testfile.md, "What check checks"):
# a central-difference SDOF with omega dt = 2.17 (omega = sqrt(k / m) = 217 rad/s, dt = 0.01 s;
# the limit is 2, so the response grows by |lambda| = 2.27 a step) against a real `hysim site`.
#  - `hysim check` warns (exit 0) and `hysim check --strict` exits 1; a sound file passes --strict;
#  - `hysim run` refuses the test (exit 2) before any command: the site's tick log stays empty and
#    no run folder is made; the refusal names the warning, the remote site and --accept-warnings;
#  - with --accept-warnings the same run starts and a limit stops it within a few steps (what the
#    refusal prevented); summary.json's trace keeps the accepted warning;
#  - a warning that is no safety matter (a step of 5.5 controller ticks) does not refuse;
#  - the same test on an in-process virtual site is not refused (nothing real moves).
# Usage: run_refusals.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/lab_procs.sh"
start_east_site 1.0 --log "$dir/ticks.csv"

# test_file FILE DT SITE: the SDOF, m = 1 / 217^2 kN s^2/mm on a 1 kN/mm specimen at SITE
test_file() {
    cat > "$1" <<YAML
hysim: 1
name: refusal
units: {force: kN, length: mm, time: s}
structure:
  dofs: 1
  mass: [2.1235851e-5]
  damping: {modal: {ratios: [0.0]}}
experimental:
  - {name: spec, site: east, story: 1, actuators: [a1], initial_stiffness: [[1.0]]}
sites:
  east: $3
ground_motion:
  synthetic: {seed: 7, pga: 1500.0, duration: 2, dt: 0.005}
analysis:
  integrator: {type: central_difference}
  dt: $2
  steps: 150
  site_timeout: 5
YAML
}
remote="{kind: remote, url: \"hysim://127.0.0.1:$port\", key: east.key, actuators: {a1: {}}}"
test_file "$dir/unstable.yaml" 0.01 "$remote"
test_file "$dir/stable.yaml" 0.005 "$remote"

# check: a warning; --strict makes it exit 1, and passes a sound file
"$hysim" check "$dir/unstable.yaml" > "$dir/check.log" 2>&1 || fail "check exited $? on a valid file"
grep -q "^warning 1: analysis.dt = 0.01 s: omega dt = 2.17 in mode 1 .* exceeds central_difference's stability limit 2 " \
    "$dir/check.log" || fail "check did not find omega dt = 2.17: $(grep warning "$dir/check.log")"
"$hysim" check --strict "$dir/unstable.yaml" > "$dir/strict.log" 2> "$dir/strict.err"
rc=$?
[ $rc -eq 1 ] || fail "check --strict exited $rc on a file with a warning, expected 1"
grep -q "hysim check --strict: .*unstable.yaml: 1 warning (printed above): exit 1" "$dir/strict.err" ||
    fail "check --strict did not say why: $(cat "$dir/strict.err")"
"$hysim" check --strict "$dir/stable.yaml" > "$dir/strict_ok.log" 2>&1 ||
    fail "check --strict exited $? on a sound file: $(cat "$dir/strict_ok.log")"
grep -q "^warning" "$dir/strict_ok.log" && fail "warnings for dt = 0.005 s (omega dt = 1.085)"
echo "check: omega dt = 2.17 warned; --strict exits 1 on it and 0 on dt = 0.005 s"

# run: refused before any command
"$hysim" run "$dir/unstable.yaml" -o "$dir/refused" > "$dir/refused.log" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "run exited $rc, expected 2 (refused)"
grep -q "^warning 1: analysis.dt = 0.01 s: omega dt = 2.17" "$dir/refused.log" ||
    fail "the refusal does not print check's warning"
grep -q "refused before any command: \`hysim check\` finds the test unstable, beyond a limit or in the wrong units (warning 1 above) and site east is remote (hysim://127.0.0.1:$port).*--accept-warnings" \
    "$dir/refused.log" || fail "the refusal does not say why: $(cat "$dir/refused.log")"
[ -e "$dir/refused" ] && fail "the refused run made its folder"
grep -q "authenticated" "$dir/site.err" && fail "the site saw a coordinator: $(cat "$dir/site.err")"
# largest |command| over the site's tick log (the site logs its idle ticks too)
max_command() { awk -F, 'NR > 1 { c = $6 < 0 ? -$6 : $6; if (c > m) m = c } END { print m + 0 }' "$dir/ticks.csv"; }
moved=$(max_command)
[ "$moved" = 0 ] || fail "the refused run commanded the specimen to $moved mm"
echo "run: refused (exit 2); the site saw no coordinator and commanded 0 mm"

# --accept-warnings: the same test starts, and a limit stops it within a few steps
"$hysim" run "$dir/unstable.yaml" -o "$dir/accepted" --accept-warnings > "$dir/accepted.log" 2>&1
rc=$?
grep -q "warning 1 accepted (--accept-warnings)" "$dir/accepted.log" || fail "the accepted warning is not said"
[ $rc -ne 0 ] && [ $rc -ne 2 ] || fail "the accepted unstable run exited $rc (expected a limit to stop it)"
done_steps=$(sed -n 's/.* after \([0-9]*\) of 150 steps.*/\1/p' "$dir/accepted.log")
[ -n "$done_steps" ] && [ "$done_steps" -lt 150 ] || fail "the accepted run: $(tail -3 "$dir/accepted.log")"
grep -q "velocity limit on a1: .* targets grow x2.2[0-9] a step" "$dir/site.err" ||
    fail "the site did not stop the growth at its velocity limit: $(tail -3 "$dir/site.err")"
moved=$(max_command)
awk -v m="$moved" 'BEGIN { exit !(m > 0) }' || fail "the accepted run moved nothing at the site"
grep -q '"accepted_warnings": \["warning 1: analysis.dt = 0.01 s: omega dt = 2.17 in mode 1' "$dir/accepted/summary.json" ||
    fail "summary.json does not keep the accepted warning: $(grep -A2 accepted_warnings "$dir/accepted/summary.json")"
echo "run --accept-warnings: ran, the site's velocity limit stopped it after $done_steps of 150 steps (exit $rc; growth x2.27 a step, |lambda| of central difference at omega dt = 2.17); command reached $moved mm"

# a warning that moves nothing beyond intent (a step of 5.5 controller ticks): not refused
remote_rate="{kind: remote, url: \"hysim://127.0.0.1:$port\", key: east.key, rate: 1000, actuators: {a1: {}}}"
test_file "$dir/ticks.yaml" 0.0055 "$remote_rate"
"$hysim" check "$dir/ticks.yaml" | grep -q "^warning 1: site east: a step is dt x rate x time_scale = 0.0055 x 1000 x 1 = 5.5 controller ticks" ||
    fail "check does not warn about 5.5 ticks"
"$hysim" run "$dir/ticks.yaml" -o "$dir/ticks" > "$dir/ticks.log" 2>&1
grep -q "refused" "$dir/ticks.log" && fail "a test refused for its controller ticks: $(cat "$dir/ticks.log")"
[ -f "$dir/ticks/summary.json" ] || fail "the ticks run wrote no summary: $(tail -3 "$dir/ticks.log")"
echo "a step of 5.5 ticks (warned, not a safety matter): run, not refused"

# an in-process virtual site: not refused
test_file "$dir/local.yaml" 0.01 "{kind: virtual, perfect: true, actuators: {a1: {stroke: 50}}, specimen: {type: linear, K: [[1.0]]}}"
"$hysim" run "$dir/local.yaml" -o "$dir/local" > "$dir/local.log" 2>&1
grep -q "refused" "$dir/local.log" && fail "a virtual in-process site was refused"
[ -f "$dir/local/summary.json" ] || fail "the in-process run wrote no summary: $(tail -3 "$dir/local.log")"
echo "in-process virtual site: not refused"
exit 0
