#!/usr/bin/env bash
# A real OpenSees genericClient against `hysim site` with a perfect Bouc-Wen laboratory, against
# OpenSees' own in-process run of the same frame (docs/openfresco.md, "Iterating and crashing
# clients"). Mosqueda, Stojadinovic & Mahin's two-story frame (4 kip / 386.1 per floor, second
# story elastic 2.8 kip/in), its first story a Bouc-Wen column (alpha 0.1, k0 2.8, n 2,
# gamma = beta = 0.5, A0 1: yield at 1 in; OpenSees' BoucWen at tolerance 1e-12), under 6 s of
# El Centro 270 x 1.5, two ways: Newmark average acceleration with ModifiedNewton on the initial
# stiffness (several trials a step), and AlphaOS with `Linear -initial -factorOnce` (one trial a
# step); each against a site with one controller tick a trial (the specimen sees exactly the
# trials) and one with ten (the site's ramp: ten backward-Euler sub-steps of each trial's
# increment, whose per-trial effect tests/test_site_server_ofr_trials.c bounds).
#   - AlphaOS, one tick a trial: the specimen takes the very backward-Euler step OpenSees' material
#     takes: asserted within 1e-6 of the peak (measured 1.3e-15);
#   - Newton, one tick a trial: a physical specimen lives every iteration (trial after trial,
#     each committed), OpenSees' material only the step: a difference of that origin (measured
#     1.6e-4 of the peak); ten ticks a trial: the sub-stepping (measured 3.1 %, both algorithms);
#     all checked below 5 % of the peak;
#   - a client killed mid-test (SIGKILL), then a new one on the same site: the site logs the lost
#     client and the new run starts on a fresh laboratory (AlphaOS, one tick: within 1e-6 again).
# Needs OPENSEES=/path/to/OpenSees (skipped otherwise: CI has no OpenSees) and the El Centro
# record in ../shared/data next to the source tree (skipped otherwise). genericClient connects to
# 127.0.0.1; OpenSees listens nowhere here.
# Usage: opensees_generic_client.sh PATH_TO_hysim
set -u
hysim=$1
if [ -z "${OPENSEES:-}" ] || [ ! -x "${OPENSEES:-}" ]; then
    echo "opensees_generic_client.sh: SKIP: no OpenSees (set OPENSEES=/path/to/OpenSees to run it)"
    exit 0
fi
src=${HS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
record="$src/../shared/data/records/ELC270.txt"
if [ ! -f "$record" ]; then
    echo "opensees_generic_client.sh: SKIP: $record is absent (shared data)"
    exit 0
fi
dir=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
    wait 2> /dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    for f in "$dir"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -15 "$f"; }; done
    exit 1
}
cp "$record" "$dir/ELC270.txt"
steps=600

# The frame; HYBRID 1: the first story is a genericClient at PORT, else OpenSees' BoucWen.
frame() { # FILE HYBRID PORT OUT ALGO (newton | alphaos)
    local algo="test NormDispIncr 1.0e-10 100
algorithm ModifiedNewton -initial
integrator Newmark 0.5 0.25"
    [ "$5" = alphaos ] && algo="algorithm Linear -initial -factorOnce
integrator AlphaOS 1.0"
    cat > "$1" << TCL
model BasicBuilder -ndm 1 -ndf 1
node 1 0.0
node 2 0.0
node 3 0.0
fix 1 1
mass 2 [expr 4.0 / 386.1]
mass 3 [expr 4.0 / 386.1]
uniaxialMaterial Elastic 2 2.8
element zeroLength 2 2 3 -mat 2 -dir 1
if {$2} {
    element genericClient 1 -node 1 2 -dof 1 -dof 1 -server $3 127.0.0.1
} else {
    uniaxialMaterial BoucWen 1 0.1 2.8 2.0 0.5 0.5 1.0 0.0 0.0 0.0 1.0e-12 50
    element zeroLength 1 1 2 -mat 1 -dir 1
}
timeSeries Path 1 -dt 0.01 -filePath ELC270.txt -factor [expr 386.1 * 1.5]
pattern UniformExcitation 1 1 -accel 1
recorder Node -file $4 -time -precision 16 -node 2 3 -dof 1 disp
system FullGeneral
numberer Plain
constraints Plain
$algo
analysis Transient
analyze $steps 0.01
wipe
TCL
}

