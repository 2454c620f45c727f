#!/usr/bin/env bash
# A laboratory over udp on loopback (docs/lab_backends.md): `hysim plant` plays the lab (perfect
# actuators, a linear spring), `hysim site` drives it through the udp back end with a declared
# packet layout, `hysim run` runs a two-story test through that site; the same test in process
# (virtual lab) gives the same response.csv bit for bit when no reply went missing (float64 on
# the wire carries every value exactly and the plant steps the same models on the same commands),
# else within a stated bound. Then a small udp proxy written here drops every 50th reply and
# reorders some: the site counts them and the test completes. Then the plant is killed mid-test:
# the site's watchdog holds after max_missing silent ticks, `hysim run` exits 3 with the alarm
# naming the udp channel and the count, and keeps every recorded step. Also an interlock bit from
# the plant holds the site the same way, and bad lab sections are FILE:LINE:COL errors.
# Usage: plant.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/lab_procs.sh"
if ! command -v python3 >/dev/null 2>&1; then
    echo "plant.sh: SKIP: python3 is not available for the dropping proxy"
    exit 0
fi
umask 077
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/east.key"

# The packets, Speedgoat style: a uint32 counter and float64 values, little endian.
packets='  endian: little
  command_packet: [{counter: uint32}, {command: float64, channel: a1}]
  reply_packet: [{counter: uint32}, {echo: uint32}, {tick: uint32}, {status: uint32},
                 {displacement: float64, channel: a1}, {force: float64, channel: a1}]'

start_plant() { # STEM [EXTRA_KEYS] -> port_STEM, pid_STEM
    cat > "$dir/$1.yaml" <<YAML
hysim: 1
plant:
  listen: "127.0.0.1:0"
  rate: 1000
  perfect: true
  actuators: {a1: {}}
  specimen: {type: linear, K: [[1.0]]}
$packets
${2:-}
YAML
    "$hysim" plant --config "$dir/$1.yaml" > "$dir/$1.out" 2> "$dir/$1.err" &
    pids+=($!)
    eval "pid_$1=$!"
    local port
    port=$(site_port "$1")
    [ -n "$port" ] || fail "plant $1 did not start: $(cat "$dir/$1.err")"
    eval "port_$1=$port"
}


# Bad lab sections: FILE:LINE:COL and exit 2.
bad_site() { # WHAT LAB_TEXT EXPECTED
    printf 'site:\n  name: east\n  plain: true\n  actuators: {a1: {}}\n  specimen: {type: linear, K: [[1]]}\n  lab:\n%s\n' "$2" > "$dir/bad.yaml"
    "$hysim" site --config "$dir/bad.yaml" 2> "$dir/bad.err"
    [ $? -eq 2 ] || fail "$1: a bad lab section does not exit with 2"
    grep -q -- "$3" "$dir/bad.err" || fail "$1: message $(cat "$dir/bad.err"), expected $3"
}
bad_site "unknown key" '    kind: udp
    remotee: "127.0.0.1:1"' "bad.yaml:8:5: unknown key 'remotee' in site.lab; did you mean 'remote'"
bad_site "missing field" '    kind: udp
    remote: "127.0.0.1:9"
    command_packet: [{counter: uint32}]
    reply_packet: [{displacement: float64}, {force: float64}]' \
    'bad.yaml:9:21: site.lab.command_packet: missing field: the command of actuator a1'
bad_site "type" '    kind: udp
    remote: "127.0.0.1:9"
    command_packet: [{command: float16}]
    reply_packet: [{displacement: float64}, {force: float64}]' \
    "bad.yaml:9:32: site.lab.command_packet\[1\].command: type 'float16'"
bad_site "too large" '    kind: udp
    remote: "127.0.0.1:9"
    command_packet: [{command: float64}, {pad: 256}, {pad: 256}, {pad: 256}, {pad: 256}, {pad: 256}, {pad: 256}]
    reply_packet: [{displacement: float64}, {force: float64}]' \
    'bytes do not fit one datagram of 1472 bytes'
bad_site "kind" '    kind: serial' "bad.yaml:7:11: site.lab.kind: expected 'virtual', .*got 'serial'"
echo "plant.sh: bad lab sections give FILE:LINE:COL errors"

steps=400
start_plant plant
# the runs that compare responses allow 2 s of silence before the watchdog (a loaded machine can
# starve the plant for more than 0.1 s); the killed plant and the interlock below keep 100
start_udp_site site "$port_plant" 2000
two_story_test "$dir/local.yaml" udp_lab $steps "{kind: virtual, perfect: true, actuators: {a1: {}}, specimen: {type: linear, K: [[1.0]]}}"
two_story_test "$dir/udp.yaml" udp_lab $steps "{kind: remote, url: \"hysim://127.0.0.1:$port_site\", key: east.key, actuators: {a1: {}}}"
"$hysim" run "$dir/local.yaml" -o "$dir/local" --quiet > "$dir/local.log" 2>&1 || fail "in-process run exited $?"
"$hysim" run "$dir/udp.yaml" -o "$dir/udp" --quiet > "$dir/run_udp.log" 2>&1 || fail "udp run exited $?"
grep -q '"status": "completed"' "$dir/udp/summary.json" || fail "udp run not completed"
kill "$pid_site"
wait "$pid_site" 2>/dev/null
lab_matches_local plant.sh udp udp $steps

