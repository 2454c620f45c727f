#!/usr/bin/env bash
# A site restarted from its state file reads the rig again before its first tick (issue 17, item
# 1.3; docs/site_server.md, "A site restarted with a held test"). For shm and udp, played by
# `hysim plant`: a test through a site with a state file and a tick log is killed mid-run (its
# coordinator, the test held), the site is killed (SIGKILL: the state file stays), the plant is
# stopped and started again with its actuator elsewhere (`--start`, 3 mm off the held command),
# and the site is started again from its state file. It says where the held command and the rig
# are, and moves the command back from the rig to the held command within half of every limit; a
# RESUME during the move is refused, saying why; the resumed test then completes. Every command of
# the restarted site's tick log is within the stroke, the step, velocity and acceleration limits,
# its first is the rig's position (less the move's first sample), and the command where the move
# ends equals, bit for bit, the held command of the first site's state. (Before, the first tick
# commanded the held command: a jump of 3 mm in 1 ms, 3000 mm/s against a limit of 400.) A rig
# within one tick's reach of the held command is held as before, without a move (the udp case
# restarts the plant where it was). Usage: site_resume_moved.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/plant_lab.sh"
name="/hysim-test-resume-moved-$$"
plant_lab_frame
if ! command -v python3 >/dev/null 2>&1; then
    echo "site_resume_moved.sh: SKIP: python3 is not available to find free ports"
    exit 0
fi
umask 077
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/east.key"

rate=1000 stroke=50 vel=400 acc=200000 step=0.5 offset=3
local_port=$(free_port udp) plant_port=$(free_port udp) # the site file names both
packets='  endian: little
  command_packet: [{counter: uint32}, {command: float64, channel: a1}]
  reply_packet: [{counter: uint32}, {echo: uint32}, {tick: uint32}, {status: uint32},
                 {displacement: float64, channel: a1}, {force: float64, channel: a1}]'

# start_site STEM PORT KIND: `hysim site` with a state file and a tick log over the plant of
# KIND; sets site_pid
start_site() {
    cat > "$dir/$1.yaml" <<YAML
hysim: 1
site:
  name: east
  listen: "127.0.0.1:$2"
  key: east.key
  heartbeat: 0.5
  timeout: 10
  state: east.state
  rate: $rate
  actuators: {a1: {stroke: $stroke, velocity_limit: $vel, acceleration_limit: $acc,
                   step_limit: $step}}
  specimen: {type: linear, K: [[1.0]]}
$(site_lab "$3")
YAML
    "$hysim" site --config "$dir/$1.yaml" --log "$dir/$1.csv" > "$dir/$1.out" 2> "$dir/$1.err" &
    site_pid=$!
    pids+=($site_pid)
    [ -n "$(site_port "$1")" ] || fail "site $1 did not start: $(cat "$dir/$1.err")"
}

# verdict CSV X0: every command within the limits from a rig at rest at X0 -> "ok|TICKS|FIRST"
verdict() {
    awk -F, -v r=$rate -v S=$stroke -v V=$vel -v A=$acc -v D=$step -v x0="$2" '
        NR == 1 { c1 = x0; c2 = x0; next }
        { c = $6; n++
          if (n == 1) first = c
          if (c < 0 ? -c > S : c > S) bad = bad " stroke@" $1
          d = c - c1; if (d < 0) d = -d
          if (d > D * (1 + 1e-9)) bad = bad " step@" $1
          if (d * r > V * (1 + 1e-9)) bad = bad " velocity@" $1
          a = (c - 2 * c1 + c2) * r * r; if (a < 0) a = -a
          if (a > A * (1 + 1e-9)) bad = bad " acceleration@" $1
          c2 = c1; c1 = c }
        END { printf "%s|%d|%.17g", (bad == "" ? "ok" : substr(bad, 1, 200)), n, first }' "$1"
}

