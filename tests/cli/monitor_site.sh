#!/usr/bin/env bash
# The monitor of a site server (docs/monitor.md), spoken to with bash's /dev/tcp (no curl, no
# browser): `hysim site --monitor 0` prints its page's address and token; the page is served; the
# event stream carries the site's layout and its controller's samples several times a second;
# pause is refused there (501: it belongs to the coordinator's page), abort is refused without the
# token and with a wrong one (403) and the site keeps serving; abort with the token stops the
# server like SIGINT (the laboratory brought to rest) and `hysim site` exits 3.
# Usage: monitor_site.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/monitor_http.sh"
monitor_work_dir # $dir, pids, fail
umask 077
monitor_lab_site ram
"$hysim" site --config "$dir/lab.yaml" --monitor 0 > "$dir/site.out" 2> "$dir/site.log" &
site_pid=$!
pids+=($site_pid)
monitor_address "$dir/site.log" || fail "the site printed no monitor address and token"
request() { monitor_request "$mon" "$@"; }
control() { monitor_control "$mon" "$@"; }

page=$(request 2 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
[ "$(echo "$page" | http_status)" = 200 ] || fail "the page: $(echo "$page" | head -1)"
echo "$page" | grep -q "new EventSource('events')" || fail "the page has no event source"

request 2 'GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' > "$dir/events.txt"
grep -q '"title":"lab","role":"site"' "$dir/events.txt" || fail "no site layout in the stream"
grep -q '"actuators":\["ram"\]' "$dir/events.txt" || fail "the stream does not name the actuator"
samples=$(grep -c '^event: sample' "$dir/events.txt")
[ "$samples" -ge 10 ] || fail "$samples samples in 2 s (the site publishes every 50 ms)"

[ "$(control pause "$token" | http_status)" = 501 ] || fail "pause was not refused with 501"
[ "$(control abort | http_status)" = 403 ] || fail "abort without the token was not refused"
wrong=$(echo "$token" | tr '0-9a-f' '1-9a-f0')
[ "$(control abort "$wrong" | http_status)" = 403 ] || fail "abort with a wrong token was not refused"
sleep 0.3
kill -0 "$site_pid" 2>/dev/null || fail "the site stopped after a refused abort"
[ "$(control abort "$token" | http_status)" = 200 ] || fail "abort with the token was not accepted"
for _ in $(seq 1 200); do kill -0 "$site_pid" 2>/dev/null || break; sleep 0.05; done
kill -0 "$site_pid" 2>/dev/null && fail "the site still runs 10 s after the abort"
wait "$site_pid"
rc=$?
[ "$rc" -eq 3 ] || fail "hysim site exited $rc after the abort, expected 3"
grep -q 'aborted by the operator from the monitor page' "$dir/site.log" ||
    fail "the site's log does not say who aborted"
echo "monitor_site.sh: $samples samples in 2 s; pause 501, abort refused without and with a wrong token, accepted with it: hysim site exit 3"
