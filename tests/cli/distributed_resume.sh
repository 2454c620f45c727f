#!/usr/bin/env bash
# A distributed run resumes after every failure `--resume` exists for (docs/distributed.md,
# docs/checkpoints.md). Two `hysim site` processes on loopback (perfect laboratories: a story
# spring each), one two-site hybrid test. The reference is the same test with the same two
# laboratories in process (virtual time): perfect labs give the same numbers bit for bit.
#  1. the coordinator dies at named points of a step (the HS_TEST_KILL_AT hook of `hysim run`):
#     after the targets went out, between the checkpoint and COMMIT, after COMMIT, and at a point
#     and step drawn at random (printed; HS_RESUME_SEED=N replays a draw); then `kill -9` after a
#     random time. Each time `hysim run --resume` completes with response.csv equal (cmp) to the
#     reference, and the sites' summaries go on (all steps, one resume, the outage reported apart
#     from the delays).
#  2. a resume that does not fit (an older copy of the run folder) is refused by the site and
#     changes nothing there: the right folder resumes afterwards.
#  3. a partition (iptables DROP in a network namespace of our own) cuts one site for longer
#     than the timeouts: `hysim run` exits 3 with every step kept, the healthy site gets no BYE
#     and keeps its test, and the resume completes, bit for bit. Skipped, saying so, where network
#     namespaces or iptables are not available.
#  4. a site killed with SIGKILL and restarted from its state file: exit 3, steps kept, resume
#     completes bit for bit.
#  5. a site with adaptive delay compensation: its TI and a_es reach the coordinator (summary.json,
#     results) exactly as the site reports them.
# Usage: distributed_resume.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/lab_procs.sh"

if ! "$hysim" site 2>&1 | grep -q -- '--config'; then
    echo "distributed_resume.sh: SKIP: this hysim has no 'site' command"
    exit 0
fi
seed=${HS_RESUME_SEED:-$RANDOM}
RANDOM=$seed
echo "distributed_resume.sh: random draws from seed $seed (HS_RESUME_SEED=$seed replays them)"

umask 077
for s in east west; do od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/$s.key"; done

# A site declares a silent coordinator lost after 1.5 s; its controller holds (no hold timeout)
# and keeps the test for a resume; its state file lets a restarted site process go on.
site_file() { # STEM NAME K [PORT [STATE]]: $dir/STEM.yaml, its state file (when STATE) STATE
    cat > "$dir/$1.yaml" <<YAML
hysim: 1
site:
  name: $2
  listen: "127.0.0.1:${4:-0}"
  key: $2.key
  heartbeat: 0.5
  timeout: 1.5${5:+
  state: $5}
  perfect: true
  actuators: {a1: {}}
  specimen: {type: linear, K: [[$3]]}
YAML
}
site_file east east 1.0
site_file west west 0.5

stop_site() { # STEM
    local p
    eval "p=\$pid_$1"
    kill "$p" 2>/dev/null
    wait "$p" 2>/dev/null
}