# resume_moved KIND MOVE (1: the plant restarts 3 mm off; 0: where it was)
resume_moved() {
    local kind=$1 run=$1_$2 stem=$1_$2_a port
    rm -f "$dir/east.state"
    port=$(free_port tcp)
    start_plant "$kind" 0 "127.0.0.1:$local_port" "$plant_port"
    start_site "$stem" "$port" "$kind"
    two_story_test "$dir/test.yaml" moved_$kind 1200 \
        "{kind: remote, url: \"hysim://127.0.0.1:$port\", key: east.key, actuators: {a1: {}}}"
    HS_TEST_KILL_AT=targets:600 "$hysim" run "$dir/test.yaml" -o "$dir/$run" --quiet \
        > "$dir/$run.log" 2>&1
    local rc=$?
    [ $rc -eq 137 ] || fail "$kind: the run exited $rc, expected 137 (killed at step 600)"
    sleep 1 # the site holds the test (its generator slows to a hold)
    kill -9 "$site_pid"
    wait "$site_pid" 2>/dev/null
    [ -f "$dir/east.state" ] || fail "$kind: the killed site left no state file"
    # the held command: the last one the first site logged (its last line may be cut short)
    local held rig
    held=$(awk -F, 'NR > 1 && NF >= 7 { c = $6 } END { print c }' "$dir/$stem.csv")
    [ -n "$held" ] || fail "$kind: the first site logged no command"
    stop_plant
    rig=$(awk -v h="$held" -v o=$offset -v m="$2" 'BEGIN { printf "%.17g", m ? h - o : h }')
    start_plant "$kind" "$rig" "127.0.0.1:$local_port" "$plant_port"
    stem=$1_$2_b
    start_site "$stem" "$port" "$kind"
    local T=0
    if [ "$2" = 1 ]; then
        grep -q "site east: the held test's command is a1 .*; the rig is at a1 .*, beyond one tick's reach within half of the limits (a1 [0-9.e-]*): it was moved while the site was down" "$dir/$stem.err" ||
            fail "$kind: the restarted site did not say where the held command and the rig are: $(cat "$dir/$stem.err")"
        T=$(sed -n "s/.*moves back to the held command in \([0-9.e+-]*\) s.*/\1/p" "$dir/$stem.err")
        [ -n "$T" ] || fail "$kind: no move back: $(cat "$dir/$stem.err")"
        # a resume at once is refused while the command moves (the move takes ~0.2 s at 3 mm;
        # a loaded machine may have moved it already: then the resume goes through)
        if ! "$hysim" run --resume "$dir/$run" --quiet >> "$dir/$run.log" 2>&1; then
            grep -q "cannot resume yet: the site is moving the rig back to the held test's command" "$dir/$run.log" ||
                fail "$kind: the early resume failed otherwise"
            echo "site_resume_moved.sh $kind: a resume during the move refused: $(grep -o 'cannot resume yet[^;]*' "$dir/$run.log" | head -1)"
            sleep "$(awk -v t="$T" 'BEGIN { print t + 0.5 }')"
            "$hysim" run --resume "$dir/$run" --quiet >> "$dir/$run.log" 2>&1 ||
                fail "$kind: the resume after the move exited $?"
        fi
    else
        grep -q "site east: the rig is at a1 .*, within one tick's reach (a1 [0-9.e-]*) of the held test's command a1 .*: the command holds there" "$dir/$stem.err" ||
            fail "$kind: the restarted site did not hold: $(cat "$dir/$stem.err")"
        "$hysim" run --resume "$dir/$run" --quiet >> "$dir/$run.log" 2>&1 ||
            fail "$kind: the resume exited $?"
    fi
    grep -q '"status": "completed"' "$dir/$run/summary.json" || fail "$kind: the resumed test did not complete"
    kill -TERM "$site_pid"
    wait "$site_pid"
    stop_plant
    local ok nticks first
    IFS='|' read -r ok nticks first <<< "$(verdict "$dir/$stem.csv" "$rig")"
    [ "$ok" = ok ] || fail "$kind: a command of the restarted site crossed a limit:$ok"
    # the move's first sample: A / (2 rate^2) with A = (V / 2) / 0.1 s = 2000 mm/s^2 (site_move.h)
    awk -v c="$first" -v x="$rig" 'BEGIN { d = c - x; if (d < 0) d = -d; exit !(d <= 0.001 * (1 + 1e-9)) }' ||
        fail "$kind: the restarted site's first command is $first, the rig is at $rig"
    # the held command of the state file is where the first site's command came to rest (the
    # state written at the hold), and the move ends there
    local saved
    saved=$(sed -n "s/.*the held test's command is a1 \([-0-9.e+]*\).*/\1/p;s/.*of the held test's command a1 \([-0-9.e+]*\).*/\1/p" "$dir/$stem.err")
    awk -v a="$saved" -v h="$held" 'BEGIN { d = a - h; if (d < 0) d = -d; exit !(d <= 1e-5 * (1 + (h < 0 ? -h : h))) }' ||
        fail "$kind: the restored held command is $saved, the first site held $held"
    if [ "$2" = 1 ]; then
        local ticks
        ticks=$(awk -v T="$T" -v r=$rate 'BEGIN { printf "%d", T * r + 0.5 }')
        local at_end
        at_end=$(sed -n "$((ticks + 1))p" "$dir/$stem.csv" | cut -d, -f6)
        awk -v a="$at_end" -v h="$held" 'BEGIN { exit !(a == h) }' ||
            fail "$kind: the move ends at $at_end (tick $ticks), the held command is $held"
        echo "site_resume_moved.sh $kind: held $saved mm, rig restarted at $rig mm; first command $first," \
            "back at the held command after $ticks ticks ($at_end); resumed to the end; every command of $nticks ticks within the limits"
    else
        echo "site_resume_moved.sh $kind: held $saved mm, rig restarted at $rig mm: held without a move;" \
            "resumed to the end; every command of $nticks ticks within the limits"
    fi
}

if [ -d /dev/shm ]; then
    resume_moved shm 1
else
    echo "site_resume_moved.sh: SKIP shm: no /dev/shm on this machine"
fi
resume_moved udp 1
resume_moved udp 0
exit 0
