#!/usr/bin/env bash
# The operator's abort at the site (docs/site_controller.md, "Controlled unloading"): SIGTERM to
# `hysim site` 2 s into a test. The site holds, then unloads its specimen under control (ramp to
# the zero-force position at command.unload_velocity), the coordinator receives the abort and ends
# its run with exit 3, `aborted`, every recorded step kept, and the site's tick log shows that no
# command crossed any limit (stroke, step per tick, velocity, acceleration) and that the specimen's
# force ends below command.unload_force. Twice: the site's own virtual lab, and a udp lab played
# by `hysim plant` (the same unloading over the wire). Then the plant raises its interlock bit
# mid-test: the same hold and unloading, the run ends with exit 3 naming the interlock. And the
# abort button of the site's monitor page (`hysim site --monitor`): the same, the site exits 3.
# Usage: site_abort.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/lab_procs.sh"
stop_pid() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
umask 077
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/east.key"

rate=1000 stroke=50 vel=400 acc=200000 step=0.5 uvel=5 utol=0.005
packets='  endian: little
  command_packet: [{counter: uint32}, {command: float64, channel: a1}]
  reply_packet: [{counter: uint32}, {echo: uint32}, {tick: uint32}, {status: uint32},
                 {displacement: float64, channel: a1}, {force: float64, channel: a1}]'

start_plant() { # [EXTRA_KEYS] -> port_plant, pid_plant
    cat > "$dir/plant.yaml" <<YAML
hysim: 1
plant:
  listen: "127.0.0.1:0"
  rate: $rate
  perfect: true
  actuators: {a1: {}}
  specimen: {type: linear, K: [[1.0]]}
$packets
${1:-}
YAML
    "$hysim" plant --config "$dir/plant.yaml" > "$dir/plant.out" 2> "$dir/plant.err" &
    pid_plant=$!
    pids+=($pid_plant)
    port_plant=$(site_port plant)
    [ -n "$port_plant" ] || fail "the plant did not start: $(cat "$dir/plant.err")"
}

