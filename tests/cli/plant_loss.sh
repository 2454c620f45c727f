#!/usr/bin/env bash
# Packet loss between the site and its udp laboratory on the real network stack
# (docs/lab_backends.md, "Loss on the wire"): this kernel has no netem, so in a network namespace
# of our own (always deleted, with its iptables rules) `iptables -m statistic --mode random` drops
# the plant's replies.
#  1. p = 0.02 of the replies dropped: the run completes, the site's count of ticks without a
#     reply matches the rule's own count of dropped packets (each one a missing tick; the
#     dropped count itself within 4 sigma of p x replies), and the response stays within 5 % of
#     the in-process run's peak.
#  2. every reply dropped for 0.5 s, much longer than max_missing (100 ticks): the site's watchdog
#     holds, the run ends with exit 3, the alarm names the udp link and the count, every step kept.
# Skips with a message where the machine cannot (no root, no ip netns, no iptables).
# Usage: plant_loss.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/lab_procs.sh"
ns=hs_loss_$$
if ! ip netns add "$ns" 2>/dev/null; then
    ns=""
    echo "plant_loss.sh: SKIP: cannot create a network namespace (needs root and ip netns)"
    exit 0
fi
if ! command -v iptables > /dev/null || ! ip netns exec "$ns" iptables -L INPUT > /dev/null 2>&1 ||
    ! ip netns exec "$ns" iptables -A INPUT -p udp --sport 9 -m statistic --mode random \
        --probability 0.5 -j DROP 2> /dev/null; then
    echo "plant_loss.sh: SKIP: iptables (with -m statistic) is not available in a network namespace"
    exit 0
fi
ip netns exec "$ns" iptables -F INPUT
ip netns exec "$ns" ip link set lo up
inns() { ip netns exec "$ns" "$@"; } # foreground only: in the background $! would be a subshell
umask 077
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/east.key"

packets='  endian: little
  command_packet: [{counter: uint32}, {command: float64, channel: a1}]
  reply_packet: [{counter: uint32}, {echo: uint32}, {tick: uint32}, {status: uint32},
                 {displacement: float64, channel: a1}, {force: float64, channel: a1}]'
cat > "$dir/plant.yaml" <<YAML
hysim: 1
plant:
  listen: "127.0.0.1:0"
  rate: 1000
  perfect: true
  actuators: {a1: {}}
  specimen: {type: linear, K: [[1.0]]}
$packets
YAML
ip netns exec "$ns" "$hysim" plant --config "$dir/plant.yaml" > "$dir/plant.out" 2> "$dir/plant.err" &
pids+=($!)
port_plant=$(site_port plant)
[ -n "$port_plant" ] || fail "the plant did not start: $(cat "$dir/plant.err")"

dropped() { # the packets the rule dropped so far
    inns iptables -L INPUT -v -x -n | awk '/DROP/ { s += $1 } END { print s + 0 }'
}

# 1. random loss of the replies
p=0.02
steps=1000
inns iptables -A INPUT -p udp --sport "$port_plant" -m statistic --mode random --probability $p -j DROP
# max_missing 200 (0.2 s): p^200 never, and a plant starved by a loaded machine does not trip it
start_udp_site site "$port_plant" 200 ip netns exec "$ns"
two_story_test "$dir/local.yaml" loss $steps "{kind: virtual, perfect: true, actuators: {a1: {}}, specimen: {type: linear, K: [[1.0]]}}"
two_story_test "$dir/lossy.yaml" loss $steps "{kind: remote, url: \"hysim://127.0.0.1:$port_site\", key: east.key, actuators: {a1: {}}}"
"$hysim" run "$dir/local.yaml" -o "$dir/local" --quiet > "$dir/local.log" 2>&1 || fail "in-process run exited $?"
inns "$hysim" run "$dir/lossy.yaml" -o "$dir/lossy" --quiet > "$dir/lossy.log" 2>&1 || fail "lossy run exited $?"
grep -q '"status": "completed"' "$dir/lossy/summary.json" || fail "lossy run not completed"
kill "$pid_site"
wait "$pid_site" 2>/dev/null
drops=$(dropped)
inns iptables -F INPUT
# the site's counts of every laboratory it ran (the idle one before the test, the test's): all
# their replies passed the rule
grep -q "lab udp:" "$dir/site.log" || fail "the site printed no udp counts"
read -r sent missing late <<< "$(sed -n 's/.*lab udp: \([0-9]*\) commands sent.*; \([0-9]*\) ticks without a reply.*discarded: \([0-9]*\) late.*/\1 \2 \3/p' "$dir/site.log" |
    awk '{ s += $1; m += $2; l += $3 } END { print s + 0, m + 0, l + 0 }')"
