# Shared by the distributed and laboratory back-end tests (distributed.sh, distributed_resume.sh,
# nees.sh, plant.sh, plant_loss.sh, plant_shm.sh, lab_driver.sh, run_refusals.sh, trace.sh, and
# monitor_hold.sh for site_port); sourced, not run (CTest runs tests/cli/*.sh only). Needs $dir.

# two_story_file FILE NAME STEPS TIMEOUT SITE1 SITE2 ACT2 SITES: the two-story frame of the
# distributed and back-end tests (central difference, 5 ms steps, a seeded synthetic record),
# story 1 at site SITE1 (actuator a1), story 2 at site SITE2 (actuator ACT2); SITES is the
# `sites:` block, indented two spaces.
two_story_file() {
    cat > "$1" <<YAML
hysim: 1
name: $2
units: {force: kN, length: mm, time: s}
structure:
  dofs: 2
  mass: [0.000929839173384007, 0.0029154084025754903]
  damping: {rayleigh: {modes: [1, 2], ratios: [0.05, 0.013]}}
experimental:
  - {name: story1, site: $5, story: 1, actuators: [a1], initial_stiffness: [[1.0]]}
  - {name: story2, site: $6, story: 2, actuators: [$7], initial_stiffness: [[0.5]]}
sites:
$8
ground_motion:
  synthetic: {seed: 7, pga: 1500.0, duration: 40, dt: 0.005}
analysis:
  integrator: {type: central_difference}
  dt: 0.005
  steps: $3
  time_scale: 1
  site_timeout: $4
YAML
}

# two_story_test FILE NAME STEPS EAST_SITE: story 1 at site east (given), story 2 at a perfect
# in-process site west.
two_story_test() {
    two_story_file "$1" "$2" "$3" 3 east west a1 "  east: $4
  west: {kind: virtual, perfect: true, actuators: {a1: {}}, specimen: {type: linear, K: [[0.5]]}}"
}

# max_diff RUN_A RUN_B -> "MAXDIFF PEAK": the largest difference of the two runs' response.csv
# (folders under $dir) and the first run's peak.
. "$(dirname "${BASH_SOURCE[0]}")/response_diff.sh"
max_diff() {
    response_diff "$dir/$1/response.csv" "$dir/$2/response.csv"
}

# printed_port FILE SED_SCRIPT -> the port a process prints in FILE, taken out by `sed -n
# SED_SCRIPT` (waits up to 5 s; empty if none)
printed_port() {
    local port=""
    for _ in $(seq 1 100); do
        port=$(sed -n "$2" "$1" | head -1)
        [ -n "$port" ] && break
        sleep 0.05
    done
    echo "$port"
}

# site_port STEM -> the port `hysim site` printed in $dir/STEM.out (waits up to 5 s; empty if none)
site_port() {
    printed_port "$dir/$1.out" 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p'
}

# lab_matches_local SCRIPT KIND RUN STEPS: after a run RUN through a site whose last "lab KIND:"
# line in $dir/site.log gives its counts, compares $dir/RUN/response.csv with $dir/local's: bit
# for bit when no reply went missing, else within 5 % of the peak (a missing reply leaves the
# site with the previous tick's measurement: one tick, 1 ms, of a response of at most 0.1 mm/ms
# here). Needs fail().
lab_matches_local() {
    local counts d peak missing
    counts=$(grep "lab $2:" "$dir/site.log" | tail -1)
    [ -n "$counts" ] || fail "the site printed no $2 counts"
    echo "$1: site: ${counts#*lab $2: }"
    read -r d peak <<< "$(max_diff local "$3")"
    missing=$(echo "$counts" | sed -n 's/.*; \([0-9]*\) ticks without a reply.*/\1/p')
    awk -v p="$peak" 'BEGIN { exit !(p > 1) }' || fail "the record hardly moves the frame (peak $peak mm)"
    if [ "$missing" = 0 ]; then
        cmp -s "$dir/local/response.csv" "$dir/$3/response.csv" ||
            fail "no reply missing, yet response.csv differs from the in-process run by $d mm"
        echo "$1: $4 steps, site + plant over $2 = the in-process run bit for bit (peak $peak mm)"
    else
        # the bound holds for isolated missing replies; a starved plant (many in a row: seen 44 in
        # a clean-clone run) leaves the site on stale measurements for longer than it assumes
        local run
        run=$(echo "$counts" | sed -n 's/.*at most \([0-9]*\) in a row.*/\1/p')
        if [ "${run:-0}" -le 2 ]; then
            awk -v d="$d" -v p="$peak" 'BEGIN { exit !(d < 0.05 * p) }' ||
                fail "$missing replies missing; largest difference $d mm is not below 5 % of $peak mm"
            echo "$1: $missing replies missing under load: largest difference $d mm (peak $peak mm)"
        else
            echo "$1: SKIP the 5 % bound: $missing replies missing, up to $run in a row (the machine starved the plant); largest difference $d mm (peak $peak mm)"
        fi
    fi
}