start_site() { # NAME STEP_TIME -> port_NAME (the site's log: $dir/NAME.log)
    cat > "$dir/$1.yaml" << YAML
hysim: 1
materials:
  bw: {type: bouc_wen, alpha: 0.1, k0: 2.8, n: 2, gamma: 0.5, beta: 0.5, A0: 1}
site:
  name: $1
  listen: "127.0.0.1:0"
  plain: true
  rate: 2000
  perfect: true
  actuators: {a1: {stroke: 50}}
  specimen: {type: material, material: bw}
  openfresco: {protocol_a: 0, T: [[-1, 1]], step_time: $2}
YAML
    "$hysim" site --config "$dir/$1.yaml" > "$dir/$1.out" 2> "$dir/$1.log" &
    pids+=($!)
    local port=""
    for _ in $(seq 1 100); do
        port=$(sed -n 's/.*, \([0-9]*\) (OpenFresco A).*/\1/p' "$dir/$1.out" | head -1)
        [ -n "$port" ] && break
        sleep 0.05
    done
    [ -n "$port" ] || fail "site $1 did not start"
    eval "port_$1=$port"
}

run_os() { # TCL LOG
    (cd "$dir" && timeout 300 "$OPENSEES" "$1" > "$2" 2>&1)
}
# Largest |a - b| over both floors and every step, and the peak |a|: "MAXDIFF PEAK ROWS"
compare() { # OUT_A OUT_B
    paste -d' ' "$dir/$1" "$dir/$2" | awk '
    { n = NF / 2; for (i = 2; i <= n; i++) { d = $i - $(i + n); if (d < 0) d = -d; if (d > m) m = d
                                              a = $i; if (a < 0) a = -a; if (a > p) p = a } }
    END { printf "%.3g %.4g %d", m + 0, p + 0, NR }'
}

start_site one 0.0005 # one tick a trial at 2,000 Hz: the specimen sees exactly the trials
start_site ten 0.005  # ten ticks a trial: the site's ramp, ten sub-steps of each trial
ratio() { awk -v d="$1" -v p="$2" 'BEGIN { printf "%.2g", d / p }'; }
for algo in newton alphaos; do
    frame "$dir/inproc_$algo.tcl" 0 0 "inproc_$algo.out" $algo
    run_os "inproc_$algo.tcl" "$dir/inproc_$algo.log" || fail "OpenSees in-process $algo failed"
    for site in one ten; do
        eval "port=\$port_$site"
        frame "$dir/${site}_$algo.tcl" 1 "$port" "${site}_$algo.out" $algo
        run_os "${site}_$algo.tcl" "$dir/${site}_${algo}_os.log" ||
            fail "OpenSees genericClient $algo ($site tick(s) a trial) failed"
        read -r d peak rows <<< "$(compare "inproc_$algo.out" "${site}_$algo.out")"
        [ "$rows" -eq "$steps" ] || fail "$algo, $site: $rows records, expected $steps"
        eval "d_${site}_$algo=$d"
        eval "peak_$algo=$peak"
        echo "opensees_generic_client.sh: $algo, $site tick(s) a trial: largest difference from" \
            "OpenSees' in-process run $d in ($(ratio "$d" "$peak") of the peak $peak in)"
    done
done
# Bouc-Wen yields (peak drift beyond the 1 in yield), and every hybrid run is close to OpenSees'
awk -v p="$peak_newton" 'BEGIN { exit !(p > 1.5) }' || fail "the column hardly yields ($peak_newton in)"
for v in "$d_one_newton" "$d_ten_newton" "$d_ten_alphaos"; do
    awk -v d="$v" -v p="$peak_newton" 'BEGIN { exit !(d <= 0.05 * p) }' ||
        fail "a hybrid run is $v in from OpenSees' own (peak $peak_newton in)"
done
# One trial a step, one tick a trial: the same backward-Euler step as OpenSees' material, so the
# two differ only by the materials' tolerances.
awk -v d="$d_one_alphaos" -v p="$peak_alphaos" 'BEGIN { exit !(d <= 1e-6 * p) }' ||
    fail "AlphaOS, one tick a trial: $d_one_alphaos in from OpenSees' own run"

# A client killed mid-test, then a new one on the same site: a fresh laboratory.
(cd "$dir" && exec "$OPENSEES" one_alphaos.tcl > "$dir/killed_os.log" 2>&1) &
killed=$!
pids+=($killed)
sleep 0.3
kill -9 "$killed"
wait "$killed" 2> /dev/null
for _ in $(seq 1 100); do
    grep -q "lost without DIE" "$dir/one.log" && break
    sleep 0.05
done
grep -q "lost without DIE" "$dir/one.log" || fail "the site did not end the killed client's test"
run_os one_alphaos.tcl "$dir/again_os.log" || fail "OpenSees genericClient run after a killed one failed"
read -r da _ _ <<< "$(compare inproc_alphaos.out one_alphaos.out)"
echo "opensees_generic_client.sh: after a client killed mid-test, the next run's largest" \
    "difference $da in"
awk -v d="$da" -v p="$peak_alphaos" 'BEGIN { exit !(d <= 1e-6 * p) }' ||
    fail "after a killed client: $da in from OpenSees' own run (peak $peak_alphaos in)"
echo "opensees_generic_client.sh: OK"
