#!/usr/bin/env bash
# A laboratory over POSIX shared memory (docs/lab_backends.md, include/hysim/shm_lab.h): `hysim
# plant` serves the shm block (perfect actuators, a linear spring), `hysim site` drives it through
# the shm back end, `hysim run` runs a two-story test through that site; the same test in process
# (virtual lab) gives the same response.csv bit for bit when no reply went missing (doubles cross
# the block unchanged and the plant steps the same models on the same commands), else within the
# bound plant.sh states. The plant removes its block when it stops. Killed mid-test, the site's
# watchdog holds after max_missing silent ticks, `hysim run` exits 3 and keeps every recorded
# step. Bad shm sections are FILE:LINE:COL errors.
# Usage: plant_shm.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
name="/hysim-test-plant-$$"
. "$(dirname "$0")/lib/lab_procs.sh"
cleanup_more() { rm -f "/dev/shm$name"; }
if [ ! -d /dev/shm ]; then
    echo "plant_shm.sh: SKIP: no /dev/shm on this machine"
    exit 0
fi
umask 077
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/east.key"

bad() { # WHAT KIND(site|plant) TEXT EXPECTED
    printf '%s' "$3" > "$dir/bad.yaml"
    "$hysim" "$2" --config "$dir/bad.yaml" > /dev/null 2> "$dir/bad.err"
    [ $? -eq 2 ] || fail "$1: a bad shm section does not exit with 2: $(cat "$dir/bad.err")"
    grep -q -- "$4" "$dir/bad.err" || fail "$1: message $(cat "$dir/bad.err"), expected $4"
}
site_head='site:\n  name: east\n  plain: true\n  actuators: {a1: {}}\n  specimen: {type: linear, K: [[1]]}\n  lab:\n'
bad "no name" site "$(printf "$site_head")
    kind: shm
" "bad.yaml:7:5: missing required key 'name' in site.lab"
bad "bad name" site "$(printf "$site_head")
    kind: shm
    name: east
" "bad.yaml:8:11: site.lab.name: expected a POSIX shared-memory name"
bad "udp key" site "$(printf "$site_head")
    kind: shm
    name: /east
    remote: \"127.0.0.1:9\"
" "bad.yaml:9:5: unknown key 'remote' in site.lab"
bad "plant listen" plant 'plant:
  rate: 1000
  actuators: {a1: {}}
  specimen: {type: linear, K: [[1]]}
  lab: {kind: shm, name: /east}
  listen: "127.0.0.1:0"
' "bad.yaml:6:11: plant.listen: a plant on shm has no listen"
bad "plant kind" plant 'plant:
  rate: 1000
  actuators: {a1: {}}
  specimen: {type: linear, K: [[1]]}
  lab: {kind: udp, name: /east}
' "bad.yaml:5:8: plant.lab: only {kind: shm, name: /NAME}"
echo "plant_shm.sh: bad shm sections give FILE:LINE:COL errors"

start_plant() { # STEM [EXTRA_KEYS] -> pid_STEM
    cat > "$dir/$1.yaml" <<YAML
hysim: 1
plant:
  lab: {kind: shm, name: $name}
  rate: 1000
  perfect: true
  actuators: {a1: {}}
  specimen: {type: linear, K: [[1.0]]}
${2:-}
YAML
    "$hysim" plant --config "$dir/$1.yaml" > "$dir/$1.out" 2> "$dir/$1.err" &
    pids+=($!)
    eval "pid_$1=$!"
    for _ in $(seq 1 100); do
        grep -q "plant serving shm $name" "$dir/$1.out" && return
        sleep 0.05
    done
    fail "plant $1 did not start: $(cat "$dir/$1.err")"
}

start_site() { # STEM MAX_MISSING -> port_STEM, pid_STEM
    east_site_file "$dir/$1.yaml" "  lab: {kind: shm, name: $name, reply_timeout: 0.002, max_missing: $2}"
    start_site_file "$1"
}


steps=400
start_plant plant
[ -e "/dev/shm$name" ] || fail "the plant did not create /dev/shm$name"
# 2000 silent ticks (2 s) before the watchdog: this run compares responses, and a loaded machine
# can starve the plant for more than 0.1 s (seen under a load average of 20); the killed plant
# below keeps the watchdog at 100
start_site site 2000
remote="{kind: remote, url: \"hysim://127.0.0.1:$port_site\", key: east.key, actuators: {a1: {}}}"
two_story_test "$dir/local.yaml" shm_lab $steps "{kind: virtual, perfect: true, actuators: {a1: {}}, specimen: {type: linear, K: [[1.0]]}}"
two_story_test "$dir/shm.yaml" shm_lab $steps "$remote"
"$hysim" run "$dir/local.yaml" -o "$dir/local" --quiet > "$dir/local.log" 2>&1 || fail "in-process run exited $?"
"$hysim" run "$dir/shm.yaml" -o "$dir/shm" --quiet > "$dir/run_shm.log" 2>&1 || fail "shm run exited $?"
grep -q '"status": "completed"' "$dir/shm/summary.json" || fail "shm run not completed"
kill "$pid_site"
wait "$pid_site" 2>/dev/null
lab_matches_local plant_shm.sh shm shm $steps
kill "$pid_plant"
wait "$pid_plant" 2>/dev/null
[ -e "/dev/shm$name" ] && fail "the plant stopped but left /dev/shm$name"
echo "plant_shm.sh: the plant removed its block when it stopped"

# The plant killed mid-test: the site holds after 100 silent ticks, the run exits 3, every step
# recorded before is kept.
start_plant plant3
start_site site3 100
long=4000
two_story_test "$dir/long.yaml" shm_lab $long "{kind: remote, url: \"hysim://127.0.0.1:$port_site3\", key: east.key, actuators: {a1: {}}}"
"$hysim" run "$dir/long.yaml" -o "$dir/killed" --quiet > "$dir/killed.log" 2>&1 &
run_pid=$!
pids+=($run_pid)
wait_steps killed 20 || fail "the run recorded no 20 steps in 30 s"
kill -9 "$pid_plant3"
wait "$run_pid"
rc=$?
[ "$rc" -eq 3 ] || fail "the run exited $rc after the plant was killed, expected 3"
kill "$pid_site3" 2>/dev/null
grep -q '"status": "aborted"' "$dir/killed/summary.json" || fail "summary does not say aborted"
grep -q "watchdog: 100 ticks in a row without a fresh sample in the shm segment (limit 100); likely the real-time process stopped" "$dir/killed.log" ||
    fail "no watchdog alarm in the run's output: $(tail -3 "$dir/killed.log")"
done_steps=$(sed -n 's/.*aborted after \([0-9]*\) of.*/\1/p' "$dir/killed.log")
rows=$(($(wc -l < "$dir/killed/response.csv") - 1))
[ -n "$done_steps" ] && [ "$done_steps" -gt 10 ] && [ "$rows" -eq $((done_steps + 1)) ] ||
    fail "response.csv has $rows rows for ${done_steps:-?} steps done"
echo "plant_shm.sh: plant killed after 20 steps: exit 3, all $done_steps steps kept"
exit 0