test_file() { # FILE SITES
    two_story_file "$1" distributed-resume "$steps" 2 east west a1 "$2"
}
remote_sites() { # PORT_EAST PORT_WEST
    echo "  east: {kind: remote, url: \"hysim://127.0.0.1:$1\", key: east.key, actuators: {a1: {}}}
  west: {kind: remote, url: \"hysim://127.0.0.1:$2\", key: west.key, actuators: {a1: {}}}"
}
steps=400
test_file "$dir/local.yaml" "  east: {kind: virtual, perfect: true, actuators: {a1: {}}, specimen: {type: linear, K: [[1.0]]}}
  west: {kind: virtual, perfect: true, actuators: {a1: {}}, specimen: {type: linear, K: [[0.5]]}}"
"$hysim" run "$dir/local.yaml" -o "$dir/local" --quiet > "$dir/local.log" 2>&1 ||
    fail "in-process run exited $?"

start_site_file east
start_site_file west
test_file "$dir/remote.yaml" "$(remote_sites "$port_east" "$port_west")"

json_site() { # SUMMARY SITE KEY: the value of KEY in the site's entry of summary.json
    sed -n "/\"name\": \"$2\"/,/]}/p" "$1" | grep -o "\"$3\": [^,}]*" | head -1 | sed 's/.*: //'
}
# check_resumed NAME: the resumed run completed, equal to the reference, the summaries go on
check_resumed() {
    local run=$dir/$1
    grep -q '"status": "completed"' "$run/summary.json" || fail "$1: resumed run not completed"
    cmp -s "$dir/local/response.csv" "$run/response.csv" ||
        fail "$1: response.csv differs from the uninterrupted run"
    for s in east west; do
        local st rs md mo
        st=$(json_site "$run/summary.json" $s steps)
        rs=$(json_site "$run/summary.json" $s resumes)
        md=$(json_site "$run/summary.json" $s max_delay_s)
        mo=$(json_site "$run/summary.json" $s max_outage_s)
        [ "$st" = "$steps" ] || fail "$1: site $s summary counts $st steps, not $steps"
        [ "$rs" -ge 1 ] || fail "$1: site $s summary counts $rs resumes"
        # the outage (the coordinator's restart, at least the 2.1 s waited here, more than any
        # step's delay can be under site_timeout 2 s) is reported apart, never as a delay
        awk -v d="$md" -v o="$mo" 'BEGIN { exit !(o >= 2.1 && d < o) }' ||
            fail "$1: site $s max_delay_s $md, max_outage_s $mo: the outage is taken as a delay"
        echo "distributed_resume.sh: $1: site $s $st steps, $rs resume(s), max delay $md s, outage $mo s"
    done
}
# checkpoint_every > 1 cannot resume a remote site (it keeps only its last step): refused at check
{ cat "$dir/remote.yaml"; echo "  checkpoint_every: 5"; } > "$dir/every5.yaml"
out=$("$hysim" check "$dir/every5.yaml" 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "checkpoint_every 5 with remote sites: hysim check exited $rc, expected 2"
case "$out" in *every5.yaml:*"checkpoint_every: 5 with remote site 'east'"*"use 1"*) ;;
*) fail "checkpoint_every 5: unexpected message: $out" ;; esac
echo "distributed_resume.sh: refused: ${out%%;*}"

# a state file that cannot be written, or is not one: refused at start (exit 2), saying what to do
bad_state() { # STATE TEXT
    printf 'hysim: 1\nsite: {name: east, listen: "127.0.0.1:0", key: east.key, state: %s,' "$1" \
        > "$dir/bad_state.yaml"
    printf ' perfect: true, actuators: {a1: {}}, specimen: {type: linear, K: [[1.0]]}}\n' \
        >> "$dir/bad_state.yaml"
    timeout 20 "$hysim" site --config "$dir/bad_state.yaml" > /dev/null 2> "$dir/bad_state.err"
    local rc=$?
    [ $rc -eq 2 ] || fail "site with state $1: exit $rc, expected 2: $(cat "$dir/bad_state.err")"
    grep -q "$2" "$dir/bad_state.err" || fail "site with state $1: $(cat "$dir/bad_state.err")"
    echo "distributed_resume.sh: refused: $(cat "$dir/bad_state.err")"
}
bad_state nodir/east.state "cannot write"
echo "not a state file" > "$dir/garbage.state"
bad_state garbage.state "remove it to start the site without a test"

