#!/usr/bin/env bash
# The RTHS benchmark end to end (docs/rths_benchmark.md): examples/rths_benchmark.yaml with its
# reference, in the in-process virtual lab and through `hysim site` + `hysim plant` over udp on
# loopback, the same test file (the site set remote with --set). Checks numbers that could be
# wrong:
# - the reference's J1-J9 land in summary.json (analysis.reference), and a missing reference folder
#   is refused with exit 2 before the run;
# - no compensation behaves as the benchmark's plant makes it: the actuator reaches its 8900 N
#   capacity and the site stops the test (exit 3, the force-limit alarm), in process and through
#   the plant;
# - on the perturbed plant (seed 2) the adaptive inverse compensator tracks better than none: its
#   J2 (normalised RMS tracking error) is below a fifth of the uncompensated run's;
# - the example compensator plug-in (kp = 0: the inverse compensator), loaded by the site file,
#   through the plant agrees with the built-in inverse compensator in process, as below;
# - the inverse compensator's run through the plant agrees with the in-process one: the largest
#   floor-displacement difference below 5 % of the peak and J2 within 1.5 percentage points (the
#   real clock: a reply that misses its tick leaves the site with the previous measurement, one
#   more tick of delay; measured 0.5 % and 0.3 points with 2.6 % of the replies missing; a plant
#   at another rate, a wrong unit or a missing interaction differs by tens of %).
# The plant route needs real time: where the run's wall time exceeds 1.5 times the record's or
# more than 5 % of the ticks go without a reply (a loaded machine), or the plant stops answering
# for the site's whole watchdog (0.2 s; the site then holds and stops the test, exit 3), its plant
# checks are reported and skipped, the others still asserted. Its plant runs write no
# checkpoints (with a remote site they would fsync every step: 6.5 ms a step here,
# far behind the real clock).
# The plant route runs at 1024 Hz (the benchmark's 4096 Hz is examples/rths_benchmark.yaml's in
# process): on this shared 2-core machine with sanitizers a 4096 Hz real-time loop misses about a
# tenth of its replies, which measures the machine, not hysim.
# Usage: rths_benchmark.sh PATH_TO_hysim
set -u
hysim=$1
src=${HS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ex="$src/examples"
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    for f in "$dir"/*.log "$dir"/*.err; do [ -f "$f" ] && { echo "--- $f"; tail -5 "$f"; }; done
    exit 1
}
cd "$dir" || exit 1
rate=1024
dur=8
a_es=25.65 # the nominal plant's 25.05 ms at 1024 Hz
dt=0.00390625 # 4 controller ticks per step: a step over the network within its 3.9 ms
common=(--set analysis.duration=$dur --set analysis.dt=$dt --set sites.rths.rate=$rate --quiet --force
    --set analysis.reference.run=runs/rths-benchmark-reference)

# the example compensator plug-in (examples/compensators/feedforward_p.c) with kp = 0: the inverse
# compensator with a_es = 1 + tau rate, so tau = (a_es - 1) / rate gives the inverse above
plugin="${HS_BINARY_DIR:-$src/build}/compensators/libhysim_compensator_feedforward_p.so"
plugin_tau=$(awk -v a=$a_es -v r=$rate 'BEGIN { printf "%.9g", (a - 1) / r }')

# J of a run folder: crit DIR J2_percent
crit() { sed -n "s/.*\"$2\": \([-0-9.e+]*\).*/\1/p" "$1/summary.json" | head -1; }

"$hysim" run "$ex/rths_benchmark_reference.yaml" --set analysis.duration=$dur --set analysis.dt=$dt --quiet --force \
    > ref.log 2>&1 || fail "the reference run exited $?"
[ -f runs/rths-benchmark-reference/response.csv ] || fail "no reference response.csv"

# a missing reference: exit 2 before anything runs
"$hysim" run "$ex/rths_benchmark.yaml" "${common[@]}" --set analysis.reference.run=no/such/run \
    -o noref > noref.log 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a missing reference run exited $rc, expected 2"
grep -q "analysis.reference: reference run no/such/run: cannot read no/such/run/response.csv" \
    noref.log || fail "missing reference: $(cat noref.log)"

comp_set() { # COMP -> the --set arguments of the test file's compensation
    case $1 in
    none) echo "--set sites.rths.compensation.type=none" ;;
    inverse) echo "--set sites.rths.compensation.type=inverse --set sites.rths.compensation.a_es=$a_es" ;;
    adaptive_inverse) echo "--set sites.rths.compensation.type=adaptive_inverse" \
        "--set sites.rths.compensation.a_es=$a_es --set sites.rths.compensation.kp=1e5" \
        "--set sites.rths.compensation.ki=1e4" ;;
    esac
}
comp_yaml() { # COMP -> the site file's compensation mapping
    case $1 in
    none) echo "{type: none}" ;;
    inverse) echo "{type: inverse, a_es: $a_es}" ;;
    adaptive_inverse) echo "{type: adaptive_inverse, a_es: $a_es, kp: 1e5, ki: 1e4}" ;;
    plugin) echo "{type: plugin, path: $plugin, options: \"tau=$plugin_tau kp=0\"}" ;;
    esac
}

