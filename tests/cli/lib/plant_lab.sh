# `hysim plant` as a site's laboratory over udp or shm, for the back-end tests
# (site_transitions.sh, site_first_command.sh, site_resume_moved.sh); sourced, not run. Needs
# $dir, $hysim, $rate, $packets (the udp packets, indented two spaces), $name (the shm block)
# and site_port (lib/two_story_lab.sh).

# plant_lab_frame: the tests' frame (lib/lab_procs.sh): pids (each stopped at exit), the shm
# block $name and $dir removed at exit, fail MESSAGE (the logs' tails, exit 1)
plant_lab_frame() {
    . "$(dirname "${BASH_SOURCE[0]}")/lab_procs.sh"
    cleanup_more() { rm -f "/dev/shm$name"; }
}

# free_port udp|tcp -> a port free on 127.0.0.1 now (python3)
free_port() {
    python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM if sys.argv[1] == "udp" else socket.SOCK_STREAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])' "$1"
}

# start_plant KIND(udp|shm) [START [PEER [PORT]]]: a perfect plant (a linear spring of stiffness
# $plant_K, 1 by default) at $rate with its actuators at START (`hysim plant --start`; 0 by default) and, over udp,
# serving PEER ("HOST:PORT", to which it also sends its periodic reply) or the first sender,
# listening on PORT (0, the default: any free one); sets pid_plant (and port_plant for udp) and
# appends to pids.
start_plant() {
    local lab="  listen: \"127.0.0.1:${4:-0}\"
${3:+  peer: \"$3\"
}$packets"
    [ "$1" = shm ] && lab="  lab: {kind: shm, name: $name}"
    cat > "$dir/plant_$1.yaml" <<YAML
hysim: 1
plant:
  rate: $rate
  perfect: true
  actuators: {a1: {}}
  specimen: {type: linear, K: [[${plant_K:-1.0}]]}
$lab
YAML
    "$hysim" plant --config "$dir/plant_$1.yaml" --start "${2:-0}" > "$dir/plant_$1.out" \
        2> "$dir/plant_$1.err" &
    pid_plant=$!
    pids+=($pid_plant)
    if [ "$1" = udp ]; then
        port_plant=$(site_port "plant_$1")
        [ -n "$port_plant" ] || fail "the udp plant did not start: $(cat "$dir/plant_$1.err")"
    else
        for _ in $(seq 1 100); do
            grep -q "plant serving shm $name" "$dir/plant_$1.out" && return
            sleep 0.05
        done
        fail "the shm plant did not start: $(cat "$dir/plant_$1.err")"
    fi
}

# stop_plant: stops the plant start_plant started
stop_plant() {
    kill "$pid_plant"
    wait "$pid_plant" 2>/dev/null
}

# site_lab KIND(udp|shm): a site's `lab:` keys (indented two spaces) for that plant: shm $name,
# or udp to $port_plant from the site's fixed local address 127.0.0.1:$local_port; 2 ms reply
# timeout and 2000 silent ticks before the watchdog (a loaded machine starves a plant at times)
site_lab() {
    if [ "$1" = shm ]; then
        echo "  lab: {kind: shm, name: $name, reply_timeout: 0.002, max_missing: 2000}"
        return
    fi
    echo "  lab:
    kind: udp
    remote: \"127.0.0.1:$port_plant\"
    local: \"127.0.0.1:$local_port\"
    reply_timeout: 0.002
    max_missing: 2000
$(echo "$packets" | sed 's/^/  /')"
}