# 1. the coordinator dies at named points, then at random ones
kill_case() { # NAME POINT:STEP
    HS_TEST_KILL_AT=$2 "$hysim" run "$dir/remote.yaml" -o "$dir/$1" --quiet > "$dir/$1.log" 2>&1
    local rc=$?
    [ $rc -eq 137 ] || fail "$1: the interrupted run exited $rc, expected 137 (killed at $2)"
    [ -f "$dir/$1/checkpoint.bin" ] || fail "$1: no checkpoint kept"
    # the sites notice the lost coordinator, extrapolate and hold; the outage outlasts any delay a
    # step may have (site_timeout 2 s), so that it cannot hide among them on a loaded machine
    sleep 2.1
    "$hysim" run --resume "$dir/$1" --quiet >> "$dir/$1.log" 2>&1 ||
        fail "$1: the resumed run exited $? (killed at $2)"
    check_resumed "$1"
}
kill_case k_targets targets:120
kill_case k_checkpoint checkpoint:200
kill_case k_commit commit:251
points=(targets checkpoint commit)
point=${points[$((RANDOM % 3))]}
kstep=$((20 + RANDOM % 360))
echo "distributed_resume.sh: random kill at $point:$kstep"
kill_case k_random "$point:$kstep"

# kill -9 after a random time (0.3 to 1.7 s of the 2 s run)
delay=$(awk -v r=$((RANDOM % 1400)) 'BEGIN { printf "%.3f", 0.3 + r / 1000 }')
"$hysim" run "$dir/remote.yaml" -o "$dir/k9" --quiet > "$dir/k9.log" 2>&1 &
run_pid=$!
pids+=($run_pid)
sleep "$delay"
kill -9 $run_pid 2>/dev/null
wait $run_pid 2>/dev/null
echo "distributed_resume.sh: coordinator killed with SIGKILL after $delay s"
if [ -f "$dir/k9/checkpoint.bin" ]; then
    sleep 2.1
    "$hysim" run --resume "$dir/k9" --quiet >> "$dir/k9.log" 2>&1 || fail "k9: the resumed run exited $?"
    check_resumed k9
else
    echo "distributed_resume.sh: (the kill came before the first checkpoint: nothing to resume)"
fi

# 2. a resume that does not fit changes nothing at the site
HS_TEST_KILL_AT=commit:100 "$hysim" run "$dir/remote.yaml" -o "$dir/old" --quiet > "$dir/old.log" 2>&1
cp -r "$dir/old" "$dir/old_copy"
HS_TEST_KILL_AT=commit:150 "$hysim" run --resume "$dir/old" --quiet >> "$dir/old.log" 2>&1
rc=$?
[ $rc -eq 137 ] || fail "the second interruption exited $rc, expected 137"
sleep 2.1 # the outage must outlast any step's delay (check_resumed)
"$hysim" run --resume "$dir/old_copy" --quiet > "$dir/old_copy.log" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "resuming step 100 at sites that applied step 150 exited $rc, expected 2"
grep -q 'applied step 150' "$dir/old_copy.log" ||
    fail "the refusal does not say where the site is: $(cat "$dir/old_copy.log")"
echo "distributed_resume.sh: refused: $(grep -o 'site east[^;]*' "$dir/old_copy.log" | head -1)"
"$hysim" run --resume "$dir/old" --quiet >> "$dir/old.log" 2>&1 ||
    fail "the fitting resume after a refused one exited $?"
check_resumed old

# `hysim site --once` ends with the first test that ends, not with a coordinator that aborted:
# the site outlives its timeout holding the test, takes the resume, and exits after its BYE
site_file east_once east 1.0
site_once=1 start_site_file east_once
test_file "$dir/once.yaml" "$(remote_sites "$port_east_once" "$port_west")"
HS_TEST_KILL_AT=commit:50 "$hysim" run "$dir/once.yaml" -o "$dir/once" --quiet > "$dir/once.log" 2>&1
sleep 2 # beyond the site's 1.5 s timeout: the coordinator is declared lost
kill -0 "$pid_east_once" 2>/dev/null || fail "--once: the site ended with an aborted coordinator"
"$hysim" run --resume "$dir/once" --quiet >> "$dir/once.log" 2>&1 || fail "--once: the resume exited $?"
cmp -s "$dir/local/response.csv" "$dir/once/response.csv" ||
    fail "--once: the resumed run differs from the reference"
