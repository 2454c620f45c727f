#!/usr/bin/env bash
# A pause longer than a site's hold_timeout (issue 17, docs/monitor.md "A pause longer than a
# hold_timeout"): a keyed `hysim site` with `command.hold_timeout: 2` (and a mass, so that its hold
# timeout would unload the specimen in free vibration) and `hysim run --monitor` through it on the
# real clock. The operator pauses from the monitor (POST /pause with the token, bash's /dev/tcp)
# for 5 s, two and a half hold timeouts, and resumes. The coordinator keeps the site's hold alive
# (HOLD every half second, a quarter of the hold_timeout), so: the paused page shows the site's
# hold kept (`holds` [1]) with at most 2 s left and at least 1 s (it is renewed), the site's tick
# log shows hold and never free vibration or done, the site's log names the pause and its length,
# and the run completes (exit 0, every step). On the main of then the site unloaded 2 s into the
# pause and refused the next target: the run ended aborted (exit 3).
# Usage: monitor_hold.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/monitor_http.sh"
. "$(dirname "$0")/lib/two_story_lab.sh"
monitor_work_dir # $dir, pids, fail
umask 077
monitor_lab_site a1 "{hold_timeout: 2, mass: [[0.000929839173384007]], zeta: 0.05}"
"$hysim" site --config "$dir/lab.yaml" --once --log "$dir/ticks.csv" > "$dir/site.out" \
    2> "$dir/site.log" &
site_pid=$!
pids+=($site_pid)
port=$(site_port site) # lib/two_story_lab.sh
[ -n "$port" ] || fail "the site did not start"

steps=1200 # 6 s of test at time_scale 1, plus the 5 s pause
monitored_test "$dir/test.yaml" paused "$port" $steps
"$hysim" run "$dir/test.yaml" -o "$dir/run" --monitor 127.0.0.1:0 > "$dir/run.out" \
    2> "$dir/run.log" &
run_pid=$!
pids+=($run_pid)
monitor_address "$dir/run.log" || fail "no monitor address and token on the terminal"

sleep 1.5
[ "$(monitor_control "$mon" pause "$token" | http_status)" = 200 ] || fail "pause with the token was not accepted"
t0=$(date +%s.%N)
sleep 2.5 # past the site's hold_timeout (the hold began at most 0.01 s after the pause)
# the page's stream while paused: the site's hold is kept alive, renewed every half second
monitor_request "$mon" 1.5 'GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' > "$dir/events.txt"
last=$(grep '^data: {"step"' "$dir/events.txt" | tail -1)
[ -n "$last" ] || fail "no sample in the paused page's stream"
echo "$last" | grep -q '"paused":1' || fail "the page does not show the pause: $last"
echo "$last" | grep -q '"holds":\[1\]' || fail "the site's hold is not shown kept alive: $last"
echo "$last" | grep -q '"states":\[8\]' || fail "the site is not shown in hold: $last"
left=$(echo "$last" | sed -n 's/.*"holds_left":\[\([0-9.e+-]*\)\].*/\1/p')
awk -v x="$left" 'BEGIN { exit !(x >= 1.0 && x <= 2.0) }' ||
    fail "the kept hold has $left s left (renewed every 0.5 s: between 1 and 2 expected)"
now=$(date +%s.%N)
sleep "$(awk -v a="$t0" -v b="$now" 'BEGIN { s = 5 - (b - a); print (s > 0 ? s : 0) }')"
kill -0 "$run_pid" 2>/dev/null || fail "the run ended during the pause"
[ "$(monitor_control "$mon" resume "$token" | http_status)" = 200 ] || fail "resume was not accepted"
paused=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')

wait "$run_pid"
rc=$?
[ "$rc" -eq 0 ] || fail "the run exited $rc after a ${paused} s pause (the site's hold_timeout is 2 s)"
grep -q '"status": "completed"' "$dir/run/summary.json" || fail "summary.json does not say completed"
rows=$(($(wc -l < "$dir/run/response.csv") - 1))
[ "$rows" -eq $((steps + 1)) ] || fail "$rows rows in response.csv, $((steps + 1)) expected"
for _ in $(seq 1 100); do kill -0 "$site_pid" 2>/dev/null || break; sleep 0.05; done
wait "$site_pid"
grep -q 'pauses after step [0-9]* (its operator): the site holds' "$dir/site.log" ||
    fail "the site's log does not say the coordinator paused"
said=$(sed -n 's/.*goes on with step [0-9]* after a \([0-9.]*\) s pause.*/\1/p' "$dir/site.log")
awk -v x="$said" 'BEGIN { exit !(x >= 4.5 && x <= 8) }' || fail "the site's log gives a pause of '$said' s"
# the tick log: hold through the pause, never free vibration or done (the hold timeout never ran out)
[ "$(awk -F, 'NR > 1 && $4 == "hold"' "$dir/ticks.csv" | wc -l)" -gt 4000 ] ||
    fail "fewer than 4000 ticks in hold in the tick log (a 5 s pause at 1024 Hz)"
ended=$(awk -F, 'NR > 1 && ($4 == "free_vibration" || $4 == "free" || $4 == "done")' "$dir/ticks.csv" | wc -l)
[ "$ended" -eq 0 ] || fail "$ended ticks of free vibration or done in the site's tick log"
echo "monitor_hold.sh: paused ${paused} s (site hold_timeout 2 s), the hold kept ($left s left on the page), site log: ${said} s pause; run completed, $rows rows"
