#!/usr/bin/env bash
# `hysim run --resume DIR` (docs/checkpoints.md): a small hybrid test (one numerical story, one
# Bouc-Wen coupon at a virtual site with actuator delay, sensor noise, relaxation, adaptive
# compensation, a lognormal link with losses, a lognormal compute time; all seeded) is run once
# without interruption, then killed at a step drawn from a fixed seed (the HS_TEST_KILL_AT_STEP hook
# of src/cli/run.c: _exit(137) after that step) and resumed; response.csv must be byte-identical
# (cmp) and summary.json identical but for the wall time and the trace's start, end and
# resumed_from (the resumed run names its checkpoint's folder: docs/outputs.md, "Trace"). Then a real `kill -9` of a run in the
# background, resumed the same way, and the refusals (changed test file, no checkpoint, -o).
# Usage: resume.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$dir/hybrid.yaml" <<'YAML'
hysim: 1
name: resume-hybrid
units: {force: kip, length: in, time: s}
structure:
  dofs: 2
  mass: [0.0103600103600104, 0.0103600103600104]
  springs: [{name: s1, from: ground, to: 1, material: col}]
  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}
materials:
  col: {type: bilinear, k: 2.8, fy: 0.5, b: 0.05}
  coupon: {type: bouc_wen, alpha: 0.05, k0: 2.8, n: 1, gamma: 0.5, beta: 0.5, A0: 1,
           delta_a: 0, delta_nu: 0, delta_eta: 0}
experimental:
  - {name: story2, site: lab, story: 2, actuators: [a1], initial_stiffness: [[2.8]]}
sites:
  lab:
    kind: virtual
    rate: 1024
    actuators:
      a1: {delay_samples: 2}
    sensors: {displacement: {rms: 0.0001}, force: {rms: 0.001}}
    specimen: {type: material, material: coupon}
    relaxation: {fraction: 0.1, tau: 2.0, v_still: 0.0001}
    compensation: {type: adaptive_inverse, a_es: 2, kp: 0.4, ki: 0.04}
    link: {delay: {lognormal: {median: 0.03, sigma: 0.75}}, loss: 0.02, rto: 0.05}
ground_motion:
  synthetic: {seed: 7, pga: 250.0, duration: 3, dt: 0.01}
analysis:
  integrator: {type: implicit_hht_fe}
  dt: 0.01
  steps: 300
  time_scale: 10
  seed: 5
  compute_time: {lognormal: {median: 0.01, sigma: 0.5}}
  checkpoint_every: 7
YAML

"$hysim" run "$dir/hybrid.yaml" -o "$dir/full" --quiet || fail "uninterrupted run exited $?"
rows=$(($(wc -l < "$dir/full/response.csv") - 1))
[ "$rows" -eq 301 ] || fail "uninterrupted response.csv has $rows rows, expected 301"

# killed after a step drawn from a fixed seed (bash's RANDOM, seeded)
RANDOM=2024
k=$((10 + RANDOM % 280))
HS_TEST_KILL_AT_STEP=$k "$hysim" run "$dir/hybrid.yaml" -o "$dir/part" --quiet
rc=$?
[ "$rc" -eq 137 ] || fail "the killed run exited $rc, expected 137"
[ -s "$dir/part/checkpoint.bin" ] || fail "no checkpoint after $k steps"
[ ! -e "$dir/part/response.csv" ] || fail "the killed run wrote response.csv"
"$hysim" run --resume "$dir/part" > "$dir/out" || fail "resume exited $?: $(cat "$dir/out")"
expected=$((k / 7 * 7))
grep -q "resumed from $dir/part/checkpoint.bin after step $expected of 300" "$dir/out" ||
    fail "resume did not start at step $expected (killed after $k): $(cat "$dir/out")"
cmp "$dir/full/response.csv" "$dir/part/response.csv" ||
    fail "response.csv differs after a kill at step $k and resume from $expected"
untimed() { grep -v -e wall_time -e '^    "start": ' -e '^    "end": ' -e '^    "resumed_from": ' "$1"; }
diff <(untimed "$dir/full/summary.json") <(untimed "$dir/part/summary.json") \
    > /dev/null || fail "summary.json differs after resume: $(diff <(untimed "$dir/full/summary.json") <(untimed "$dir/part/summary.json") | head -5)"
grep -q "^    \"resumed_from\": \"$dir/part\",$" "$dir/part/summary.json" ||
    fail "the resumed run's trace does not name its checkpoint's folder: $(grep resumed_from "$dir/part/summary.json")"

# a resumed run can be killed and resumed again (giving the test file explicitly)
HS_TEST_KILL_AT_STEP=$((k + 5)) "$hysim" run "$dir/hybrid.yaml" -o "$dir/twice" --quiet
HS_TEST_KILL_AT_STEP=$((k + 60)) "$hysim" run --resume "$dir/twice" --quiet
[ $? -eq 137 ] || fail "the resumed run was not killed again"
"$hysim" run "$dir/hybrid.yaml" --resume "$dir/twice" --quiet || fail "second resume exited $?"
cmp "$dir/full/response.csv" "$dir/twice/response.csv" || fail "response.csv differs after two kills"

# a real kill -9 of a run in the background, once it has written a checkpoint
sed 's/checkpoint_every: 7/checkpoint_every: 1/' "$dir/hybrid.yaml" > "$dir/every.yaml"
"$hysim" run "$dir/every.yaml" -o "$dir/bg" --quiet &
pid=$!
for _ in $(seq 1 500); do
    [ -e "$dir/bg/checkpoint.bin" ] && break
    sleep 0.01
done
kill -9 "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
"$hysim" run --resume "$dir/bg" --quiet || fail "resume after kill -9 exited $?"
cmp "$dir/full/response.csv" "$dir/bg/response.csv" || fail "response.csv differs after kill -9"

# refusals: the test file changed since the checkpoint, no checkpoint, -o with --resume
HS_TEST_KILL_AT_STEP=50 "$hysim" run "$dir/hybrid.yaml" -o "$dir/changed" --quiet
sed -i 's/pga: 250.0/pga: 251.0/' "$dir/hybrid.yaml"
"$hysim" run --resume "$dir/changed" --quiet 2> "$dir/err"
[ $? -eq 2 ] || fail "resume of a changed test file did not exit 2"
grep -q "content hash differs" "$dir/err" || fail "no reason for the refusal: $(cat "$dir/err")"
mkdir -p "$dir/empty"
"$hysim" run --resume "$dir/empty" --quiet 2> "$dir/err"
[ $? -eq 2 ] || fail "resume without a checkpoint did not exit 2"
grep -q "checkpoint.bin: cannot open" "$dir/err" || fail "no reason: $(cat "$dir/err")"
"$hysim" run --resume "$dir/part" -o "$dir/x" --quiet 2> /dev/null
[ $? -eq 2 ] || fail "-o with --resume was not refused"
echo "resume.sh: ok (killed after step $k, resumed from $expected)"