# run_abort STEM LAB_KEYS [interlock]: a site, a long test through it, SIGTERM to the site 2 s
# into the test (or, with `interlock`, the plant's interlock bit ends it; SIGTERM afterwards)
run_abort() {
    local mode=${3:-abort} flag=4096 expect="site east: operator abort: the operator stopped the test at the site"
    [ "$mode" = monitor ] && flag=4096
    [ "$mode" = interlock ] && flag=2048 expect="site east: laboratory alarm: the udp controller raised its interlock bit (status 0x1, limit 0)"
    cat > "$dir/$1.yaml" <<YAML
hysim: 1
site:
  name: east
  listen: "127.0.0.1:0"
  key: east.key
  rate: $rate
  actuators: {a1: {delay_samples: 3, stroke: $stroke, velocity_limit: $vel,
                   acceleration_limit: $acc, step_limit: $step}}
  specimen: {type: linear, K: [[1.0]]}
  command: {unload_after: 0.2, unload_velocity: $uvel, unload_force: $utol}
$2
YAML
    local monitor=()
    [ "$mode" = monitor ] && monitor=(--monitor 0)
    "$hysim" site --config "$dir/$1.yaml" --log "$dir/$1.csv" --log-max 1000 "${monitor[@]}" \
        > "$dir/$1.out" 2> "$dir/$1.err" &
    local site_pid=$!
    pids+=($site_pid)
    local port
    port=$(site_port "$1")
    [ -n "$port" ] || fail "site $1 did not start: $(cat "$dir/$1.err")"
    two_story_test "$dir/$1_test.yaml" abort_$1 8000 \
        "{kind: remote, url: \"hysim://127.0.0.1:$port\", key: east.key, actuators: {a1: {}}}"
    "$hysim" run "$dir/$1_test.yaml" -o "$dir/$1_run" --quiet > "$dir/$1_run.log" 2>&1 &
    local run_pid=$!
    pids+=($run_pid)
    # abort once the test has recorded 40 steps (a loaded machine can take long to set up and to
    # step: a fixed time once let fewer than 10 steps run)
    if [ "$mode" != interlock ]; then
        wait_steps "$1_run" 40 || fail "$1: the run recorded no 40 steps in 30 s: $(tail -3 "$dir/$1_run.log")"
    fi
    if [ "$mode" = abort ]; then
        kill -TERM "$site_pid"
    elif [ "$mode" = monitor ]; then # the abort button of the site's monitor page
        local mon token
        mon=$(sed -n 's|.*hysim monitor: http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$dir/$1.err")
        token=$(sed -n 's/.*hysim monitor: .* token \([0-9a-f]*\) .*/\1/p' "$dir/$1.err")
        [ -n "$mon" ] && [ ${#token} -eq 32 ] || fail "$1: the site printed no monitor address and token"
        exec 5<> "/dev/tcp/127.0.0.1/$mon" || fail "$1: cannot reach the site's monitor"
        printf 'POST /abort HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\nX-Hysim-Token: %s\r\n\r\n' "$token" >&5
        timeout 2 cat <&5 > "$dir/$1.http"
        exec 5<&-
        grep -q '^HTTP/1.[01] 200' "$dir/$1.http" || fail "$1: the monitor refused the abort: $(head -1 "$dir/$1.http")"
    fi
    wait "$run_pid"
    local rc=$?
    [ "$rc" -eq 3 ] || fail "$1: the run exited $rc after the $mode, expected 3"
    [ "$mode" = interlock ] && kill -TERM "$site_pid"
    wait "$site_pid"
    rc=$?
    local site_rc=0
    [ "$mode" = monitor ] && site_rc=3 # the monitor's abort: hysim site exits 3
    [ "$rc" -eq $site_rc ] || fail "$1: the site exited $rc after the $mode, expected $site_rc"
    grep -q '"status": "aborted"' "$dir/$1_run/summary.json" || fail "$1: summary does not say aborted"
    grep -q "$expect" "$dir/$1_run.log" ||
        fail "$1: the run does not name the $mode: $(tail -3 "$dir/$1_run.log")"
    grep -q "at rest after the abort (unloaded)" "$dir/$1.err" ||
        fail "$1: the site did not report the unloading: $(tail -3 "$dir/$1.err")"
    local done_steps rows
    done_steps=$(sed -n 's/.*aborted after \([0-9]*\) of.*/\1/p' "$dir/$1_run.log")
    rows=$(($(wc -l < "$dir/$1_run/response.csv") - 1))
    [ -n "$done_steps" ] && [ "$done_steps" -gt 10 ] && [ "$rows" -eq $((done_steps + 1)) ] ||
        fail "$1: response.csv has $rows rows for ${done_steps:-?} steps done"
    # the tick log: every command within every limit; the trip (4096) and the force at the end
    local verdict
    verdict=$(awk -F, -v r=$rate -v S=$stroke -v V=$vel -v A=$acc -v D=$step -v tol=$utol -v flag=$flag '
        NR == 1 { next }
        { c = $6; f = $8; n++
          if (c < 0 ? -c > S : c > S) bad = bad " stroke@" $1
          if (n > 1) { d = c - c1; if (d < 0) d = -d
                       if (d > D) bad = bad " step@" $1
                       if (d * r > V) bad = bad " velocity@" $1 }
          if (n > 2) { a = (c - 2 * c1 + c2) * r * r; if (a < 0) a = -a
                       if (a > A * (1 + 1e-9)) bad = bad " acceleration@" $1 }
          if ($5 == flag && !trip) { trip = $1; ftrip = f }
          if (trip && (f < 0 ? -f : f) > fmax) fmax = (f < 0 ? -f : f)
          c2 = c1; c1 = c; flast = f }
        END { if (flast < 0) flast = -flast
              printf "%s|%s|%.4g|%.4g|%d", (bad == "" ? "ok" : substr(bad, 1, 200)), trip, ftrip, flast, n }' \
        "$dir/$1.csv")
    IFS='|' read -r ok trip ftrip flast nticks <<< "$verdict"
    [ "$ok" = ok ] || fail "$1: a command crossed a limit:$ok"
    [ -n "$trip" ] || fail "$1: the tick log shows no $mode (trip $flag)"
    awk -v f="$flast" -v t=$utol 'BEGIN { exit !(f <= t) }' ||
        fail "$1: the force after the unloading is $flast, above $utol"
    echo "site_abort.sh $1: $mode at tick $trip with f = $ftrip kN, $done_steps steps kept, unloaded to |f| = $flast kN in $((nticks - trip)) ticks; every command of $nticks within the limits"
}

run_abort virtual ""
run_abort monitor "" monitor
start_plant
run_abort udp "  lab:
    kind: udp
    remote: \"127.0.0.1:$port_plant\"
    local: \"127.0.0.1:0\"
    rests_at_zero: true
    reply_timeout: 0.002
    max_missing: 100
$(echo "$packets" | sed 's/^/  /')"
# the plant raises its interlock bit 8 s after the site began exchanging with it (mid-test)
stop_pid "$pid_plant"
start_plant "  interlock_after: 8000"
run_abort interlock "  lab:
    kind: udp
    remote: \"127.0.0.1:$port_plant\"
    local: \"127.0.0.1:0\"
    rests_at_zero: true
    reply_timeout: 0.002
    max_missing: 100
$(echo "$packets" | sed 's/^/  /')" interlock
exit 0
