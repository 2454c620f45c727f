#!/usr/bin/env bash
# `--set KEY=VALUE` on run, check and modes: the value replaces the file's scalar before the file
# is read (the periods of a two-story shear frame follow the stiffness set: T ~ 1/sqrt(k)), keys
# the file leaves to defaults can be added, a record file replaces a synthetic record, and every
# bad value is refused (exit 2) with a message that names the --set argument.
# Usage: set.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$dir" || exit 1

cat > frame.yaml <<'YAML'
hysim: 1
name: set-frame
units: {force: kip, length: in, time: s}
structure:
  dofs: 2
  mass: [0.010360, 0.010360]
  shear_building:
    stories: [{material: col}, {material: col}]
  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}
materials:
  col: {type: elastic, k: 2.8}
ground_motion:
  synthetic: {seed: 7, pga: 30.0, duration: 2, dt: 0.01}
analysis:
  integrator: {type: newmark_explicit}
  dt: 0.01
  steps: 200
YAML

# period1 ARGS...: the first period `hysim modes` prints
period1() { "$hysim" modes frame.yaml "$@" | awk '$1 == 1 { print $2 }'; }
# Two equal stories m, k: omega1^2 = (k/m)(3 - sqrt 5)/2, T1 = 0.61840 s for k = 2.8 kip/in and
# 0.30920 s for k = 11.2 (four times as stiff: half the period).
t=$(period1) || fail "modes"
awk -v t="$t" 'BEGIN { exit !(t > 0.6183 && t < 0.6185) }' || fail "T1 = $t, expected 0.61840 s"
t=$(period1 --set materials.col.k=11.2) || fail "modes --set"
awk -v t="$t" 'BEGIN { exit !(t > 0.30915 && t < 0.30925) }' ||
    fail "T1 = $t with --set materials.col.k=11.2, expected 0.30920 s"
# a list item, 1-based: the second floor four times as heavy changes T1 (not the same as above)
t=$(period1 --set 'structure.mass[2]=0.04144') || fail "modes --set mass[2]"
# m2 = 4 m1: omega^2 roots of m1 m2 w^4 - (m1 k + 2 k m2) w^2 + k^2 = 0 (k per story)
exp=$(awk 'BEGIN { m1 = 0.010360; m2 = 0.04144; k = 2.8; a = m1 * m2; b = -(m1 * k + 2 * k * m2);
                   c = k * k; w2 = (-b - sqrt(b * b - 4 * a * c)) / (2 * a);
                   printf "%.6f", 2 * 3.141592653589793 / sqrt(w2) }')
awk -v t="$t" -v e="$exp" 'BEGIN { exit !(t > e - 1e-4 && t < e + 1e-4) }' ||
    fail "T1 = $t with mass[2] = 0.04144, expected $exp"

# run: steps and output.dir set (output is absent from the file: the section is added)
"$hysim" run frame.yaml --quiet --set analysis.steps=37 --set output.dir=out37 ||
    fail "run --set exited $?"
grep -q '"steps": 37' out37/summary.json || fail "--set analysis.steps=37: $(grep steps out37/summary.json)"

# a record file replaces the synthetic record; its path is relative to the working folder
mkdir -p rec
awk 'BEGIN { for (i = 0; i < 300; i++) printf "%.6f\n", 0.1 * sin(i * 0.2) }' > rec/wave.txt
"$hysim" check frame.yaml --set ground_motion.file=rec/wave.txt --set ground_motion.format=columns \
    --set ground_motion.dt=0.01 --set ground_motion.scale=386.1 > check.out 2>&1 ||
    fail "check with a record set: $(cat check.out)"

# refusals: exit 2 and the --set argument named
refuse() { # EXPECTED_TEXT ARGS...
    local want=$1; shift
    "$hysim" check frame.yaml "$@" > out 2> err; local rc=$?
    [ $rc -eq 2 ] || fail "check $*: exit $rc (expected 2)"
    grep -qF -- "$want" err || fail "check $*: expected '$want' in: $(cat err)"
}
refuse "frame.yaml: --set analysis.dt=-0.01: analysis.dt: must be > 0" --set analysis.dt=-0.01
refuse "--set analysis.dtt=1: unknown key 'dtt' in analysis; did you mean 'dt'?" --set analysis.dtt=1
refuse "--set structure.mass[3]=1: structure.mass has 2 items" --set 'structure.mass[3]=1'
refuse "--set materials.col.k=stiff: materials.col.k: expected a number" --set materials.col.k=stiff
refuse "--set structure=1: structure is a mapping" --set structure=1
refuse "--set ground_motion.file=nowhere.txt: ground_motion.file: cannot find 'nowhere.txt'" \
    --set ground_motion.file=nowhere.txt --set ground_motion.format=columns --set ground_motion.dt=0.01
refuse "--set needs KEY=VALUE" --set analysis.dt
"$hysim" run frame.yaml --resume somewhere --set analysis.dt=0.01 > out 2> err
[ $? -eq 2 ] && grep -q "cannot be combined with --resume" err || fail "run --resume --set accepted"
echo "set.sh: ok"
