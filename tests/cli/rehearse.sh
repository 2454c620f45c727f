#!/usr/bin/env bash
# hysim run --rehearse on a remote-site test file, in-process on the site's virtual twin:
#  1. a perfect twin ticks once per step (in simulated time), so the tick-level peaks in
#     summary.json must equal the run's own records exactly: max |d| (stroke),
#     max |d(k) - d(k-1)| / dt (velocity), max |K d| (force), and each ratio is peak / limit;
#  2. a servo twin (a = 3, 2 ticks of transport delay, an inverse compensator written with
#     a_es = 1) updated by `hysim pretest` results: the identified delay is applied (a_es = a + D
#     within one tick in summary.json), the ratios are the peaks over the limits, and the command
#     peak is no less than the structure's peak displacement;
#  3. a remote site with neither twin nor specimen is refused (exit 2) with what to write;
#  and hysim report shows the twin's limits and peaks for the remote site.
set -u
HYSIM=${1:?usage: rehearse.sh PATH_TO_hysim}
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 is not available to read the JSON"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; cat "$dir/err" 2>/dev/null; exit 1; }

cat > "$dir/perfect.yaml" <<'YAML'
site:
  name: east
  plain: true
  perfect: true
  actuators:
    a1: {stroke: 5, velocity_limit: 100, force_limit: 50}
    a2: {stroke: 4, velocity_limit: 80, force_limit: 40}
  specimen: {type: linear, K: [[3, -1], [-1, 2]]}
YAML
test_file() { # $1 twin, $2 extra keys of the site entry
    cat <<YAML
hysim: 1
name: rehearsal
units: {force: kN, length: mm, time: s}
structure: {dofs: 2, mass: [0.01, 0.01], damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}}
experimental:
  - {name: frame, site: lab, dofs: [1, 2], T: [[1, 0], [0, 1]], actuators: [a1, a2],
     initial_stiffness: [[3, -1], [-1, 2]]}
sites:
  lab: {kind: remote, url: "hysim://127.0.0.1:9", plain: true, actuators: {a1: {}, a2: {}}$1}
ground_motion: {synthetic: {seed: 1, pga: 400, duration: 2, dt: 0.01}}
analysis: {integrator: {type: newmark_explicit}, dt: 0.01, steps: 200, time_scale: 2, clock: real}
YAML
}
test_file ", twin: perfect.yaml" > "$dir/t1.yaml"
"$HYSIM" run "$dir/t1.yaml" --rehearse -o "$dir/r1" >"$dir/out" 2>"$dir/err" ||
    fail "perfect rehearsal exited with $?: $(cat "$dir/out")"
grep -q "rehearsal: site lab: virtual twin from .*perfect.yaml" "$dir/out" || fail "no twin note"
grep -q "^lab.a2:  stroke" "$dir/out" || fail "no limits table: $(cat "$dir/out")"
python3 - "$dir/r1" <<'PY' || fail "perfect twin: peaks against the records"
import csv, json, sys
run = sys.argv[1]
s = json.load(open(run + "/summary.json"))
site = s["sites"][0]
assert site["rehearsal"] is True, site
rows = [[float(v) for v in r] for r in list(csv.reader(open(run + "/response.csv")))[1:]]
d = [[r[1], r[2]] for r in rows]
h = 0.01  # a perfect lab ticks once per step, in the simulation's own time (dt)
K = [[3, -1], [-1, 2]]
limits = [(5, 100, 50), (4, 80, 40)]
for j, a in enumerate(site["actuators"]):
    L = a["limits"]
    peak_x = max(abs(x[j]) for x in d)
    peak_v = max(abs(d[k][j] - d[k - 1][j]) / h for k in range(1, len(d)))
    peak_f = max(abs(K[j][0] * x[0] + K[j][1] * x[1]) for x in d)
    for name, want, lim in (("stroke", peak_x, limits[j][0]), ("velocity", peak_v, limits[j][1]),
                            ("force", peak_f, limits[j][2])):
        got = L[name]
        assert abs(got["peak"] - want) <= 1e-5 * want, (j, name, got, want)
        assert got["limit"] == lim and abs(got["ratio"] - got["peak"] / lim) <= 1e-5 * got["ratio"], got
    assert 0.2 < L["stroke"]["ratio"] < 1, L  # the record moves the actuators, within limits
