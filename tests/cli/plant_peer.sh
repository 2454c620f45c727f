#!/usr/bin/env bash
# `hysim plant` serves one peer (issue 17, hole 5: one datagram with counter 1 from another port
# made the plant follow it to 40 mm). A small udp client in the test (python3) plays the site and
# an intruder on two loopback ports of the same host:
# 1. the site commands 1.0 mm (counters 1..20) and gets its replies; the intruder then sends
#    counter 1 and 40 mm: no reply comes back to it, and the site's next commands (21..40,
#    1.0 mm) are answered with the plant at 1.0 mm (a perfect plant: the measurement is the
#    command), not 40; the plant's counts name the intruder's datagrams as foreign.
# 2. after the site falls silent for longer than peer_timeout (0.2 s here), a new site (another
#    port, counter 1) is served: a site restarted on a new port is not locked out.
# 2b. a site that closes its socket (as `hysim site` does at each new test, on a new port) has
#    ended: the next site's first command (counter 1) is answered at once, well before
#    peer_timeout (0.5 s by default), and the plant counts one peer seen to end.
# 3. with `peer: "127.0.0.1:PORT"` the plant serves that port only, also when it is silent: a
#    first sender from another port gets nothing, the configured one then gets its replies (and,
#    while no command comes, the plant's periodic reply: the site reads its position from it).
# 4. plant.peer with port 0 and peer_timeout out of range are FILE:LINE:COL errors.
# Usage: plant_peer.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
if ! command -v python3 >/dev/null 2>&1; then
    echo "plant_peer.sh: SKIP: python3 is not available for the udp client"
    exit 0
fi

# The client: starts the plant itself (so that it can write the configured peer's port into the
# plant file), stops it with SIGTERM whatever happens, and prints the plant's stderr.
cat > "$dir/client.py" <<'PY'
import os, socket, struct, subprocess, sys, time

hysim, folder, case = sys.argv[1], sys.argv[2], sys.argv[3]
CMD = struct.Struct("<Id")            # counter, command a1
REP = struct.Struct("<IIIIdd")        # counter, echo, tick, status, displacement, force

def sock():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    s.settimeout(0.05)
    return s

def exchange(s, plant, counter, cmd, tries=20):
    """Sends a command; the reply echoing it, or None after `tries` times 50 ms. Other replies
    (a plant with a configured peer sends it a periodic reply while no command comes) are
    skipped."""
    s.sendto(CMD.pack(counter, cmd), plant)
    deadline = time.monotonic() + 0.05 * tries
    while time.monotonic() < deadline:
        try:
            data, _ = s.recvfrom(256)
        except socket.timeout:
            continue
        if len(data) == REP.size and REP.unpack(data)[1] == counter:
            return REP.unpack(data)
    return None

def intruder_then_site(counters):
    """The intruder's counter-1 command at 40 mm gets no reply; the site's commands (1.0 mm) are
    answered with the plant at 1.0 mm. None, or what went wrong."""
    r = exchange(intruder, plant, 1, 40.0, tries=6)
    if r is not None:
        return "the intruder's counter-1 command was answered (plant at %.3f mm)" % r[4]
    for c in counters:
        r = exchange(site, plant, c, 1.0)
        if r is None or abs(r[4] - 1.0) > 1e-12:
            return "after the intruder, the site's command %d: %r" % (c, r)
    return None

site, intruder, second = sock(), sock(), sock()
extra = ""
if case == "fixed":
    extra = '  peer: "127.0.0.1:%d"\n' % site.getsockname()[1]
elif case == "timeout":
    extra = "  peer_timeout: 0.2\n"
with open(os.path.join(folder, "plant.yaml"), "w") as f:
    f.write('hysim: 1\nplant:\n  listen: "127.0.0.1:0"\n  rate: 1000\n  perfect: true\n'
            '  actuators: {a1: {}}\n  specimen: {type: linear, K: [[1.0]]}\n  endian: little\n'
            '  command_packet: [{counter: uint32}, {command: float64, channel: a1}]\n'
            '  reply_packet: [{counter: uint32}, {echo: uint32}, {tick: uint32}, {status: uint32},\n'
            '                 {displacement: float64, channel: a1}, {force: float64, channel: a1}]\n'
            + extra)
err = open(os.path.join(folder, "plant.err"), "w")
p = subprocess.Popen([hysim, "plant", "--config", os.path.join(folder, "plant.yaml")],
                     stdout=subprocess.PIPE, stderr=err, text=True)