for _ in $(seq 1 100); do kill -0 "$pid_east_once" 2>/dev/null || break; sleep 0.05; done
kill -0 "$pid_east_once" 2>/dev/null && fail "--once: the site still runs after the test's BYE"
wait "$pid_east_once"
rc=$?
[ $rc -eq 0 ] || fail "--once: the site exited $rc"
echo "distributed_resume.sh: hysim site --once held its test through an abort and ended after the resumed test"

# 5. TI and a_es of remote sites reach the coordinator. Each lab's actuator lags its command by
# 4 samples and an adaptive inverse compensator (Chen & Ricles) starts from a_es = 1 and adapts;
# the same two labs run in process (virtual time) beside, for comparison (printed).
ti_lab() { # K: the laboratory's keys, one line
    echo "rate: 1000, actuators: {a1: {delay_samples: 4}}, specimen: {type: linear, K: [[$1]]},"\
        "compensation: {type: adaptive_inverse, a_es: 1, kp: 40, ki: 4}"
}
for s in east west; do
    k=1.0
    [ $s = west ] && k=0.5
    printf 'hysim: 1\nsite: {name: %s, listen: "127.0.0.1:0", key: %s.key, %s}\n' \
        "$s" "$s" "$(ti_lab $k)" > "$dir/${s}_ti.yaml"
    start_site_file ${s}_ti
done
test_file "$dir/ti_local.yaml" "  east: {kind: virtual, $(ti_lab 1.0)}
  west: {kind: virtual, $(ti_lab 0.5)}"
test_file "$dir/ti_remote.yaml" "$(remote_sites "$port_east_ti" "$port_west_ti")"
"$hysim" run "$dir/ti_local.yaml" -o "$dir/ti_local" --quiet > "$dir/ti_local.log" 2>&1 ||
    fail "TI: in-process run exited $?"
"$hysim" run "$dir/ti_remote.yaml" -o "$dir/ti_remote" --quiet > "$dir/ti_remote.log" 2>&1 ||
    fail "TI: distributed run exited $?"
stop_site east_ti
stop_site west_ti
act_json() { # SUMMARY SITE KEY: the first actuator's KEY in the site's entry
    sed -n "/\"name\": \"$2\"/,/]}/p" "$1" | grep -o "\"$3\": [^,}]*" | head -1 | sed 's/.*: //'
}
for s in east west; do
    la=$(act_json "$dir/ti_local/summary.json" $s a_es)
    ra=$(act_json "$dir/ti_remote/summary.json" $s a_es)
    lt=$(act_json "$dir/ti_local/summary.json" $s max_ti)
    rt=$(act_json "$dir/ti_remote/summary.json" $s max_ti)
    # the site's own figures at the end of the test (its log line at BYE)
    read -r sa st <<< "$(sed -n 's/.*said BYE.*a1: a_es \([^,]*\), max TI \([^;]*\).*/\1 \2/p' \
        "$dir/${s}_ti.log" | tail -1)"
    echo "distributed_resume.sh: site $s: a_es $ra in summary.json, $sa at the site, $la in process;" \
        "max TI $rt, $st at the site, $lt in process"
    [ "$ra" = "$sa" ] && [ "$rt" = "$st" ] ||
        fail "TI: site $s: summary.json says a_es $ra, max TI $rt; the site $sa, $st"
    # the compensator really adapted from 1, at the site as in process, and the lag left a TI
    # (how far it adapts on the real clock depends on the machine's load: late targets make the
    # site extrapolate and slow, so the figures in process are shown, not compared)
    awk -v l="$la" -v r="$ra" -v t="$rt" 'BEGIN { if (t < 0) t = -t; exit !(l > 1.5 && r > 1.5 && t > 1e-3) }' ||
        fail "TI: site $s: a_es $ra (in process $la), max TI $rt: no adaptation reported"
