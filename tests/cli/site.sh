#!/usr/bin/env bash
# hysim site with OpenFresco protocol A: the server starts on free ports, a client written here
# from PROTOCOL.md's byte layout (python3 socket/struct) sends the sizes, trials, getForce and
# getInitialStiff, commit and DIE; forces and stiffness are checked against the spring's closed
# form through T = [-1, 1]; SIGTERM stops the server with exit code 0; the tick log rotated at
# --log-max. Also hysim keygen.
set -u
HYSIM=${1:?usage: site.sh PATH_TO_hysim}
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 is not available to play the OpenFresco client"
    exit 0
fi
dir=$(mktemp -d)
trap 'kill ${pid:-} 2>/dev/null; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; cat "$dir/err" 2>/dev/null; exit 1; }

# keygen: a new key of mode 0600, never overwritten
"$HYSIM" keygen "$dir/lab1.key" >/dev/null || fail "keygen"
[ "$(stat -c %a "$dir/lab1.key")" = 600 ] || fail "key mode is not 0600"
[ "$(tr -d '\n' < "$dir/lab1.key" | wc -c)" = 64 ] || fail "key is not 64 hex digits"
"$HYSIM" keygen "$dir/lab1.key" 2>/dev/null && fail "keygen overwrote a key"

cat > "$dir/site.yaml" <<'YAML'
site:
  name: lab1
  listen: "127.0.0.1:0"
  key: lab1.key
  rate: 500
  perfect: true
  actuators: {a1: {stroke: 10}}
  specimen: {type: linear, K: [[2.5]]}
  openfresco: {protocol_a: 0, T: [[-1, 1]], step_time: 0.02}
YAML
# a bad site file: FILE:LINE:COL and exit code 2
printf 'site:\n  name: lab1\n  plain: true\n  listen: "127.0.0.1:99999"\n  actuators: {a1: {}}\n  specimen: {type: linear, K: [[1]]}\n' > "$dir/bad.yaml"
"$HYSIM" site --config "$dir/bad.yaml" 2>"$dir/bad.err"
[ $? -eq 2 ] || fail "a bad site file does not exit with 2"
grep -q "bad.yaml:4:11: site.listen" "$dir/bad.err" || fail "bad site file message: $(cat "$dir/bad.err")"

# a tick log file size out of range: exit 2 and the range
"$HYSIM" site --config "$dir/site.yaml" --log "$dir/ticks.csv" --log-max 0 2>"$dir/logmax.err"
[ $? -eq 2 ] || fail "--log-max 0 does not exit with 2"
grep -q "from 0.01 to 1e6" "$dir/logmax.err" || fail "--log-max message: $(cat "$dir/logmax.err")"

# the tick log in files of 0.01 MiB (10,485 bytes): rotated to ticks.csv.1
"$HYSIM" site --config "$dir/site.yaml" --log "$dir/ticks.csv" --log-max 0.01 >"$dir/out" 2>"$dir/err" &
pid=$!
for _ in $(seq 100); do grep -q "OpenFresco A" "$dir/out" && break; sleep 0.05; done
port=$(sed -n 's/.*, \([0-9]*\) (OpenFresco A).*/\1/p' "$dir/out")
[ -n "$port" ] || fail "no OpenFresco A port printed: $(cat "$dir/out")"

python3 - "$port" <<'PY' || fail "OpenFresco client"
import socket, struct, sys
port = int(sys.argv[1])
s = socket.create_connection(("127.0.0.1", port), timeout=10)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
ds = 8
# sizeCtrl [disp, vel, accel, force, time], sizeDaq [...], dataSize: int32 little-endian
s.sendall(struct.pack("<11i", 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, ds))
def send(v):
    v = list(v) + [0.0] * (ds - len(v))
    s.sendall(struct.pack("<%dd" % ds, *v))
def recv():
    b = b""
    while len(b) < 8 * ds:
        chunk = s.recv(8 * ds - len(b))
        if not chunk:
            raise SystemExit("server closed")
        b += chunk
    return struct.unpack("<%dd" % ds, b)
k = 2.5
for step, (d1, d2) in enumerate([(0.0, 0.1), (0.05, 0.3), (-0.2, 0.1), (0.1, 0.1)]):
    send([3.0, d1, d2, 0.02 * (step + 1)])   # setTrialResponse: d1 d2 t
    send([10.0, d1, d2, 0.02 * (step + 1)])  # getForce
    q = recv()
    u = d2 - d1                              # the actuator on the drift, T = [-1, 1]
    want = (-k * u, k * u)
    if abs(q[0] - want[0]) > 1e-12 or abs(q[1] - want[1]) > 1e-12:
        raise SystemExit("step %d: force %r, expected %r" % (step, q[:2], want))
    send([5.0, d1, d2])                      # commitState
send([12.0])                                 # getInitialStiff: T^T K T, column-major
K = recv()
if [round(x, 12) for x in K[:4]] != [k, -k, -k, k]:
    raise SystemExit("initial stiffness %r" % (K[:4],))
send([15.0])                                 # getMass: zero unless configured
if any(recv()[:4]):
    raise SystemExit("mass not zero")
send([99.0])                                 # DIE
s.close()
print("OpenFresco A: 4 trials, forces and stiffness as T^T K T")
PY
# the tick log reaches its first rotation after about 10 KB of ticks (a fraction of a second
# idle); on a loaded machine it may take longer: wait for it, at most 10 s
for _ in $(seq 1 100); do [ -f "$dir/ticks.csv.1" ] && break; sleep 0.1; done
kill -TERM $pid
wait $pid
code=$?
[ $code -eq 0 ] || fail "hysim site exited with $code after SIGTERM"
grep -q "SIGTERM: stopping" "$dir/err" || fail "no stop message"
grep -q "1 session(s)" "$dir/err" || fail "the session was not counted: $(tail -1 "$dir/err")"
[ -f "$dir/ticks.csv.1" ] || fail "the tick log was not rotated: $(tail -1 "$dir/err")"
[ "$(wc -l < "$dir/ticks.csv.1")" -gt 10 ] || fail "tick log too short"
for f in "$dir/ticks.csv" "$dir/ticks.csv.1"; do
    head -1 "$f" | grep -q "^tick,t,late,state,trip,command_a1,x_a1,f_a1$" || fail "tick log header"
    [ "$(wc -c < "$f")" -le 10700 ] || fail "$f: $(wc -c < "$f") bytes, more than 0.01 MiB and a line"
done
# consecutive across the two files
last=$(tail -1 "$dir/ticks.csv.1" | cut -d, -f1)
first=$(sed -n 2p "$dir/ticks.csv" | cut -d, -f1)
[ -z "$first" ] || [ "$first" -eq $((last + 1)) ] || fail "ticks $last then $first across the files"
grep -q "tick log .*rotation(s) to .*ticks.csv.1 (files of at most 0.01 MiB), 0 record(s) dropped" \
    "$dir/err" || fail "no tick log report: $(tail -2 "$dir/err")"
tail -2 "$dir/err"
echo "PASS"
