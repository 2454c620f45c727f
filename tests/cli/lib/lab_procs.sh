# The background processes of the laboratory tests (sites, plants, proxies): distributed.sh,
# distributed_resume.sh, lab_data.sh, lab_driver.sh, nees.sh, plant.sh, plant_loss.sh,
# plant_shm.sh, run_refusals.sh, run_signals.sh, site_abort.sh, trace.sh, and through
# lib/plant_lab.sh pretest_rig.sh, site_first_command.sh, site_resume_moved.sh,
# site_transitions.sh. Sourced after `dir=$(mktemp -d)`, not run (CTest runs tests/cli/*.sh
# only). A test adds the pid of each process it starts to `pids`, names its network namespace in
# `ns` when it makes one, and may define `cleanup_more` for anything else it leaves (a
# shared-memory block). On exit, however the test ends, every process is stopped, `cleanup_more`
# runs, the namespace is deleted (its interfaces and iptables rules with it) and $dir is removed.
# fail MESSAGE prints the message and the tail of every *.log and *.err in $dir, and exits 1.
pids=()
ns=""
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    declare -F cleanup_more >/dev/null && cleanup_more
    [ -n "$ns" ] && ip netns del "$ns" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    for f in "$dir"/*.log "$dir"/*.err; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done
    exit 1
}