# in process: PLANT COMP -> folder v_PLANT_COMP, its exit code in rc_v
run_virtual() {
    local plant_set=()
    [ "$1" = perturbed ] && plant_set=(--set sites.rths.specimen.plant=perturbed --set sites.rths.specimen.seed=2
        --set sites.frame.specimen.plant=perturbed --set sites.frame.specimen.seed=2)
    # shellcheck disable=SC2046
    "$hysim" run "$ex/rths_benchmark.yaml" "${common[@]}" "${plant_set[@]}" $(comp_set "$2") \
        -o "v_$1_$2" > "v_$1_$2.log" 2>&1
    rc_v=$?
}

# through the plant: PLANT COMP -> folder p_PLANT_COMP, its exit code in rc_p
run_plant() {
    local spec="{type: rths_benchmark, plant: nominal}"
    [ "$1" = perturbed ] && spec="{type: rths_benchmark, plant: perturbed, seed: 2}"
    sed -e "s/rate: 4096/rate: $rate/" -e "s/  specimen: {type: rths_benchmark, plant: nominal}/  specimen: $spec/" \
        "$ex/rths_lab/plant.yaml" > "plant_$1_$2.yaml"
    "$hysim" plant --config "plant_$1_$2.yaml" > "plant_$1_$2.out" 2> "plant_$1_$2.err" &
    local plant_pid=$!
    pids+=($plant_pid)
    local port
    port=$(site_port "plant_$1_$2")
    [ -n "$port" ] || fail "the plant did not start: $(cat "plant_$1_$2.err")"
    sed -e "s/rate: 4096/rate: $rate/" -e "s/  specimen: {type: rths_benchmark, plant: nominal}/  specimen: $spec/" \
        -e "s|compensation: {type: none}|compensation: $(comp_yaml "$2")|" \
        -e "s/remote: \"127.0.0.1:9\"/remote: \"127.0.0.1:$port\"/" \
        -e "s/reply_timeout: 0.0005/reply_timeout: 0.002/" \
        "$ex/rths_lab/site.yaml" > "site_$1_$2.yaml"
    "$hysim" site --config "site_$1_$2.yaml" > "site_$1_$2.out" 2> "site_$1_$2.log" &
    local site_pid=$!
    pids+=($site_pid)
    port=$(site_port "site_$1_$2")
    [ -n "$port" ] || fail "the site did not start: $(cat "site_$1_$2.log")"
    local plant_set=()
    [ "$1" = perturbed ] && plant_set=(--set sites.rths.specimen.plant=perturbed --set sites.rths.specimen.seed=2
        --set sites.frame.specimen.plant=perturbed --set sites.frame.specimen.seed=2)
    "$hysim" run "$ex/rths_benchmark.yaml" "${common[@]}" "${plant_set[@]}" \
        --set sites.rths.kind=remote --set "sites.rths.url=hysim://127.0.0.1:$port" \
        --set sites.rths.plain=true --set analysis.checkpoint_every=0 -o "p_$1_$2" > "p_$1_$2.log" 2>&1
    rc_p=$?
    kill "$site_pid" "$plant_pid" 2>/dev/null
    wait "$site_pid" "$plant_pid" 2>/dev/null
    udp_counts=$(grep "lab udp:" "site_$1_$2.log" | tail -1)
    # real time held? the run's wall time within 1.5 times the record's (a loaded machine falls
    # behind: the structure's clock then slows and the plant's delay weighs less)
    wall=$(crit "p_$1_$2" wall_time_s)
    realtime=$(awk -v w="${wall:-1e9}" -v d=$dur 'BEGIN { print (w < 1.5 * d) ? 1 : 0 }')
    # nor where more than 5 % of the ticks went without a reply (each one more tick of delay; a
    # machine that holds real time misses 1-3 %): the comparison then measures the machine
    local sent missed
    sent=$(sed -n 's/.*lab udp: \([0-9]*\) commands sent.*/\1/p' <<< "$udp_counts")
    missed=$(sed -n 's/.* \([0-9]*\) ticks without a reply.*/\1/p' <<< "$udp_counts")
    if [ -n "$sent" ] && [ -n "$missed" ] &&
        awk -v m="$missed" -v n="$sent" 'BEGIN { exit !(m > 0.05 * n) }'; then
        realtime=0
    fi
    # the plant descheduled for the site's whole watchdog (200 ticks, 0.2 s): the site held and
    # stopped the test, as it must; the comparison then says nothing about the plant
    if [ $rc_p -eq 3 ] && grep -q "replies missing in a row on the udp channel" "p_$1_$2.log"; then
        realtime=0
        rc_p=starved
    fi
}

