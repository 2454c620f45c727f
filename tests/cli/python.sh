#!/usr/bin/env bash
# The Python module (python/hysim) on a real run folder: a short two-story run (an elastic and a
# bilinear story), loaded with hysim.load, must give back what the C side wrote: the response
# table equal bit for bit to response.csv parsed independently (csv + float), the results.h5
# displacement equal to it too, summary.json's peak |d| (computed in C) equal to the maximum over
# the loaded arrays, the energy balance's last record equal to summary.json's energy, units and
# spring names as written, and `python3 -m hysim DIR` listing the datasets. Runs
# /usr/bin/python3 (Debian's, with python3-numpy and python3-h5py); skips with a message when
# they are missing. Usage: python.sh PATH_TO_hysim
set -u
hysim=$1
py=/usr/bin/python3
if ! "$py" -c "import numpy, h5py" 2>/dev/null; then
    echo "python.sh: skipped: $py lacks numpy or h5py (apt-get install python3-numpy python3-h5py)"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

. "$(dirname "$0")/lib/two_story_building.sh"
{ two_story_building two-story-python 150.0 4 "{type: hht, alpha: -0.1}" brace; cat <<'YAML'
output:
  mat: true
YAML
} > "$dir/two.yaml"
"$hysim" run "$dir/two.yaml" -o "$dir/out" --quiet || fail "hysim run failed"

cat >"$dir/check.py" <<'PY'
import csv, struct, sys
import numpy as np
import hysim

folder = sys.argv[1]
run = hysim.load(folder)
bits = lambda x: struct.pack("<d", float(x))

# response.csv parsed here, independently of the module
with open(f"{folder}/response.csv", newline="") as f:
    rows = list(csv.reader(f))
header, rows = rows[0], rows[1:]
assert header == ["t", "floor1", "floor2"], header  # a shear building's DOFs are its floors
assert run.dof_names == ["floor1", "floor2"] and run.names("velocity") == ["floor1", "floor2"], run.dof_names
assert len(run.response) == len(rows) == run.records == run.summary["records"] == 401, (len(rows), run.records)
for k, row in enumerate(rows):
    for j, name in enumerate(header):
        x = float(row[j])
        assert bits(run.response[name][k]) == bits(x), (name, k)
        h5 = run["time"][k] if j == 0 else run["displacement"][k, j - 1]
        assert bits(h5) == bits(x), ("results.h5 differs from response.csv", name, k, h5, x)

# summary.json (computed in C) against the arrays
d = run["displacement"]
for j in range(2):
    peak = float(np.max(np.abs(d[:, j])))
    assert bits(peak) == bits(run.summary["peak_abs_disp"][j]), (j, peak, run.summary["peak_abs_disp"][j])
for name in ("input", "kinetic", "damping", "strain", "experimental"):
    assert bits(run[f"energy/{name}"][-1]) == bits(run.summary["energy"][name]), name
assert bits(run["energy/error_rel"][-1]) == bits(run.summary["energy"]["error_rel"])

# names and units as written
assert run.units("displacement") == "in" and run.units("springs/force") == "kip", run.units("springs/force")
assert run.units("energy/input") == "kip*in"
assert run.names("springs/force") == ["story1", "story2"], run.names("springs/force")
assert run.attrs["status"] == "completed" and run.attrs["units_length"] == "in", run.attrs
t = run.table()
assert len(t) == 401 and t.columns[:6] == ["t", "ag", "d_floor1", "d_floor2", "v_floor1", "v_floor2"], t.columns
assert bits(t["d_floor2"][200]) == bits(d[200, 1]) and t.units["d_floor1"] == "in"
assert t.array().shape == (401, len(t.columns))
# the bilinear story yielded: its force went past fy = 0.25
f2 = run["springs/force"][:, 1]
assert np.max(np.abs(f2)) > 0.25, np.max(np.abs(f2))
# results.mat through scipy.io.loadmat (MAT v5), when scipy is installed (python3-scipy)
try:
    import scipy.io
except ImportError:
    print("python.sh: results.mat not read: no scipy (python3-scipy)")
else:
    m = scipy.io.loadmat(f"{folder}/results.mat")
    for path in ("displacement", "velocity", "springs/force", "energy/input"):
        x = m
        for part in path.split("/"):
            x = x[part] if isinstance(x, dict) else x[0, 0][part]
        y = run[path] if run[path].ndim == 2 else run[path].reshape(-1, 1)
        assert x.shape == y.shape and x.tobytes() == y.tobytes(), path
    assert m["units"]["springs"][0, 0]["force"][0, 0][0] == "kip"
    assert [c[0] for c in m["names"][0, 0]["displacement"][0]] == ["floor1", "floor2"], m["names"][0, 0]["displacement"]
    print("python.sh: scipy.io.loadmat reads results.mat, equal to results.h5 bit for bit")
print(f"python.sh: {len(rows)} records, {2 * len(rows)} displacements identical in CSV, results.h5 "
      f"and the module; peak |d| {run.summary['peak_abs_disp']} in; story 2 peak force "
      f"{np.max(np.abs(f2)):.4g} kip (yield 0.25)")
PY
PYTHONPATH="${HS_SOURCE_DIR:?}/python" "$py" "$dir/check.py" "$dir/out" || fail "the Python checks failed"
PYTHONPATH="$HS_SOURCE_DIR/python" "$py" -m hysim "$dir/out" >"$dir/list.txt" 2>&1 || fail "python3 -m hysim: $(cat "$dir/list.txt")"
grep -q "two-story-python: completed, 400 steps" "$dir/list.txt" || fail "python3 -m hysim: $(head -3 "$dir/list.txt")"
grep -q "springs/force .* 401 x 2  kip" "$dir/list.txt" || fail "python3 -m hysim lacks springs/force: $(cat "$dir/list.txt")"
PYTHONPATH="$HS_SOURCE_DIR/python" "$py" -m hysim "$dir/nothing" 2>"$dir/err" && fail "a missing folder was accepted"
grep -q "not a folder" "$dir/err" || fail "no reason for a missing folder: $(cat "$dir/err")"
