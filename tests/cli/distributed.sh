#!/usr/bin/env bash
# A distributed hybrid test on loopback (docs/distributed.md): two `hysim site --config` processes
# (site files written here, ports chosen by the sites and read from their first line), a two-site
# hybrid test through them with `hysim run`, compared with the in-process virtual-time run of the
# same test (perfect laboratories: the same numbers); then one site killed with SIGKILL mid-test:
# `hysim run` exits 3 within its site timeout, summary.json says "aborted", and every step it
# recorded is kept. Usage: distributed.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    for f in "$dir"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done
    exit 1
}

if ! "$hysim" site 2>&1 | grep -q -- '--config'; then
    echo "distributed.sh: SKIP: this hysim has no 'site' command"
    exit 0
fi

umask 077
for s in east west; do
    od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/$s.key"
done

# Two labs: a story spring each (kN/mm), perfect actuators and sensors.
site_file() { # NAME K
    cat > "$dir/$1.yaml" <<YAML
hysim: 1
site:
  name: $1
  listen: "127.0.0.1:0"
  key: $1.key
  perfect: true
  actuators: {a1: {}}
  specimen: {type: linear, K: [[$2]]}
YAML
}
site_file east 1.0
site_file west 0.5

start_site() { # NAME -> sets port_NAME
    "$hysim" site --config "$dir/$1.yaml" > "$dir/$1.out" 2> "$dir/$1.log" &
    pids+=($!)
    eval "pid_$1=$!"
    local port=""
    for _ in $(seq 1 100); do
        port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$dir/$1.out" | head -1)
        [ -n "$port" ] && break
        sleep 0.05
    done
    [ -n "$port" ] || fail "site $1 did not start: $(cat "$dir/$1.log")"
    eval "port_$1=$port"
}
start_site east
start_site west

# The test: a two-story frame, each story a specimen at its own site. SITES is replaced by the
# virtual (in-process) or the remote description of the same two labs.
test_file() { # FILE STEPS SITES
    cat > "$1" <<YAML
hysim: 1
name: distributed
units: {force: kN, length: mm, time: s}
structure:
  dofs: 2
  mass: [0.000929839173384007, 0.0029154084025754903]
  damping: {rayleigh: {modes: [1, 2], ratios: [0.05, 0.013]}}
experimental:
  - {name: story1, site: east, story: 1, actuators: [a1], initial_stiffness: [[1.0]]}
  - {name: story2, site: west, story: 2, actuators: [a1], initial_stiffness: [[0.5]]}
sites:
$3
ground_motion:
  synthetic: {seed: 7, pga: 1500.0, duration: 40, dt: 0.005}
analysis:
  integrator: {type: central_difference}
  dt: 0.005
  steps: $2
  time_scale: 1
  site_timeout: 3
YAML
}
virtual_sites="  east: {kind: virtual, perfect: true, actuators: {a1: {}}, specimen: {type: linear, K: [[1.0]]}}
  west: {kind: virtual, perfect: true, actuators: {a1: {}}, specimen: {type: linear, K: [[0.5]]}}"