print("perfect twin:", [a["limits"] for a in site["actuators"]])
PY

# the report shows the twin's limits and peaks for the remote site, as summary.json gives them
"$HYSIM" report "$dir/r1" --test "$dir/t1.yaml" --no-plots >/dev/null 2>"$dir/err" ||
    fail "report exited with $?"
want=$(python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))["sites"][0]["actuators"][1]["limits"]["stroke"]
print("%.4g</td><td>mm</td><td class=\"n\">%.3g %%" % (a["peak"], 100 * a["ratio"]))' "$dir/r1/summary.json")
grep -q "<tr><td>lab.a2</td><td>stroke (twin)</td><td class=\"n\">4</td><td class=\"n\">$want" \
    "$dir/r1/report.html" || fail "report: no twin stroke row with $want"
echo "report row: $want"

# 2. a servo twin and its pretest
cat > "$dir/servo.yaml" <<'YAML'
site:
  name: east
  plain: true
  rate: 1024
  seed: 9
  actuators:
    a1: {delay_samples: 3, transport_delay: 2, stroke: 5, velocity_limit: 100, force_limit: 50}
    a2: {delay_samples: 3, transport_delay: 2, stroke: 4, velocity_limit: 80, force_limit: 40}
  sensors: {displacement: {rms: 0.0001}, force: {rms: 0.001}}
  specimen: {type: linear, K: [[3, -1], [-1, 2]]}
  compensation: {type: inverse, a_es: 1}
YAML
"$HYSIM" pretest --config "$dir/servo.yaml" -o "$dir/pt.json" --noise 0.5 --stiffness 0.1 \
    --dynamics 0.05 >/dev/null 2>"$dir/err" || fail "pretest exited with $?"
test_file ", twin: servo.yaml, pretest: pt.json" > "$dir/t2.yaml"
"$HYSIM" run "$dir/t2.yaml" --rehearse -o "$dir/r2" >"$dir/out" 2>"$dir/err" ||
    fail "servo rehearsal exited with $?: $(cat "$dir/out")"
grep -q "rehearsal: site lab: compensation inverse starts from a_es = " "$dir/out" ||
    fail "a_es not applied: $(cat "$dir/out")"
python3 - "$dir/r2" <<'PY' || fail "servo twin"
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
site = s["sites"][0]
assert site["rehearsal"] is True and s["status"] == "completed", s["status"]
for j, a in enumerate(site["actuators"]):
    assert abs(a["a_es"] - 5) <= 1, a  # a + D identified by the pretest, not the file's 1
    L = a["limits"]
    for name in ("stroke", "velocity", "force"):
        assert abs(L[name]["ratio"] - L[name]["peak"] / L[name]["limit"]) <= 1e-5 * L[name]["ratio"]
    assert L["stroke"]["peak"] >= 0.98 * s["peak_abs_disp"][j], (L, s["peak_abs_disp"])
    assert L["stroke"]["peak"] <= 1.1 * s["peak_abs_disp"][j], (L, s["peak_abs_disp"])
print("servo twin:", [(a["a_es"], a["limits"]["stroke"]) for a in site["actuators"]])
PY

# 3. no model: refused
test_file "" > "$dir/t3.yaml"
"$HYSIM" run "$dir/t3.yaml" --rehearse -o "$dir/r3" >"$dir/out" 2>"$dir/err"
[ $? -eq 2 ] || fail "a site without a model does not exit with 2"
grep -q "site lab: --rehearse needs the laboratory's model: give \`twin: SITE.yaml\`" "$dir/err" ||
    fail "message: $(cat "$dir/err")"
[ ! -e "$dir/r3/summary.json" ] || fail "a refused rehearsal wrote results"
echo "rehearse: ok"