done
# the TI per step is recorded: `hysim plot` (gnuplot replaced by a copy of its script) finds it
mkdir "$dir/bin"
printf '#!/bin/sh\ncp "$1" plot.gp\n' > "$dir/bin/gnuplot"
chmod +x "$dir/bin/gnuplot"
PATH="$dir/bin:$PATH" "$hysim" plot "$dir/ti_remote" > /dev/null 2>&1
[ -f "$dir/ti_remote/plot.gp" ] || fail "TI: hysim plot wrote no script"
read -r tirows tinan tipeak <<< "$(awk '/^\$TI << EOD/ { on = 1; next } /^EOD/ { on = 0 }
    on && $1 > 0 { n++; if ($3 == "?") bad++; else { v = $3 < 0 ? -$3 : $3; if (v > p) p = v } }
    END { printf "%d %d %g", n, bad, p }' "$dir/ti_remote/plot.gp")"
rt=$(act_json "$dir/ti_remote/summary.json" east max_ti)
echo "distributed_resume.sh: TI of east recorded at $tirows steps ($tinan unknown), peak $tipeak (summary: $rt)"
[ "$tirows" -gt 100 ] && [ "$tinan" -eq 0 ] || fail "TI: the remote site's TI is not recorded per step"
grep -q "not recorded" "$dir/ti_remote/plot.gp" && fail "TI: a plot panel says 'not recorded'"
awk -v p="$tipeak" -v r="$rt" 'BEGIN { if (r < 0) r = -r; exit !(p <= r * 1.000001 && p > 0.5 * r) }' ||
    fail "TI: the recorded TI peaks at $tipeak, the site reports $rt"

# 4. a site killed and restarted from its state file
long=1200
steps_saved=$steps
steps=$long
test_file "$dir/long.yaml" "$(remote_sites "$port_east" "$port_west")"
test_file "$dir/long_local.yaml" "  east: {kind: virtual, perfect: true, actuators: {a1: {}}, specimen: {type: linear, K: [[1.0]]}}
  west: {kind: virtual, perfect: true, actuators: {a1: {}}, specimen: {type: linear, K: [[0.5]]}}"
"$hysim" run "$dir/long_local.yaml" -o "$dir/long_local" --quiet > "$dir/long_local.log" 2>&1 ||
    fail "in-process long run exited $?"
stop_site east
site_file east east 1.0 "$port_east" east.state # the site writes its test's state every step
start_site_file east
"$hysim" run "$dir/long.yaml" -o "$dir/site_killed" --quiet > "$dir/site_killed.log" 2>&1 &
run_pid=$!
pids+=($run_pid)
sleep 1.5
kill -9 "$pid_east"
wait "$pid_east" 2>/dev/null
wait $run_pid
rc=$?
[ $rc -eq 3 ] || fail "site killed: hysim run exited $rc, expected 3"
done_steps=$(sed -n 's/.*aborted after \([0-9]*\) of.*/\1/p' "$dir/site_killed.log")
rows=$(($(wc -l < "$dir/site_killed/response.csv") - 1))
[ -n "$done_steps" ] && [ "$rows" -eq $((done_steps + 1)) ] ||
    fail "site killed: kept $rows rows for ${done_steps:-?} steps"
cmp -s <(head -$((done_steps + 2)) "$dir/long_local/response.csv") "$dir/site_killed/response.csv" ||
    fail "site killed: the $done_steps steps kept differ from the uninterrupted run"
site_file east east 1.0 "$port_east" east.state # the same port: the test file names it
start_site_file east
"$hysim" run --resume "$dir/site_killed" --quiet >> "$dir/site_killed.log" 2>&1 ||
    fail "site killed: the resumed run exited $?"
grep -q '"status": "completed"' "$dir/site_killed/summary.json" || fail "site killed: not completed"
cmp -s "$dir/long_local/response.csv" "$dir/site_killed/response.csv" ||
    fail "site killed: response.csv differs from the uninterrupted run"
echo "distributed_resume.sh: site east killed after step $done_steps (exit 3, every step kept), restarted from its state file, resumed: bit for bit"
steps=$steps_saved