# A proxy between site and plant that drops every 50th reply and swaps some pairs of replies:
# counted by the site, tolerated (max_missing 2000: this 2-core machine, loaded, deschedules the
# plant for tens of ms at times), the test completes.
cat > "$dir/proxy.py" <<'PY'
import select, socket, sys
plant = ("127.0.0.1", int(sys.argv[1]))
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); a.bind(("127.0.0.1", 0))  # faces the site
b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); b.bind(("127.0.0.1", 0))  # faces the plant
print(a.getsockname()[1], flush=True)
site, n, held = None, 0, None
while True:
    r, _, _ = select.select([a, b], [], [])
    if a in r:
        data, site = a.recvfrom(2048)
        b.sendto(data, plant)
    if b in r:
        data, _ = b.recvfrom(2048)
        n += 1
        if n % 50 == 0:
            continue                       # dropped
        if n % 37 == 0 and held is None:
            held = data                    # held back: sent after the next one (reordered)
            continue
        a.sendto(data, site)
        if held is not None:
            a.sendto(held, site)
            held = None
PY
start_plant plant2
python3 "$dir/proxy.py" "$port_plant2" > "$dir/proxy.out" 2> "$dir/proxy.err" &
pids+=($!)
pid_proxy=$!
for _ in $(seq 1 100); do port_proxy=$(head -1 "$dir/proxy.out"); [ -n "$port_proxy" ] && break; sleep 0.05; done
[ -n "$port_proxy" ] || fail "the proxy did not start"
start_udp_site site2 "$port_proxy" 2000
two_story_test "$dir/proxied.yaml" udp_lab $steps "{kind: remote, url: \"hysim://127.0.0.1:$port_site2\", key: east.key, actuators: {a1: {}}}"
"$hysim" run "$dir/proxied.yaml" -o "$dir/proxied" --quiet > "$dir/run_proxied.log" 2>&1 ||
    fail "the run through the dropping proxy exited $?"
kill "$pid_site2"
wait "$pid_site2" 2>/dev/null
counts=$(grep "lab udp:" "$dir/site2.log" | tail -1)
echo "plant.sh: through the proxy: ${counts#*lab udp: }"
dropped=$(echo "$counts" | sed -n 's/.*; \([0-9]*\) ticks without a reply.*/\1/p')
late=$(echo "$counts" | sed -n 's/.*discarded: \([0-9]*\) late.*/\1/p')
[ "${dropped:-0}" -ge 10 ] || fail "expected the proxy's dropped replies counted, got '$counts'"
ooo=$(echo "$counts" | sed -n 's/.*, \([0-9]*\) out of order.*/\1/p')
# a held-back reply comes after a newer one: out of order (or late, when past its tick)
[ $((${late:-0} + ${ooo:-0})) -ge 10 ] ||
    fail "expected the reordered replies counted late or out of order, got '$counts'"
read -r d peak <<< "$(max_diff local proxied)"
awk -v d="$d" -v p="$peak" 'BEGIN { exit !(d < 0.05 * p) }' ||
    fail "through the proxy: largest difference $d mm is not below 5 % of the peak $peak mm"
echo "plant.sh: dropped and reordered replies tolerated: largest difference $d mm (peak $peak mm)"
kill "$pid_proxy" "$pid_plant2" 2>/dev/null

# The plant killed mid-test: the site holds after 100 silent ticks (0.1 s), the run exits 3, every
# step recorded before is kept.
start_plant plant3
start_udp_site site3 "$port_plant3" 100
long=4000
two_story_test "$dir/long.yaml" udp_lab $long "{kind: remote, url: \"hysim://127.0.0.1:$port_site3\", key: east.key, actuators: {a1: {}}}"
"$hysim" run "$dir/long.yaml" -o "$dir/killed" --quiet > "$dir/killed.log" 2>&1 &
run_pid=$!
pids+=($run_pid)
wait_steps killed 20 || fail "the run recorded no 20 steps in 30 s"
kill -9 "$pid_plant3"
wait "$run_pid"
rc=$?
[ "$rc" -eq 3 ] || fail "the run exited $rc after the plant was killed, expected 3"
kill "$pid_site3" 2>/dev/null # it would go on sending to the dead plant's port
grep -q '"status": "aborted"' "$dir/killed/summary.json" || fail "summary does not say aborted"
grep -q "watchdog: 100 replies missing in a row on the udp link (limit 100); likely the real-time target stopped" "$dir/killed.log" ||
    fail "no watchdog alarm in the run's output: $(tail -3 "$dir/killed.log")"
done_steps=$(sed -n 's/.*aborted after \([0-9]*\) of.*/\1/p' "$dir/killed.log")
rows=$(($(wc -l < "$dir/killed/response.csv") - 1))
[ -n "$done_steps" ] && [ "$done_steps" -gt 10 ] && [ "$rows" -eq $((done_steps + 1)) ] ||
    fail "response.csv has $rows rows for ${done_steps:-?} steps done"
echo "plant.sh: plant killed after 20 steps: exit 3, all $done_steps steps kept; alarm:" \
    "$(grep -o 'laboratory alarm[^:]*' "$dir/killed.log" | head -1)"

# An interlock raised by the plant after its 300th command: the site holds, exit 3.
start_plant plant4 "  interlock_after: 300"
start_udp_site site4 "$port_plant4" 100
two_story_test "$dir/inter.yaml" udp_lab $steps "{kind: remote, url: \"hysim://127.0.0.1:$port_site4\", key: east.key, actuators: {a1: {}}}"
"$hysim" run "$dir/inter.yaml" -o "$dir/inter" --quiet > "$dir/inter.log" 2>&1
rc=$?
[ "$rc" -eq 3 ] || fail "the run exited $rc after an interlock, expected 3"
grep -q "raised its interlock bit" "$dir/inter.log" || fail "no interlock alarm: $(tail -3 "$dir/inter.log")"
echo "plant.sh: interlock from the plant: the site holds, exit 3"
exit 0
