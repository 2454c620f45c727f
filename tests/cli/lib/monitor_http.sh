# Shared by the monitor tests (monitor_site.sh, monitor_hold.sh, monitor_browser.sh); sourced, not
# run (CTest runs tests/cli/*.sh only). HTTP to a monitor with bash's /dev/tcp (no curl needed).

# monitor_work_dir: $dir, a fresh folder removed on exit (also on failure), with every process in
# the array pids stopped; fail MESSAGE prints "FAIL: MESSAGE" and the tail of every *.log and
# *.out in $dir, and exits 1
monitor_work_dir() {
    dir=$(mktemp -d)
    pids=()
    trap monitor_cleanup EXIT
}
monitor_cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$dir"
}
fail() {
    echo "FAIL: $*"
    for f in "$dir"/*.log "$dir"/*.out; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done
    exit 1
}

# monitor_lab_site ACTUATOR [COMMAND]: a fresh key $dir/lab.key and the site file $dir/lab.yaml
# of the monitor tests: site lab on 127.0.0.1 (any port), a perfect laboratory, one actuator
# ACTUATOR (stroke 50), a linear specimen of stiffness 1, and COMMAND (a flow mapping) as its
# `command:` when given
monitor_lab_site() {
    (umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/lab.key")
    {
        cat <<YAML
hysim: 1
site:
  name: lab
  listen: "127.0.0.1:0"
  key: lab.key
  perfect: true
  actuators: {$1: {stroke: 50}}
  specimen: {type: linear, K: [[1.0]]}
YAML
        if [ -n "${2:-}" ]; then echo "  command: $2"; fi
    } > "$dir/lab.yaml"
}

# monitor_address LOG: waits (at most 5 s) for the line "hysim monitor: http://127.0.0.1:PORT/
# token TOKEN" in LOG; sets mon and token; 1 when it did not come.
monitor_address() {
    mon="" token=""
    for _ in $(seq 1 100); do
        mon=$(sed -n 's|.*hysim monitor: http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$1")
        token=$(sed -n 's/.*hysim monitor: .* token \([0-9a-f]*\) .*/\1/p' "$1")
        [ -n "$mon" ] && [ ${#token} -eq 32 ] && return 0
        sleep 0.05
    done
    return 1
}

# monitor_request PORT SECONDS REQUEST: sends REQUEST (printf %b escapes) and prints what comes
# back within SECONDS.
monitor_request() {
    exec 5<> "/dev/tcp/127.0.0.1/$1" || fail "cannot reach the monitor on port $1"
    printf '%b' "$3" >&5
    timeout "$2" cat <&5
    exec 5<&-
}

# http_status: the status code of the answer on stdin.
http_status() { head -1 | sed -n 's/^HTTP\/1\.[01] \([0-9]*\).*/\1/p'; }

# monitor_control PORT WHAT [TOKEN]: POST /WHAT (pause, resume, abort), with the token's header
# when one is given; prints the answer.
monitor_control() {
    local hdr=""
    [ -n "${3:-}" ] && hdr="X-Hysim-Token: $3\r\n"
    monitor_request "$1" 2 "POST /$2 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n$hdr\r\n"
}

# monitored_test FILE NAME PORT STEPS: a one-story test (central difference, 5 ms steps at time
# scale 1, a seeded synthetic record) whose story is actuator a1 of the keyed site `lab` (key
# lab.key beside FILE) at 127.0.0.1:PORT.
monitored_test() {
    cat > "$1" <<YAML
hysim: 1
name: $2
units: {force: kN, length: mm, time: s}
structure:
  dofs: 1
  mass: [0.000929839173384007]
  damping: {stiffness_proportional: {mode: 1, ratio: 0.05}}
experimental:
  - {name: story1, site: lab, story: 1, actuators: [a1], initial_stiffness: [[1.0]]}
sites:
  lab: {kind: remote, url: "hysim://127.0.0.1:$3", key: lab.key, actuators: {a1: {}}}
ground_motion:
  synthetic: {seed: 7, pga: 1500.0, duration: 40, dt: 0.005}
analysis:
  integrator: {type: central_difference}
  dt: 0.005
  steps: $4
  time_scale: 1
  site_timeout: 3
YAML
}