# 3. a partition longer than the timeouts, in a network namespace of our own
ns=hs_resume_$$
if ! ip netns add "$ns" 2>/dev/null; then
    ns=""
    echo "distributed_resume.sh: SKIP partition: cannot create a network namespace (needs root and ip netns)"
elif ! command -v iptables > /dev/null ||
    ! ip netns exec "$ns" iptables -L INPUT > /dev/null 2>&1; then
    echo "distributed_resume.sh: SKIP partition: iptables is not available in a network namespace"
else
    ip netns exec "$ns" ip link set lo up
    site_file east_ns east 1.0
    site_file west_ns west 0.5
    start_site_file east_ns ip netns exec "$ns"
    start_site_file west_ns ip netns exec "$ns"
    steps=$long
    test_file "$dir/part.yaml" "$(remote_sites "$port_east_ns" "$port_west_ns")"
    ip netns exec "$ns" "$hysim" run "$dir/part.yaml" -o "$dir/part" --quiet > "$dir/part.log" 2>&1 &
    run_pid=$!
    pids+=($run_pid)
    # cut only once the test runs at both sites (on a loaded machine the coordinator's set-up can
    # take longer than a fixed wait, and a cut during its handshake is a refused start, exit 2)
    for _ in $(seq 1 300); do
        grep -qs 'new test of' "$dir/east_ns.log" && grep -qs 'new test of' "$dir/west_ns.log" && break
        sleep 0.1
    done
    sleep 1
    ip netns exec "$ns" iptables -A INPUT -p tcp --dport "$port_west_ns" -j DROP
    ip netns exec "$ns" iptables -A INPUT -p tcp --sport "$port_west_ns" -j DROP
    cut=$(date +%s.%N)
    wait $run_pid
    rc=$?
    [ $rc -eq 3 ] || fail "partition: hysim run exited $rc, expected 3"
    grep -q 'site west' "$dir/part.log" || fail "partition: the reason does not name west: $(cat "$dir/part.log")"
    done_steps=$(sed -n 's/.*aborted after \([0-9]*\) of.*/\1/p' "$dir/part.log")
    rows=$(($(wc -l < "$dir/part/response.csv") - 1))
    [ -n "$done_steps" ] && [ "$rows" -eq $((done_steps + 1)) ] ||
        fail "partition: kept $rows rows for ${done_steps:-?} steps"
    sleep 2 # longer than the sites' 1.5 s timeout: west declares its coordinator lost as well
    ip netns exec "$ns" iptables -F INPUT
    healed=$(date +%s.%N)
    grep -q 'said BYE' "$dir/east_ns.log" && fail "partition: the healthy site east was told BYE"
    ip netns exec "$ns" "$hysim" run --resume "$dir/part" --quiet >> "$dir/part.log" 2>&1 ||
        fail "partition: the resumed run exited $?"
    grep -q '"status": "completed"' "$dir/part/summary.json" || fail "partition: not completed"
    cmp -s "$dir/long_local/response.csv" "$dir/part/response.csv" ||
        fail "partition: response.csv differs from the uninterrupted run"
    echo "distributed_resume.sh: west cut off for $(awk -v a="$cut" -v b="$healed" 'BEGIN { printf "%.1f", b - a }') s after step $done_steps: exit 3, every step kept, resumed bit for bit"
    steps=$steps_saved
fi

# every site still running stops on SIGTERM with exit 0 (under ASan: no leak, restored one included)
for stem in east west east_ns west_ns; do
    eval "p=\${pid_$stem:-}"
    [ -n "$p" ] || continue
    kill "$p" 2>/dev/null
    wait "$p"
    rc=$?
    [ $rc -eq 0 ] || fail "site $stem exited $rc on SIGTERM: $(grep -A6 'ERROR: .*Sanitizer' "$dir/$stem.log" | head -8)"
done
echo "distributed_resume.sh: ok"
