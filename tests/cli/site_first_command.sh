#!/usr/bin/env bash
# The site's first command is where the rig rests (docs/lab_backends.md, "The site's first
# command"; issue 17). For each back end a rig rests at 1.2 mm before `hysim site` starts: udp and
# shm played by `hysim plant --start 1.2` (udp: the plant's periodic reply to its configured peer,
# the site's fixed `local:` address), and the example driver (examples/drivers/first_order.c) with
# x0=1.2. The site, with a tick log, reads the position, commands it at its first tick (less the
# move's first sample, A / (2 rate^2) = 0.001 mm), moves to its rest 0 within half of the velocity,
# step and acceleration limits, then runs a short test (udp: the next laboratory binds the same
# fixed local address at the hand-over) and is stopped. Every command of the log, from the rig at
# rest at 1.2 mm, is within the stroke, step, velocity and acceleration limits. (Before, the first
# command was 0: 1.2 mm in one tick, 1200 mm/s against 400.) A rig beyond the stroke (60 mm of 50)
# is refused at start, naming the actuator, the position, the limit and the units.
# Usage: site_first_command.sh PATH_TO_hysim
set -u
hysim=$1
bin=${HS_BINARY_DIR:-}
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/plant_lab.sh"
name="/hysim-test-first-$$"
plant_lab_frame
if ! command -v python3 >/dev/null 2>&1; then
    echo "site_first_command.sh: SKIP: python3 is not available to find a free udp port"
    exit 0
fi
umask 077
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/east.key"