remote_sites="  east: {kind: remote, url: \"hysim://127.0.0.1:$port_east\", key: east.key, actuators: {a1: {}}}
  west: {kind: remote, url: \"hysim://127.0.0.1:$port_west\", key: west.key, actuators: {a1: {}}}"

steps=400
test_file "$dir/local.yaml" $steps "$virtual_sites"
test_file "$dir/remote.yaml" $steps "$remote_sites"
"$hysim" run "$dir/local.yaml" -o "$dir/local" --quiet > "$dir/local.log" 2>&1 ||
    fail "in-process run exited $?"
"$hysim" run "$dir/remote.yaml" -o "$dir/remote" --quiet > "$dir/remote.log" 2>&1 ||
    fail "distributed run exited $?"
grep -q '"status": "completed"' "$dir/remote/summary.json" || fail "distributed run not completed"
rows=$(($(wc -l < "$dir/remote/response.csv") - 1))
[ "$rows" -eq $((steps + 1)) ] || fail "response.csv has $rows rows, expected $((steps + 1))"
# Perfect laboratories reach every target exactly and answer f = k x: the same numbers.
diff=$(paste -d, "$dir/local/response.csv" "$dir/remote/response.csv" | awk -F, '
    NR == 1 { n = NF / 2; next }
    { for (i = 2; i <= n; i++) { d = $i - $(i + n); if (d < 0) d = -d; if (d > m) m = d }
      for (i = 2; i <= n; i++) { a = $i; if (a < 0) a = -a; if (a > p) p = a } }
    END { printf "%.3g %.3g", m + 0, p + 0 }')
read -r maxdiff peak <<< "$diff"
echo "distributed.sh: $steps steps through two sites: largest |d_remote - d_local| = $maxdiff mm (peak $peak mm)"
awk -v p="$peak" 'BEGIN { exit !(p > 1) }' || fail "the record hardly moves the frame (peak $peak mm)"
cmp -s "$dir/local/response.csv" "$dir/remote/response.csv" ||
    fail "response.csv differs from the in-process run (largest difference $maxdiff mm)"

# The coordinator dies after step 150 (the test hook of `hysim run`, as kill -9 would) and resumes
# from its checkpoint: both sites are reached again, RESUME, and the test completes.
HS_TEST_KILL_AT_STEP=150 "$hysim" run "$dir/remote.yaml" -o "$dir/resumed" --quiet \
    > "$dir/resumed.log" 2>&1
rc=$?
[ "$rc" -eq 137 ] || fail "the interrupted run exited $rc, expected 137"
"$hysim" run --resume "$dir/resumed" --quiet >> "$dir/resumed.log" 2>&1 ||
    fail "the resumed run exited $?: $(cat "$dir/resumed.log")"
grep -q '"status": "completed"' "$dir/resumed/summary.json" || fail "resumed run not completed"
rows=$(($(wc -l < "$dir/resumed/response.csv") - 1))
[ "$rows" -eq $((steps + 1)) ] || fail "resumed response.csv has $rows rows"
cmp -s <(head -152 "$dir/local/response.csv") <(head -152 "$dir/resumed/response.csv") ||
    fail "the 150 steps before the interruption differ from the in-process run"
echo "distributed.sh: coordinator killed after step 150, resumed through both sites, completed"

# SIGKILL one site mid-test: the coordinator stops within its timeout, exit 3, steps kept.
long=4000 # 20 s of test at time scale 1
test_file "$dir/long.yaml" $long "$remote_sites"
"$hysim" run "$dir/long.yaml" -o "$dir/killed" --quiet > "$dir/killed.log" 2>&1 &
run_pid=$!
sleep 1.5
kill -9 "$pid_east"
killed=$(date +%s.%N)
wait "$pid_east" 2>/dev/null
wait "$run_pid"
rc=$?
end=$(date +%s.%N)
[ "$rc" -eq 3 ] || fail "hysim run exited $rc after the site was killed, expected 3"
took=$(awk -v a="$killed" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
awk -v t="$took" 'BEGIN { exit !(t < 3) }' || fail "hysim run took $took s to stop (timeout 3 s)"
grep -q '"status": "aborted"' "$dir/killed/summary.json" || fail "summary status not aborted"
grep -q 'site east' "$dir/killed.log" || fail "the reason does not name the site: $(cat "$dir/killed.log")"
done_steps=$(sed -n 's/.*aborted after \([0-9]*\) of.*/\1/p' "$dir/killed.log")
rows=$(($(wc -l < "$dir/killed/response.csv") - 1))
[ -n "$done_steps" ] && [ "$rows" -eq $((done_steps + 1)) ] ||
    fail "kept $rows rows for ${done_steps:-?} steps"
[ "$done_steps" -gt 0 ] && [ "$done_steps" -lt $long ] || fail "stopped after $done_steps steps"
echo "distributed.sh: east killed after $done_steps steps; hysim run exited 3 in $took s: $(grep -o 'site east[^"]*' "$dir/killed.log" | head -1)"
echo "distributed.sh: ok"
