#!/usr/bin/env bash
# Every input traced (docs/outputs.md, "Trace"; issue 17, section 4). A Tcl model that sources a
# second file, a record file, a remote site with a key, run with --set analysis.time_scale=3 over
# the file's 2. Checked independently of hysim:
#  - summary.json's trace: the override, the effective definition (time_scale: 3), every input's
#    size (stat) and SHA-256 (sha256sum), the key by its fingerprint (SHA-256 of "hysim key
#    fingerprint" and the key's 32 bytes, hashlib) and the key itself nowhere in the run folder,
#    `hysim version`, the host name, start <= end within the test's own clock;
#  - results.h5's /trace (h5py): the same, and the embedded texts equal to the files' bytes;
#  - results.mat's trace (scipy.io.loadmat): the same overrides and hashes;
#  - the Python module: run.trace and run.input_text;
#  - hysim report: the effective time scale 3, the override and every hash; an edited test file
#    is reported as changed since the run.
# Python parts run /usr/bin/python3 and are skipped with a message without numpy/h5py/scipy.
# Usage: trace.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
. "$here/lib/two_story_lab.sh"
. "$here/lib/lab_procs.sh"
cd "$dir" || exit 1
start_east_site 50.0

mkdir -p model
cat > model/frame.tcl <<'TCL'
model BasicBuilder -ndm 1 -ndf 1
node 1 0
node 2 0 -mass 1
node 3 0 -mass 1
fix 1 1
source stories.tcl
TCL
cat > model/stories.tcl <<'TCL'
uniaxialMaterial Elastic 1 50
uniaxialMaterial Elastic 2 100
element zeroLength 1 1 2 -mat 1 -dir 1 -doRayleigh 1
element zeroLength 2 2 3 -mat 2 -dir 1 -doRayleigh 1
rayleigh 0.1 0.001 0 0
TCL
awk 'BEGIN { for (i = 0; i <= 200; i++) printf "%.6f\n", 0.5 * sin(i * 0.1) }' > rec.txt
cat > test.yaml <<YAML
hysim: 1
name: traced
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: model/frame.tcl}
experimental:
  - {name: col, site: east, control_point: {node: 2, dofs: [x]}, actuators: [a1], initial_stiffness: [[50.0]]}
sites:
  east: {kind: remote, url: "hysim://127.0.0.1:$port", key: east.key, actuators: {a1: {}}}
ground_motion:
  file: rec.txt
  format: columns
  dt: 0.01
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 50
  time_scale: 2
  site_timeout: 5
output:
  mat: true
YAML
before=$(date -u +%Y-%m-%dT%H:%M:%SZ)
"$hysim" run test.yaml -o run --set analysis.time_scale=3 --quiet > run.log 2>&1 ||
    fail "the run exited $?: $(tail -3 run.log)"