failed = None
try:
    line = p.stdout.readline()
    if "plant listening on 127.0.0.1:" not in line:
        raise SystemExit("FAIL: the plant did not start: " + line)
    plant = ("127.0.0.1", int(line.split("127.0.0.1:")[1].split()[0]))
    if case in ("takeover", "timeout", "ended"):  # the first site's 20 commands
        for c in range(1, 21):
            r = exchange(site, plant, c, 1.0)
            if r is None:
                failed = "the site's command %d got no reply" % c
                break
        if not failed and case == "takeover":
            failed = intruder_then_site(range(21, 41))
            if not failed:
                print("takeover: the intruder got no reply; the site's 40 commands answered at 1.0 mm")
        if not failed and case == "timeout":
            time.sleep(0.5)  # the first site is silent for 2.5 peer_timeouts
            r = exchange(second, plant, 1, 2.0)
            if r is None:
                failed = "a new site after the first fell silent got no reply"
            else:
                r = exchange(second, plant, 2, 2.0)
                if r is None or abs(r[4] - 2.0) > 1e-12:
                    failed = "the new site's second command: %r" % (r,)
            if not failed and exchange(site, plant, 21, 1.0, tries=6) is not None:
                failed = "the first site was still answered after the new one took the plant"
            if not failed:
                print("timeout: a new site is served 0.5 s after the first fell silent; the first is not")
        if not failed and case == "ended":
            site.close()  # the site's laboratory ends: its port is closed
            t0 = time.monotonic()
            r = exchange(second, plant, 1, 2.0)
            took = time.monotonic() - t0
            if r is None or abs(r[4] - 2.0) > 1e-12:
                failed = "the next site's first command: %r" % (r,)
            elif took > 0.2:
                failed = "the next site waited %.3f s (its first command must be served at once)" % took
            else:
                print("ended: the next site's first command answered %.1f ms after the first site "
                      "closed its socket" % (1e3 * took))
    elif case == "fixed":
        failed = intruder_then_site(range(1, 11))
        if not failed:
            print("fixed: only the configured peer is answered")
finally:
    p.terminate()
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    err.close()
if failed:
    raise SystemExit("FAIL: " + failed)
PY

counts() { # the plant's count of WORD (from its last stderr line)
    sed -n "s/.* \([0-9]*\) $1.*/\1/p" "$dir/plant.err" | tail -1
}
for case in takeover timeout ended fixed; do
    ASAN_OPTIONS=detect_leaks=1 python3 "$dir/client.py" "$hysim" "$dir" "$case" > "$dir/client.out" 2>&1 ||
        fail "$case: $(cat "$dir/client.out") -- plant: $(tail -3 "$dir/plant.err")"
    cat "$dir/client.out"
    foreign=$(counts foreign)
    peers=$(sed -n 's/.* \([0-9]*\) peer(s) served.*/\1/p' "$dir/plant.err" | tail -1)
    case $case in
    takeover)
        [ "${foreign:-0}" -ge 1 ] || fail "takeover: the plant counted ${foreign:-no} foreign datagrams"
        grep -q "dropped a datagram from 127.0.0.1:[0-9]*: the plant serves 127.0.0.1:[0-9]* only" "$dir/plant.err" ||
            fail "takeover: no warning naming the dropped sender: $(cat "$dir/plant.err")"
        [ "$peers" = 1 ] || fail "takeover: $peers peers served, expected 1" ;;
    timeout) [ "$peers" = 2 ] || fail "timeout: $peers peers served, expected 2" ;;
    ended)
        [ "$peers" = 2 ] || fail "ended: $peers peers served, expected 2"
        grep -q "peer(s) served (1 seen to end)" "$dir/plant.err" ||
            fail "ended: the plant did not see the first site end: $(tail -1 "$dir/plant.err")" ;;
    fixed)
        [ "${foreign:-0}" -ge 1 ] || fail "fixed: the plant counted ${foreign:-no} foreign datagrams"
        [ "$peers" = 1 ] || fail "fixed: $peers peers served, expected 1" ;;
    esac
done

# bad peer settings
base='hysim: 1
plant:
  listen: "127.0.0.1:0"
  rate: 1000
  actuators: {a1: {}}
  specimen: {type: linear, K: [[1.0]]}
  command_packet: [{counter: uint32}, {command: float64, channel: a1}]
  reply_packet: [{echo: uint32}, {displacement: float64, channel: a1}, {force: float64, channel: a1}]'
printf '%s\n  peer: "127.0.0.1:0"\n' "$base" > "$dir/bad1.yaml"
printf '%s\n  peer_timeout: 0\n' "$base" > "$dir/bad2.yaml"
"$hysim" plant --config "$dir/bad1.yaml" > /dev/null 2> "$dir/bad1.err" && fail "peer port 0 accepted"
grep -q "bad1.yaml:9:9: plant.peer: give the site's port" "$dir/bad1.err" || fail "peer port 0: $(cat "$dir/bad1.err")"
"$hysim" plant --config "$dir/bad2.yaml" > /dev/null 2> "$dir/bad2.err" && fail "peer_timeout 0 accepted"
grep -q "bad2.yaml:9:17: plant.peer_timeout: 0 s is outside 0.01..3600 s" "$dir/bad2.err" ||
    fail "peer_timeout 0: $(cat "$dir/bad2.err")"
echo "plant_peer.sh: ok"
