# `hysim plant` as a site's laboratory over udp or shm, for the back-end tests
# (site_transitions.sh, site_first_command.sh, site_resume_moved.sh); sourced, not run. Needs
# $dir, $hysim, $rate, $packets (the udp packets, indented two spaces), $name (the shm block),
# fail() and site_port (lib/two_story_lab.sh).

# start_plant KIND(udp|shm) [START [PEER [PORT]]]: a perfect plant (a linear spring of stiffness
# 1) at $rate with its actuators at START (`hysim plant --start`; 0 by default) and, over udp,
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
  specimen: {type: linear, K: [[1.0]]}
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