# wait_steps RUN N: waits (up to 30 s) until the run writing $dir/RUN has recorded more than N
# steps (its response.csv.part), so that a test kills a laboratory mid-test however loaded the
# machine is, instead of after a fixed time.
wait_steps() {
    local rows
    for _ in $(seq 1 600); do
        rows=$(cat "$dir/$1/response.csv.part" "$dir/$1/response.csv" 2>/dev/null | wc -l)
        [ "$rows" -gt $(($2 + 1)) ] && return 0
        sleep 0.05
    done
    return 1
}

# start_east_site K [ARGS...]: a fresh key $dir/east.key and `hysim site` for a site east (1000 Hz,
# actuator a1 with stroke 50 and velocity limit 400, a linear specimen of stiffness K) from
# $dir/site.yaml with ARGS, output in $dir/site.out and site.err; sets site_pid and port and
# appends to pids (used by run_refusals.sh and trace.sh). Needs $hysim and fail().
start_east_site() {
    local k=$1
    shift
    (umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/east.key")
    cat > "$dir/site.yaml" <<YAML
hysim: 1
site:
  name: east
  listen: "127.0.0.1:0"
  key: east.key
  rate: 1000
  actuators: {a1: {stroke: 50, velocity_limit: 400}}
  specimen: {type: linear, K: [[$k]]}
YAML
    "$hysim" site --config "$dir/site.yaml" "$@" > "$dir/site.out" 2> "$dir/site.err" &
    site_pid=$!
    pids+=($site_pid)
    port=$(site_port site)
    [ -n "$port" ] || fail "the site did not start: $(cat "$dir/site.err")"
}

# start_site_file STEM [PREFIX...]: `hysim site` from the site file $dir/STEM.yaml (with --once
# when $site_once is set), behind PREFIX (e.g. ip netns exec NS); output in $dir/STEM.out, its log
# appended to $dir/STEM.log; sets port_STEM and pid_STEM and appends to pids (distributed.sh,
# distributed_resume.sh, start_udp_site). Needs $hysim and fail().
start_site_file() {
    local stem=$1 port
    shift
    "$@" "$hysim" site --config "$dir/$stem.yaml" ${site_once:+--once} > "$dir/$stem.out" \
        2>> "$dir/$stem.log" &
    pids+=($!)
    eval "pid_$stem=$!"
    port=$(site_port "$stem")
    [ -n "$port" ] || fail "site $stem did not start: $(cat "$dir/$stem.log")"
    eval "port_$stem=$port"
}

# east_site_file FILE [LAB]: the site file of a site east (key east.key, 1000 Hz, perfect,
# actuator a1, a linear specimen of stiffness 1) with LAB, its `lab:` key indented two spaces
# (none: the site's virtual lab); used by lab_driver.sh, plant_shm.sh and start_udp_site.
east_site_file() {
    cat > "$1" <<YAML
hysim: 1
site:
  name: east
  listen: "127.0.0.1:0"
  key: east.key
  rate: 1000
  perfect: true
  actuators: {a1: {}}
  specimen: {type: linear, K: [[1.0]]}
${2:-}
YAML
}

# start_udp_site STEM REMOTE_PORT MAX_MISSING [PREFIX...]: `hysim site` for a site east
# (east_site_file) whose laboratory is a udp plant at 127.0.0.1:REMOTE_PORT with the packets
# $packets (indented two spaces), 2 ms reply timeout, MAX_MISSING silent ticks before its
# watchdog; run behind PREFIX (e.g. ip netns exec NS) by start_site_file (sets port_STEM and
# pid_STEM). Used by plant.sh and plant_loss.sh.
start_udp_site() {
    local stem=$1 remote=$2 max_missing=$3
    shift 3
    east_site_file "$dir/$stem.yaml" "  lab:
    kind: udp
    remote: \"127.0.0.1:$remote\"
    local: \"127.0.0.1:0\"
    rests_at_zero: true # no fixed local port: the plant starts at rest at 0
    reply_timeout: 0.002
    max_missing: $max_missing
$(echo "$packets" | sed 's/^/  /')"
    start_site_file "$stem" "$@"
}
