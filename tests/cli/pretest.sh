#!/usr/bin/env bash
# hysim pretest on a site file's virtual laboratory with noise on (two coupled actuators: a = 3,
# and a = 8 behind 4 ticks of transport delay): the JSON it writes gives K0l within 1 % of the
# specimen's K, the transport delay and a within one tick, a_es = a + D, the noise RMS within 10 %
# of the sensors' rms, and the test file's initial_stiffness beside K0l; an amplitude beyond the
# stroke is refused with exit code 2 and no file.
set -u
HYSIM=${1:?usage: pretest.sh PATH_TO_hysim}
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 is not available to read the JSON"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; cat "$dir/err" 2>/dev/null; exit 1; }

cat > "$dir/site.yaml" <<'YAML'
site:
  name: east
  plain: true
  rate: 1024
  seed: 3
  actuators:
    a1: {delay_samples: 3, stroke: 2, velocity_limit: 20, force_limit: 50}
    a2: {delay_samples: 8, transport_delay: 4, stroke: 2, velocity_limit: 20, force_limit: 50}
  sensors: {displacement: {rms: 0.0001}, force: {rms: 0.002}}
  specimen: {type: linear, K: [[3, -1], [-1, 2]]}
YAML
cat > "$dir/test.yaml" <<'YAML'
hysim: 1
name: pretest-reference
units: {force: kN, length: mm, time: s}
structure: {dofs: 2, mass: [1, 1], damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}}
experimental:
  - {name: frame, site: lab, dofs: [1, 2], T: [[1, 0], [0, 1]], actuators: [a1, a2],
     initial_stiffness: [[3.1, -1], [-1, 2]]}
sites:
  lab: {kind: remote, url: "hysim://127.0.0.1:9", plain: true, actuators: {a1: {}, a2: {}}}
ground_motion: {synthetic: {seed: 1, pga: 1, duration: 1, dt: 0.01}}
analysis: {integrator: {type: newmark_explicit}, dt: 0.01, steps: 10}
YAML
"$HYSIM" pretest --config "$dir/site.yaml" -o "$dir/pt.json" --noise 2 --stiffness 0.1,0.5,3 \
    --dynamics 0.05,0.25,2 --test "$dir/test.yaml" --site lab >"$dir/out" 2>"$dir/err" ||
    fail "pretest exited with $?"
grep -q "transport delay 4 ticks" "$dir/out" || fail "no summary line: $(cat "$dir/out")"
python3 - "$dir/pt.json" <<'PY' || fail "the identified values"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["site"] == "east" and r["actuators"] == ["a1", "a2"], r
assert r["units"] == {"length": "mm", "force": "kN"}, r["units"]
K = [[3, -1], [-1, 2]]
s = r["stiffness"]
for i in range(2):
    for j in range(2):
        assert abs(s["K0l"][i][j] - K[i][j]) <= 0.01 * abs(K[i][j]), (i, j, s["K0l"])
        assert 0 < s["standard_error"][i][j] < 0.002
assert s["initial_stiffness"] == [[3.1, -1], [-1, 2]], s["initial_stiffness"]
d = s["difference_percent"][0][0]
assert abs(d - 100 * (s["K0l"][0][0] - 3.1) / 3.1) < 1e-6 and -4 < d < -2.5, d
for name, a, D in (("a1", 3, 0), ("a2", 8, 4)):
    g = r["dynamics"]["actuators"][name]
    assert abs(g["transport_delay"] - D) <= 1 and abs(g["a"] - a) <= 1, g
    assert abs(g["a_es"] - g["a"] - g["transport_delay"]) < 1e-6, g
    n = r["noise"]["channels"][name]
    assert abs(n["displacement"]["rms"] - 1e-4) <= 1e-5, n
    assert abs(n["force"]["rms"] - 2e-3) <= 2e-4, n
print("K0l", s["K0l"], "dynamics", r["dynamics"]["actuators"])
PY

# beyond the stroke: refused, exit 2, nothing written
"$HYSIM" pretest --config "$dir/site.yaml" -o "$dir/no.json" --stiffness 3 2>"$dir/err"
[ $? -eq 2 ] || fail "an amplitude beyond the stroke does not exit with 2"
grep -q "amplitude 3 exceeds its stroke 2" "$dir/err" || fail "message: $(cat "$dir/err")"
[ ! -e "$dir/no.json" ] || fail "a refused pretest wrote its file"
# a negative amplitude or a fractional count: refused, not replaced by a default
for bad in "--stiffness -0.1" "--dynamics 0.05,0.25,1.5" "--noise 0"; do
    "$HYSIM" pretest --config "$dir/site.yaml" -o "$dir/no.json" $bad 2>"$dir/err"
    [ $? -eq 2 ] || fail "$bad does not exit with 2"
    grep -q "give positive numbers separated by commas" "$dir/err" || fail "$bad: $(cat "$dir/err")"
done
[ ! -e "$dir/no.json" ] || fail "a refused pretest wrote its file"
# a force limit below the cycles' force: exit 1, the lab returned to zero, nothing written
sed 's/force_limit: 50/force_limit: 0.1/' "$dir/site.yaml" > "$dir/weak.yaml"
"$HYSIM" pretest --config "$dir/weak.yaml" -o "$dir/no.json" --stiffness 0.1 2>"$dir/err"
[ $? -eq 1 ] || fail "a force trip does not exit with 1"
grep -q "beyond its force limit 0.1" "$dir/err" || fail "message: $(cat "$dir/err")"
[ ! -e "$dir/no.json" ] || fail "a tripped pretest wrote its file"
echo "pretest: ok"
