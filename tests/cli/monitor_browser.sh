#!/usr/bin/env bash
# The live monitor in a real browser (docs/monitor.md): a `hysim site --monitor` laboratory and a
# `hysim run --monitor` test through it on the real clock (4000 steps of 5 ms at time_scale 1,
# about 20 s if nothing stops it). Headless Chromium, driven through the DevTools protocol on a
# pipe (tests/support/cdp_drive.py), opens the test's page: the step counter and the plotted
# displacement advance; pause (with the token) holds the step for 6 s while the site's own stream
# shows its controller in hold with no new target, past the site's 5 s silence timeout (the
# coordinator keeps the connection alive); resume goes on; abort without the token is refused and
# the test goes on; abort with the
# token (printed on the terminal of `hysim run`) ends it: exit 3, summary.json `aborted`, every
# step kept (response.csv has steps + 1 rows). The site's page streams its controller state
# (read here with bash's /dev/tcp: no curl needed). The screenshot is kept as
# $HS_BINARY_DIR/monitor.png (docs/img/monitor.png is a copy).
# Usage: monitor_browser.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/monitor_http.sh"
monitor_work_dir # $dir, pids, fail
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
    echo "monitor_browser.sh: SKIP: no chromium (Debian package chromium; scripts/install-deps.sh)"
    exit 0
fi
if ! command -v python3 > /dev/null; then
    echo "monitor_browser.sh: SKIP: no python3 to drive chromium"
    exit 0
fi
src=${HS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}

umask 077
monitor_lab_site a1
"$hysim" site --config "$dir/lab.yaml" --once --monitor 0 > "$dir/site.out" 2> "$dir/site.log" &
pids+=($!)
port="" site_mon=""
for _ in $(seq 1 100); do
    port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$dir/site.out" | head -1)
    site_mon=$(sed -n 's|.*hysim monitor: http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$dir/site.log")
    [ -n "$port" ] && [ -n "$site_mon" ] && break
    sleep 0.05
done
[ -n "$port" ] && [ -n "$site_mon" ] || fail "the site did not start"

steps=4000
monitored_test "$dir/test.yaml" monitored "$port" $steps
"$hysim" run "$dir/test.yaml" -o "$dir/run" --monitor 127.0.0.1:0 > "$dir/run.out" 2> "$dir/run.log" &
run_pid=$!
pids+=($run_pid)
monitor_address "$dir/run.log" || fail "no monitor address and token on the terminal"

# The site's page: its event stream carries the site's layout and the controller's samples.
exec 5<> "/dev/tcp/127.0.0.1/$site_mon" || fail "cannot reach the site's monitor"
printf 'GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' >&5
timeout 3 cat <&5 > "$dir/site_events.txt"
exec 5<&-
grep -q '"role":"site"' "$dir/site_events.txt" || fail "the site's stream has no site layout"
grep -q '"actuators":\["a1"\]' "$dir/site_events.txt" || fail "the site's stream names no a1"
site_samples=$(grep -c '^event: sample' "$dir/site_events.txt")
[ "$site_samples" -ge 10 ] || fail "the site's stream sent $site_samples samples in 3 s"

facts=$(python3 "$src/tests/support/cdp_drive.py" "$chromium" "http://127.0.0.1:$mon/" "$token" \
    "$dir/monitor.png" "$site_mon") || fail "the browser checks failed: $facts"
echo "monitor_browser.sh: $facts"
wait "$run_pid"
rc=$?
[ "$rc" -eq 3 ] || fail "the aborted run exited $rc, expected 3"
grep -q '"status": "aborted"' "$dir/run/summary.json" || fail "summary.json does not say aborted"
grep -q 'aborted by the operator from the monitor page' "$dir/run/summary.json" ||
    fail "summary.json does not say the operator aborted"
done_steps=$(sed -n 's/^  "steps": \([0-9]*\),/\1/p' "$dir/run/summary.json")
records=$(sed -n 's/^  "records": \([0-9]*\),/\1/p' "$dir/run/summary.json")
rows=$(($(wc -l < "$dir/run/response.csv") - 1))
[ -n "$done_steps" ] && [ "$done_steps" -gt 0 ] && [ "$done_steps" -lt $steps ] ||
    fail "the run did $done_steps steps: not stopped part-way"
[ "$records" -eq $((done_steps + 1)) ] && [ "$rows" -eq $((done_steps + 1)) ] ||
    fail "$done_steps steps but $records records and $rows rows in response.csv"
# the site's log says who stopped the run (main said "coordinator ... disappeared without BYE")
for _ in $(seq 1 50); do grep -q 'stopped its run' "$dir/site.log" && break; sleep 0.1; done
grep -q 'stopped its run: aborted by the operator from the monitor page after step [0-9]*; the test stays held' "$dir/site.log" ||
    fail "the site's log does not say the operator aborted: $(grep -i 'coordinator' "$dir/site.log" | tail -2)"
grep -q 'disappeared' "$dir/site.log" && fail "the site's log calls the operator's abort a disappearance"
final=$(echo "$facts" | sed -n 's/.*final_step=\([0-9]*\).*/\1/p')
[ "$final" -eq "$done_steps" ] || fail "the page's last step $final, the run's $done_steps"
if [ -n "${HS_BINARY_DIR:-}" ]; then cp "$dir/monitor.png" "$HS_BINARY_DIR/monitor.png"; fi
echo "monitor_browser.sh: aborted from the page after $done_steps of $steps steps, exit 3, $rows rows kept; site stream $site_samples samples in 3 s"