read -r d peak <<< "$(max_diff local lossy)"
echo "plant_loss.sh: p = $p: $sent commands, the rule dropped $drops replies (expected $(awk -v n="$sent" -v p=$p 'BEGIN { printf "%.0f", n * p }')), the site counted $missing ticks without a reply, $late late; response within $d mm of the in-process run (peak $peak mm)"
awk -v n="$sent" -v p=$p -v k="$drops" 'BEGIN { s = sqrt(n * p * (1 - p)); d = k - n * p; if (d < 0) d = -d; exit !(n > 1000 && d <= 4 * s + 2) }' ||
    fail "the rule dropped $drops of about $sent replies, not p = $p"
# every dropped reply is a tick without one; a late reply (loaded machine) adds a missing tick too
awk -v m="$missing" -v k="$drops" -v l="${late:-0}" -v n="$sent" 'BEGIN { exit !(m >= k && m <= k + l + 0.005 * n + 5) }' ||
    fail "the site counted $missing missing replies for $drops dropped ($late late)"
awk -v p="$peak" 'BEGIN { exit !(p > 1) }' || fail "the record hardly moves the frame (peak $peak mm)"
# The 5 % bound judges the rule's loss: it holds only when the machine kept the loop's real time
# (late replies a small part of the missing ones). A loaded machine (a clean-clone CI run saw 990
# late replies against 272 dropped, and 2201 catch-up ticks) moves the response by its own delays,
# which this test does not measure: then the bound is reported, not asserted.
if awk -v l="${late:-0}" -v k="$drops" 'BEGIN { exit !(l <= k) }'; then
    awk -v d="$d" -v p="$peak" 'BEGIN { exit !(d < 0.05 * p) }' ||
        fail "the lossy response differs by $d mm (peak $peak mm): not within 5 %"
else
    echo "plant_loss.sh: SKIP the 5 % response bound: the machine made $late replies late against $drops dropped by the rule (it did not keep real time); the counts above are still checked"
fi

# 2. a burst: every reply dropped for 0.5 s (max_missing 100 at 1000 Hz: 0.1 s)
start_udp_site site2 "$port_plant" 100 ip netns exec "$ns"
two_story_test "$dir/long.yaml" loss 4000 "{kind: remote, url: \"hysim://127.0.0.1:$port_site2\", key: east.key, actuators: {a1: {}}}"
ip netns exec "$ns" "$hysim" run "$dir/long.yaml" -o "$dir/burst" --quiet > "$dir/burst.log" 2>&1 &
run_pid=$!
pids+=($run_pid)
for _ in $(seq 1 300); do
    grep -qs 'new test of' "$dir/site2.log" && break
    sleep 0.05
done
sleep 1
inns iptables -A INPUT -p udp --sport "$port_plant" -j DROP
sleep 0.5
inns iptables -F INPUT
wait "$run_pid"
rc=$?
[ "$rc" -eq 3 ] || fail "the run exited $rc after a burst of lost replies, expected 3"
grep -q '"status": "aborted"' "$dir/burst/summary.json" || fail "summary does not say aborted"
grep -q "watchdog: 100 replies missing in a row on the udp link (limit 100)" "$dir/burst.log" ||
    fail "no watchdog alarm naming the udp link: $(tail -3 "$dir/burst.log")"
done_steps=$(sed -n 's/.*aborted after \([0-9]*\) of.*/\1/p' "$dir/burst.log")
rows=$(($(wc -l < "$dir/burst/response.csv") - 1))
[ -n "$done_steps" ] && [ "$done_steps" -gt 10 ] && [ "$rows" -eq $((done_steps + 1)) ] ||
    fail "response.csv has $rows rows for ${done_steps:-?} steps done"
echo "plant_loss.sh: every reply dropped for 0.5 s: the watchdog held after 100, exit 3, all $done_steps steps kept"
exit 0