rate=1000 stroke=50 vel=400 acc=200000 step=0.5 x0=1.2
local_port=$(python3 -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
packets='  endian: little
  command_packet: [{counter: uint32}, {command: float64, channel: a1}]
  reply_packet: [{counter: uint32}, {echo: uint32}, {tick: uint32}, {status: uint32},
                 {displacement: float64, channel: a1}, {force: float64, channel: a1}]'

stop_plant() {
    kill "$pid_plant"
    wait "$pid_plant" 2>/dev/null
}

site_file() { # STEM LAB_KEYS
    cat > "$dir/$1.yaml" <<YAML
hysim: 1
site:
  name: east
  listen: "127.0.0.1:0"
  key: east.key
  rate: $rate
  actuators: {a1: {stroke: $stroke, velocity_limit: $vel, acceleration_limit: $acc,
                   step_limit: $step}}
  specimen: {type: linear, K: [[1.0]]}
$2
YAML
}

# first_command STEM LAB_KEYS: the site from a rig at x0, a short test, every tick checked
first_command() {
    site_file "$1" "$2"
    "$hysim" site --config "$dir/$1.yaml" --log "$dir/$1.csv" > "$dir/$1.out" 2> "$dir/$1.err" &
    local site_pid=$!
    pids+=($site_pid)
    local port
    port=$(site_port "$1")
    [ -n "$port" ] || fail "site $1 did not start: $(cat "$dir/$1.err")"
    grep -q "site east: the rig rests at a1 $x0; the first command is there, and the command moves to its rest (0) in" "$dir/$1.err" ||
        fail "$1: the site did not say where the rig rests: $(cat "$dir/$1.err")"
    two_story_test "$dir/test.yaml" first_$1 200 \
        "{kind: remote, url: \"hysim://127.0.0.1:$port\", key: east.key, actuators: {a1: {}}}"
    "$hysim" run "$dir/test.yaml" -o "$dir/$1_run" --quiet > "$dir/$1_run.log" 2>&1 ||
        fail "$1: the test through the site exited $?"
    kill -TERM "$site_pid"
    wait "$site_pid"
    local rc=$?
    [ $rc -eq 0 ] || fail "$1: the site exited $rc"
    # from the rig at rest at x0: the first command, the move to 0 (up to the first command 0)
    # within half the limits, then every command within the limits
    local verdict
    verdict=$(awk -F, -v r=$rate -v S=$stroke -v V=$vel -v A=$acc -v D=$step -v x0=$x0 '
        NR == 1 { c1 = x0; c2 = x0; next }
        { c = $6; n++
          if (n == 1) { first = c; xm = $7 }
          k = moving ? 0.5 : 1; if (n == 1) { moving = 1; k = 0.5 }
          if (c < 0 ? -c > S : c > S) bad = bad " stroke@" $1
          d = c - c1; if (d < 0) d = -d
          if (d > k * D * (1 + 1e-9)) bad = bad " step@" $1
          if (d * r > k * V * (1 + 1e-9)) bad = bad " velocity@" $1
          a = (c - 2 * c1 + c2) * r * r; if (a < 0) a = -a
          if (a > k * A * (1 + 1e-9)) bad = bad " acceleration@" $1
          if (moving && c == 0) { moving = 0; T = n }
          c2 = c1; c1 = c }
        END { printf "%s|%d|%.9g|%.9g|%d", (bad == "" ? "ok" : substr(bad, 1, 200)), n, first, xm, T }' "$dir/$1.csv")
    local ok nticks first xm T
    IFS='|' read -r ok nticks first xm T <<< "$verdict"
    [ "$ok" = ok ] || fail "$1: a command crossed a limit:$ok"
    # the move's first sample: A / (2 rate^2), A = (V / 2) / 0.1 s = 2000 mm/s^2 (site_move.h)
    awk -v c="$first" -v x="$x0" 'BEGIN { d = c - x; if (d < 0) d = -d; exit !(d <= 0.001 * (1 + 1e-9)) }' ||
        fail "$1: the first command is $first, the rig rests at $x0"
    # the perfect plant follows the command within the tick; on a loaded machine the first tick
    # may still hold the reply read before it (the rig at rest, x0): either, nothing else
    awk -v m="$xm" -v c="$first" -v x="$x0" 'BEGIN { d = m - c; if (d < 0) d = -d; e = m - x; if (e < 0) e = -e
        exit !(d <= 1e-9 || e <= 1e-9) }' ||
        fail "$1: at the first tick the rig measured $xm for the command $first (rest $x0)"
    # a triangle: 2 sqrt(x0 / A) = 49 ms
    [ "$T" -ge 45 ] && [ "$T" -le 55 ] || fail "$1: the move to rest took $T ticks, expected 49"
    echo "site_first_command.sh $1: rig at $x0 mm, first command $first mm (measured $xm)," \
        "at rest 0 after $T ticks; every command of $nticks ticks within the limits"
}

# refused STEM LAB_KEYS: the site refuses a rig at 60 mm (stroke 50)
refused() {
    site_file "$1" "$2"
    "$hysim" site --config "$dir/$1.yaml" > "$dir/$1.out" 2> "$dir/$1.err"
    local rc=$?
    [ $rc -ne 0 ] || fail "$1: the site started with the rig beyond the stroke"
    grep -q "site east: actuator a1 rests at 60, beyond its stroke limit 50 (the test.s length units): the site will not command it" "$dir/$1.err" ||
        fail "$1: the refusal does not name actuator, position, limit and units: $(cat "$dir/$1.err")"
    echo "site_first_command.sh $1: a rig at 60 mm refused (exit $rc): $(grep -o 'actuator a1 rests.*units)' "$dir/$1.err")"
}

udp_lab() {
    echo "  lab:
    kind: udp
    remote: \"127.0.0.1:$port_plant\"
    local: \"127.0.0.1:$local_port\"
    reply_timeout: 0.002
    max_missing: 2000
$(echo "$packets" | sed 's/^/  /')"
}

start_plant udp $x0 "127.0.0.1:$local_port"
first_command udp "$(udp_lab)"
stop_plant
start_plant udp 60 "127.0.0.1:$local_port"
refused udp_far "$(udp_lab)"
stop_plant
# a udp site without a fixed local address cannot read the position: refused, naming both
# remedies; with site.lab.rests_at_zero (the operator's statement) it starts, saying so
start_plant udp 0 "127.0.0.1:$local_port"
blind=$(udp_lab | sed "s/local: \"127.0.0.1:$local_port\"/local: \"127.0.0.1:0\"/")
site_file udp_blind "$blind"
"$hysim" site --config "$dir/udp_blind.yaml" > "$dir/udp_blind.out" 2> "$dir/udp_blind.err"
[ $? -ne 0 ] || fail "the udp site without a fixed local started without rests_at_zero"
grep -q "no fixed site.lab.local (HOST:PORT with a port) where the target sends its periodic reply.*give site.lab.local a port.*site.lab.rests_at_zero: true" "$dir/udp_blind.err" ||
    fail "udp without a fixed local: the refusal does not say what to do: $(cat "$dir/udp_blind.err")"
site_file udp_rest "$blind
    rests_at_zero: true"
"$hysim" site --config "$dir/udp_rest.yaml" > "$dir/udp_rest.out" 2> "$dir/udp_rest.err" &
blind_pid=$!
pids+=($blind_pid)
[ -n "$(site_port udp_rest)" ] || fail "the udp site with rests_at_zero did not start: $(cat "$dir/udp_rest.err")"
kill -TERM "$blind_pid"
wait "$blind_pid" 2>/dev/null
grep -q "site.lab.rests_at_zero states that the rig rests at 0: the first command is 0" "$dir/udp_rest.err" ||
    fail "udp with rests_at_zero: no warning: $(cat "$dir/udp_rest.err")"
stop_plant
echo "site_first_command.sh udp without a fixed local: refused; with rests_at_zero started from 0, warned"

if [ -d /dev/shm ]; then
    shm_lab="  lab: {kind: shm, name: $name, reply_timeout: 0.002, max_missing: 2000}"
    start_plant shm $x0
    first_command shm "$shm_lab"
    stop_plant
    start_plant shm 60
    refused shm_far "$shm_lab"
    stop_plant
else
    echo "site_first_command.sh: SKIP shm: no /dev/shm on this machine"
fi

driver="$bin/drivers/libhysim_driver_first_order.so"
if [ -n "$bin" ] && [ -f "$driver" ]; then
    first_command driver "  lab: {kind: driver, path: \"$driver\", options: \"a=1 k=1.0 x0=$x0\"}"
    refused driver_far "  lab: {kind: driver, path: \"$driver\", options: \"a=1 k=1.0 x0=60\"}"
else
    echo "site_first_command.sh: SKIP driver: $driver is not built (run through ctest)"
fi
exit 0
