#!/usr/bin/env bash
# The command never jumps between tests (docs/site_server.md, "Between tests"; issue 17, hole 3):
# for each back end (the site's virtual lab, udp and shm played by `hysim plant`, and the example
# driver, examples/drivers/first_order.c) one `hysim site` with a tick log goes through every
# transition a laboratory sees: a coordinator killed mid-test (the test held), its resume, killed
# again, a new test of another coordinator over the held one, killed too, a second new test, and
# the operator's abort (SIGTERM to the site) with its unloading. Every command of the tick log is
# within the stroke, the step per tick, the velocity and the acceleration limits, and each new
# test starts with the command moved from where it rested (logged, from |x| > v_max / rate, so
# that a jump to 0 in one tick would have broken the velocity limit) to the new test's start. (Before, a udp
# rig held at -1.158 mm was commanded to 0 within one tick when a new test began.)
# Usage: site_transitions.sh PATH_TO_hysim
set -u
hysim=$1
bin=${HS_BINARY_DIR:-}
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/plant_lab.sh"
name="/hysim-test-transitions-$$"
plant_lab_frame
umask 077
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/east.key"

rate=1000 stroke=50 vel=400 acc=200000 step=0.5
packets='  endian: little
  command_packet: [{counter: uint32}, {command: float64, channel: a1}]
  reply_packet: [{counter: uint32}, {echo: uint32}, {tick: uint32}, {status: uint32},
                 {displacement: float64, channel: a1}, {force: float64, channel: a1}]'

# run_killed STEM STEP [--resume]: a run through the site killed at the targets of STEP
run_killed() {
    if [ "${3:-}" = --resume ]; then
        HS_TEST_KILL_AT=targets:$2 "$hysim" run --resume "$dir/$1" --quiet >> "$dir/$1.log" 2>&1
    else
        HS_TEST_KILL_AT=targets:$2 "$hysim" run "$dir/test.yaml" -o "$dir/$1" --quiet \
            > "$dir/$1.log" 2>&1
    fi
    local rc=$?
    [ $rc -eq 137 ] || fail "$1: the run exited $rc, expected 137 (killed at step $2)"
    sleep 0.3 # the site sees the coordinator gone and holds
}

# transitions STEM LAB_KEYS
transitions() {
    cat > "$dir/$1.yaml" <<YAML
hysim: 1
site:
  name: east
  listen: "127.0.0.1:0"
  key: east.key
  heartbeat: 0.5
  timeout: 10
  rate: $rate
  actuators: {a1: {delay_samples: 3, stroke: $stroke, velocity_limit: $vel,
                   acceleration_limit: $acc, step_limit: $step}}
  specimen: {type: linear, K: [[1.0]]}
  command: {unload_after: 0.2, unload_velocity: 5, unload_force: 0.005}
$2
YAML
    "$hysim" site --config "$dir/$1.yaml" --log "$dir/$1.csv" --log-max 1000 \
        > "$dir/$1.out" 2> "$dir/$1.err" &
    local site_pid=$!
    pids+=($site_pid)
    local port
    port=$(site_port "$1")
    [ -n "$port" ] || fail "site $1 did not start: $(cat "$dir/$1.err")"
    two_story_test "$dir/test.yaml" transitions_$1 8000 \
        "{kind: remote, url: \"hysim://127.0.0.1:$port\", key: east.key, actuators: {a1: {}}}"
    run_killed "$1_a" 300             # held
    run_killed "$1_a" 700 --resume    # resumed, held again
    run_killed "$1_b" 400             # a new test over the held one, held
    "$hysim" run "$dir/test.yaml" -o "$dir/$1_c" --quiet > "$dir/$1_c.log" 2>&1 &
    local run_pid=$!
    pids+=($run_pid)
    wait_steps "$1_c" 200 || fail "$1: the third run recorded no 200 steps in 30 s"
    kill -TERM "$site_pid" # the operator's abort
    wait "$run_pid"
    local rc=$?
    [ $rc -eq 3 ] || fail "$1: the aborted run exited $rc, expected 3"
    wait "$site_pid"
    rc=$?
    [ $rc -eq 0 ] || fail "$1: the site exited $rc after the abort"
    grep -q "coordinator .* resumes from step" "$dir/$1.err" || fail "$1: no resume at the site"
    # the two new tests: the command moved from where it rested
    local moves
    moves=$(sed -n 's/.*the command moved from where it rested (a1 \([-0-9.e+]*\)[^)]*) to the new test.s start (a1 \([-0-9.e+]*\)[^)]*) in \([0-9.e+-]*\) s.*/\1 \2 \3/p' "$dir/$1.err")
    [ "$(echo "$moves" | grep -c .)" -eq 2 ] || fail "$1: expected two moves before new tests, the site logged: $moves"
    echo "$moves" | awk -v m="$(awk -v v=$vel -v r=$rate 'BEGIN { print v / r }')" \
        '{ x = $1 < 0 ? -$1 : $1; if (x > m) big++ } END { exit !(big >= 1) }' ||
        fail "$1: no held position beyond v_max / rate: a jump to 0 would not have shown: $moves"
    local verdict
    verdict=$(awk -F, -v r=$rate -v S=$stroke -v V=$vel -v A=$acc -v D=$step '
        NR == 1 { next }
        { c = $6; n++
          if (c < 0 ? -c > S : c > S) bad = bad " stroke@" $1
          if (n > 1) { d = c - c1; if (d < 0) d = -d
                       if (d > D) bad = bad " step@" $1
                       if (d * r > V * (1 + 1e-9)) bad = bad " velocity@" $1 }
          if (n > 2) { a = (c - 2 * c1 + c2) * r * r; if (a < 0) a = -a
                       if (a > A * (1 + 1e-9)) bad = bad " acceleration@" $1 }
          c2 = c1; c1 = c }
        END { printf "%s|%d", (bad == "" ? "ok" : substr(bad, 1, 200)), n }' "$dir/$1.csv")
    local ok nticks
    IFS='|' read -r ok nticks <<< "$verdict"
    [ "$ok" = ok ] || fail "$1: a command crossed a limit:$ok"
    echo "site_transitions.sh $1: killed, resumed, killed, new test, killed, new test, aborted;" \
        "moves before the new tests (from, to, s): $(echo "$moves" | tr '\n' ';')" \
        "every command of $nticks ticks within the limits"
}

# 2000 silent ticks before the watchdog and 10 s before a silent coordinator is lost: a loaded
# machine can starve a plant or a coordinator for a while (a killed coordinator is seen at once)
transitions virtual ""
start_plant udp
transitions udp "  lab:
    kind: udp
    remote: \"127.0.0.1:$port_plant\"
    local: \"127.0.0.1:0\"
    rests_at_zero: true
    reply_timeout: 0.002
    max_missing: 2000
$(echo "$packets" | sed 's/^/  /')"
kill "$pid_plant"
wait "$pid_plant" 2>/dev/null
if [ -d /dev/shm ]; then
    start_plant shm
    transitions shm "  lab: {kind: shm, name: $name, reply_timeout: 0.002, max_missing: 2000}"
    kill "$pid_plant"
    wait "$pid_plant" 2>/dev/null
else
    echo "site_transitions.sh: SKIP shm: no /dev/shm on this machine"
fi
driver="$bin/drivers/libhysim_driver_first_order.so"
if [ -n "$bin" ] && [ -f "$driver" ]; then
    transitions driver "  lab: {kind: driver, path: \"$driver\", options: \"a=1 k=1.0\"}"
else
    echo "site_transitions.sh: SKIP driver: $driver is not built (run through ctest)"
fi
exit 0