# no compensation: the actuator's capacity is reached, the test stops
run_virtual nominal none
[ $rc_v -eq 3 ] || fail "no compensation in process exited $rc_v, expected 3 (force limit)"
grep -q "force limit on a1" v_nominal_none.log || fail "no force-limit alarm: $(tail -2 v_nominal_none.log)"
echo "rths_benchmark.sh: no compensation, in process: $(grep -o 'force limit on a1[^;]*' v_nominal_none.log | head -1)"
run_plant nominal none
if [ "$rc_p" = starved ]; then
    echo "rths_benchmark.sh: SKIP (not asserted): no compensation through the plant: the plant" \
        "stopped answering for the site's watchdog (a loaded machine); the site held, exit 3"
elif [ "$rc_p" = 0 ] && [ "$realtime" = 0 ]; then
    echo "rths_benchmark.sh: SKIP (not asserted): no compensation through the plant took $wall s" \
        "for $dur s: this machine did not hold real time, so the plant's delay did not act in full"
else
    [ $rc_p -eq 3 ] || fail "no compensation through the plant exited $rc_p, expected 3 (force limit; wall $wall s)"
    grep -q "force limit on a1" p_nominal_none.log || fail "no force-limit alarm through the plant: $(tail -2 p_nominal_none.log)"
    echo "rths_benchmark.sh: no compensation, through the plant: $(grep -o 'force limit on a1[^;]*' p_nominal_none.log | head -1)"
fi

# agree LABEL V_DIR P_DIR: the plant run P_DIR against the in-process run V_DIR, floors within 5 %
# of the peak and J2 within 1.5 points, asserted only where the plant run held real time
agree() {
    local d peak j2v j2p
    read -r d peak <<< "$(max_diff "$2" "$3")"
    j2v=$(crit "$2" J2_percent)
    j2p=$(crit "$3" J2_percent)
    [ -n "$j2v" ] && [ -n "$j2p" ] || fail "$1: no J2 in summary.json"
    awk -v p="$peak" 'BEGIN { exit !(p > 1e-3) }' || fail "the record hardly moves the frame (peak $peak m)"
    echo "rths_benchmark.sh: $1: in process J1 $(crit "$2" J1_s) s, J2 $j2v %; through the plant" \
        "J1 $(crit "$3" J1_s) s, J2 $j2p %; largest floor difference $d m of $peak m (wall $wall s for $dur s)"
    if [ "$realtime" = 0 ]; then
        echo "rths_benchmark.sh: SKIP (not asserted): $1: the plant run did not hold real time ($rc_p)"
        return
    fi
    awk -v d="$d" -v p="$peak" 'BEGIN { exit !(d < 0.05 * p) }' ||
        fail "$1: through the plant the floors differ by $d m from the in-process run (peak $peak m)"
    awk -v a="$j2v" -v b="$j2p" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < 1.5) }' ||
        fail "$1: J2 $j2v % in process, $j2p % through the plant"
}

# the inverse compensator: in process and through the plant agree
run_virtual nominal inverse
[ $rc_v -eq 0 ] || fail "inverse in process exited $rc_v: $(tail -2 v_nominal_inverse.log)"
run_plant nominal inverse
[ "$rc_p" = 0 ] || [ "$rc_p" = starved ] ||
    fail "inverse through the plant exited $rc_p: $(tail -2 p_nominal_inverse.log)"
echo "rths_benchmark.sh: site: ${udp_counts#*lab udp: }"
agree inverse v_nominal_inverse p_nominal_inverse

# the compensator plug-in, loaded by the site file, through the plant: the same as the built-in
# inverse compensator in process
if [ ! -f "$plugin" ]; then
    echo "rths_benchmark.sh: SKIP: the example plug-in $plugin is not built"
else
    run_plant nominal plugin
    [ "$rc_p" = 0 ] || [ "$rc_p" = starved ] ||
        fail "the plug-in through the plant exited $rc_p: $(tail -2 p_nominal_plugin.log)"
    grep -q "type: plugin, path: " "site_nominal_plugin.yaml" || fail "no plug-in in the site file"
    agree "plug-in (kp = 0) against the built-in inverse" v_nominal_inverse p_nominal_plugin
fi

# the perturbed plant: adaptive inverse against none, in process
run_virtual perturbed none
[ $rc_v -eq 3 ] || fail "no compensation on the perturbed plant exited $rc_v, expected 3"
run_virtual perturbed adaptive_inverse
[ $rc_v -eq 0 ] || fail "adaptive inverse on the perturbed plant exited $rc_v: $(tail -2 v_perturbed_adaptive_inverse.log)"
j2n=$(crit v_perturbed_none J2_percent)
j2a=$(crit v_perturbed_adaptive_inverse J2_percent)
awk -v a="$j2a" -v n="$j2n" 'BEGIN { exit !(a > 0 && a < 0.2 * n) }' ||
    fail "perturbed plant: adaptive inverse J2 $j2a % is not below a fifth of none's $j2n %"
echo "rths_benchmark.sh: perturbed plant (seed 2): J2 none $j2n % (until the force limit)," \
    "adaptive inverse $j2a %, J1 $(crit v_perturbed_adaptive_inverse J1_s) s," \
    "J4 $(crit v_perturbed_adaptive_inverse J4_percent) %"
exit 0