after=$(date -u +%Y-%m-%dT%H:%M:%SZ)
version=$("$hysim" version | awk '{ print $2 }')
# the inputs as the trace must list them: role|path|size|sha256
{
    for f in test.yaml:test\ file model/frame.tcl:structure.model.opensees \
        model/stories.tcl:structure.model.opensees:\ source rec.txt:ground_motion.file; do
        p=${f%%:*} role=${f#*:}
        echo "$role|$dir/$p|$(stat -c %s "$p")|$(sha256sum "$p" | cut -c1-64)"
    done
} > want.txt
py=/usr/bin/python3
if ! "$py" -c "import numpy, h5py, scipy.io" 2>/dev/null; then
    echo "trace.sh: skipped: $py lacks numpy, h5py or scipy (apt-get install python3-numpy python3-h5py python3-scipy)"
    exit 0
fi
PYTHONPATH="$here/../../python" "$py" - "$dir" "$version" "$(hostname)" "$before" "$after" > py.log 2>&1 <<'PY' || fail "$(cat py.log)"
import hashlib, json, os, sys
import h5py, numpy as np, scipy.io
import hysim

folder, version, host, before, after = sys.argv[1:6]
run_dir = os.path.join(folder, "run")
want = [line.rstrip("\n").split("|") for line in open(os.path.join(folder, "want.txt"))]
key_hex = open(os.path.join(folder, "east.key")).read().strip()
fingerprint = hashlib.sha256(b"hysim key fingerprint" + bytes.fromhex(key_hex)).hexdigest()
want.append(["sites.east.key (fingerprint)", os.path.join(folder, "east.key"), "0", fingerprint])

t = json.load(open(os.path.join(run_dir, "summary.json")))["trace"]
assert t["overrides"] == ["analysis.time_scale=3"], t["overrides"]
assert "\n  time_scale: 3\n" in t["effective"], t["effective"]
assert "time_scale: 2" in open(os.path.join(folder, "test.yaml")).read()
got = [[i["role"], i["path"], str(i["size"]), i["sha256"]] for i in t["inputs"]]
assert got == want, ("inputs", got, want)
assert t["version"] == version and t["host"] == host, (t["version"], t["host"])
assert before <= t["start"] <= t["end"] <= after, (before, t["start"], t["end"], after)
assert t["accepted_warnings"] == [] and t["resumed_from"] == ""
for name in ("summary.json", "results.h5", "results.mat", "response.csv"):
    data = open(os.path.join(run_dir, name), "rb").read()
    assert key_hex.encode() not in data and bytes.fromhex(key_hex) not in data, f"the key is in {name}"

with h5py.File(os.path.join(run_dir, "results.h5"), "r") as f:
    g = f["trace"]
    text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
    assert [text(x) for x in g.attrs["overrides"]] == t["overrides"]
    h5 = list(zip([text(x) for x in g.attrs["input_roles"]], [text(x) for x in g.attrs["input_paths"]],
                  [str(x) for x in g.attrs["input_sizes"]], [text(x) for x in g.attrs["input_sha256"]]))
    assert [list(x) for x in h5] == want, ("results.h5", h5)
    assert text(g["effective"][()]) == t["effective"]
    texts = [text(x) for x in g["texts"][()]]
    for (role, path, size, sha), body in zip(want, texts):
        if role in ("test file", "structure.model.opensees", "structure.model.opensees: source"):
            assert body == open(path).read(), ("embedded text", path)
        else:
            assert body == "", ("a text embedded for", path)
    assert text(g.attrs["version"]) == version and text(g.attrs["start"]) == t["start"]

m = scipy.io.loadmat(os.path.join(run_dir, "results.mat"), simplify_cells=True)["trace"]
assert m["overrides"] == "analysis.time_scale=3" or list(np.atleast_1d(m["overrides"])) == t["overrides"], m["overrides"]
assert list(np.atleast_1d(m["inputs"]["sha256"])) == [w[3] for w in want], m["inputs"]
assert [int(x) for x in np.atleast_1d(m["inputs"]["size"])] == [int(w[2]) for w in want]
assert m["effective"] == t["effective"] and m["host"] == host

run = hysim.load(run_dir)
assert run.trace["overrides"] == t["overrides"]
assert run.input_text(want[1][1]) == open(want[1][1]).read()
print(f"trace: {len(want)} inputs, hashes and sizes equal in summary.json, results.h5 and results.mat; "
      f"texts embedded; key fingerprint {fingerprint[:16]}..., the key itself nowhere; "
      f"{t['start']} .. {t['end']} on {host}, hysim {version} ({t['build']})")
PY
cat py.log

# the report: the effective values and the inputs
"$hysim" report run --no-plots > report.log 2>&1 || fail "report: $(cat report.log)"
tr -d '\n' < run/report.html > report.txt
grep -q '<tr><th>time scale</th><td>3 (wall seconds per test second)</td></tr>' report.txt ||
    fail "the report does not print the effective time scale 3: $(grep -o 'time scale</th><td>[^<]*' report.txt)"
grep -q '<tr><th>overrides (--set)</th><td>analysis.time_scale=3</td></tr>' report.txt || fail "the report lacks the override"
while IFS='|' read -r role path size sha; do
    grep -q "<td>$path</td><td class=\"n\">$size</td><td>$sha</td>" report.txt || fail "the report lacks $path ($sha)"
done < want.txt
grep -q "changed since the run" report.txt && fail "an unchanged test file reported as changed"
echo "# edited" >> test.yaml
"$hysim" report run --no-plots > report.log 2>&1 || fail "report: $(cat report.log)"
grep -q "the test file changed since the run" run/report.html || fail "an edited test file is not reported"
echo "report: time scale 3 (the override, the file says 2), $(wc -l < want.txt) input hashes; an edited test file is reported"
exit 0
