#!/usr/bin/env bash
# The frame model's recorders from the test file (output.recorders, docs/outputs.md "Recorders"):
# a portal frame whose right column stands on a yielding rotational hinge (zero_length, bilinear)
#  - `hysim check` lists them with their responses and column counts;
#  - writes recorders/NAME.csv (header t and the column names, one row per record) and
#    /recorders/NAME in results.h5 with its response, column names, units, components and nodes or
#    elements;
#  - killed after step 170 (checkpoints every 25 steps) and resumed, leaves recorders/*.csv byte
#    for byte those of the run without interruption (the hinge's state and the records come back);
#  - through python/hysim (when /usr/bin/python3 has numpy and h5py): every recorder's table equals
#    its CSV bit for bit, the hinge's basic force is the base reaction moment of node 5 to
#    round-off, and the hinge yielded (|M| reached fy); with scipy, results.mat holds every
#    recorder as results.h5 does, bit for bit, with its names, units, response, nodes, elements and
#    components;
#  - examples/fe_two_story_frame.yaml's first-story columns: M_i = M_j = V h / 2 (the floors do not
#    rotate), V = -(the base reaction) at every record;
#  - examples/fe_two_story_frame_hybrid.yaml with the example's drift and roof recorders records
#    what the numerical run records, to round-off;
#  - a forced run (--force) into that folder with one recorder leaves only its own CSV;
#  - a recorder on a structure without a frame model is refused with FILE:LINE:COL.
# Usage: recorders.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$dir" || exit 1
cat > frame.yaml <<'YAML'
hysim: 1
name: recorders
units: {force: kN, length: m, time: s}
materials:
  hinge: {type: bilinear, k: 2e5, fy: 150, b: 0.05}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 6, y: 0, fix: [1, 1, 0]}
      - {id: 5, x: 6, y: 0, fix: [1, 1, 1]}
      - {id: 3, x: 0, y: 3.5, mass: [20, 0, 0]}
      - {id: 4, x: 6, y: 3.5, mass: [20, 0, 0]}
    elements:
      - {type: elastic_beam, name: c1, nodes: [1, 3], E: 30e6, A: 0.02, I: 2e-3}
      - {type: elastic_beam, name: c2, nodes: [2, 4], E: 30e6, A: 0.02, I: 2e-3}
      - {type: elastic_beam, name: b1, nodes: [3, 4], E: 30e6, A: 0.03, I: 4e-3}
      - {type: zero_length, name: hinge, nodes: [5, 2], dir: rz, material: hinge}
  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}
ground_motion: {synthetic: {seed: 11, pga: 6.0, duration: 4, dt: 0.01}}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 400
  checkpoint_every: 25
output:
  mat: true
  recorders:
    - {name: top, node: [3, 4], dofs: [x, rz], response: disp}
    - {name: top_v, node: 4, dofs: [x, y, rz], response: vel}
    - {name: top_a, node: [3], dofs: [x], response: abs_accel}
    - {name: base, node: [1, 5], dofs: [x, y, rz], response: reaction}
    - {name: cols, element: [c1, c2], response: local_force}
    - {name: hinge_m, element: hinge, response: basic_force}
    - {name: hinge_th, element: [hinge], response: deformation}
    - {name: drift, drift: {i: 1, j: 3, dof: x, perp: y}}
YAML
"$hysim" check frame.yaml > out 2>&1 || fail "check: $(cat out)"
grep -q "^recorders: top (disp, 4 columns), top_v (vel, 3 columns), top_a (abs_accel, 1 column), base (reaction, 6 columns), cols (local_force, 12 columns), hinge_m (basic_force, 1 column), hinge_th (deformation, 1 column), drift (drift, 1 column)$" out ||
    fail "check does not list the recorders: $(cat out)"
"$hysim" run frame.yaml -o full --quiet 2> err || fail "run: $(cat err)"
for r in top top_v top_a base cols hinge_m hinge_th drift; do
    [ "$(wc -l < "full/recorders/$r.csv")" -eq 402 ] || fail "$r.csv: $(wc -l < "full/recorders/$r.csv") lines, expected 402"
done
[ "$(head -1 full/recorders/top.csv)" = "t,n3_ux,n3_rz,n4_ux,n4_rz" ] || fail "top.csv header: $(head -1 full/recorders/top.csv)"
[ "$(head -1 full/recorders/cols.csv)" = "t,c1_N_i,c1_V_i,c1_M_i,c1_N_j,c1_V_j,c1_M_j,c2_N_i,c2_V_i,c2_M_i,c2_N_j,c2_V_j,c2_M_j" ] ||
    fail "cols.csv header: $(head -1 full/recorders/cols.csv)"
[ "$(head -1 full/recorders/hinge_m.csv)" = "t,hinge_F" ] || fail "hinge_m.csv header: $(head -1 full/recorders/hinge_m.csv)"
echo "recorders.sh: 8 recorders written, 401 records each"

HS_TEST_KILL_AT_STEP=170 "$hysim" run frame.yaml -o part --quiet 2> err
rc=$?
[ "$rc" -eq 137 ] || fail "the killed run exited $rc, expected 137: $(cat err)"
[ ! -e part/recorders ] || fail "a killed run already has recorders/"
"$hysim" run --resume part > out 2>&1 || fail "resume exited $?: $(cat out)"
grep -q "resumed from part/checkpoint.bin after step 150 of 400" out || fail "resume: $(cat out)"
for r in top top_v top_a base cols hinge_m hinge_th drift; do
    cmp -s "full/recorders/$r.csv" "part/recorders/$r.csv" || fail "$r.csv differs after the resume"
done
echo "recorders.sh: killed after step 170, resumed from step 150: every recorders/*.csv byte for byte"

py=/usr/bin/python3
if [ -x "$py" ] && "$py" -c 'import numpy, h5py' 2> /dev/null; then
    PYTHONPATH="$HS_SOURCE_DIR/python" "$py" - full <<'PY' || fail "python"
import csv, sys
import hysim

run = hysim.load(sys.argv[1])
assert run.recorders == ["base", "cols", "drift", "hinge_m", "hinge_th", "top", "top_a", "top_v"], run.recorders
for name in run.recorders:
    t = run.recorder(name)
    with open(f"{sys.argv[1]}/recorders/{name}.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == t.columns, (rows[0], t.columns)
    for k, row in enumerate(rows[1:]):
        for j, x in enumerate(row):
            assert float(x) == t[t.columns[j]][k], (name, k, j, x)
assert run.attrs["recorders/base/response"] == "reaction"
assert run.units("recorders/base") == ["kN", "kN", "kN*m"] * 2, run.units("recorders/base")
assert run.units("recorders/top_v") == ["m/s", "m/s", "rad/s"], run.units("recorders/top_v")
assert run.units("recorders/hinge_th") == ["rad"], run.units("recorders/hinge_th")
assert run.units("recorders/drift") == ["1"], run.units("recorders/drift")
assert list(run.attrs["recorders/top/nodes"]) == [3, 3, 4, 4], run.attrs["recorders/top/nodes"]
assert run.attrs["recorders/top/components"] == ["ux", "rz", "ux", "rz"]
assert list(run.attrs["recorders/drift/nodes"]) == [1, 3] and run.attrs["recorders/drift/components"] == ["ux"]
assert run.attrs["recorders/cols/elements"] == ["c1"] * 6 + ["c2"] * 6
assert run.attrs["recorders/cols/components"] == ["N_i", "V_i", "M_i", "N_j", "V_j", "M_j"] * 2
assert "recorders/cols/nodes" not in run.attrs and "recorders/top/elements" not in run.attrs
m, r = run.recorder("hinge_m")["hinge_F"], run.recorder("base")["n5_rz"]
peak, worst = abs(m).max(), abs(m + r).max()  # the hinge's force on node 5 is -M
print(f"recorders.sh: hinge moment peak {peak:.6g} kN m (fy 150), |M + R_5rz| <= {worst:.3g}")
assert peak > 150.0 and worst <= 1e-12 * peak
try:
    import scipy.io
except ImportError:
    print("recorders.sh: results.mat not read: no scipy (python3-scipy)")
    sys.exit(0)
mat = scipy.io.loadmat(f"{sys.argv[1]}/results.mat", squeeze_me=False)
for name in run.recorders:
    values = mat["recorders"][0, 0][name]
    assert (values == run[f"recorders/{name}"]).all(), name  # bit for bit, records x columns
    columns = [str(c[0]) for c in mat["names"][0, 0]["recorders"][0, 0][name][0]]
    units = [str(c[0]) if c.size else "" for c in mat["units"][0, 0]["recorders"][0, 0][name][0]]
    assert columns == run.names(f"recorders/{name}"), (columns, name)
    assert units == run.units(f"recorders/{name}"), (units, name)
    assert str(mat["response"][0, 0]["recorders"][0, 0][name][0]) == run.attrs[f"recorders/{name}/response"]
    for attr in ("nodes", "elements", "components"):
        key = f"recorders/{name}/{attr}"
        tree = mat[attr][0, 0]["recorders"][0, 0]
        if key not in run.attrs:
            assert name not in tree.dtype.names, (attr, name)
        elif attr == "nodes":
            assert list(tree[name][0]) == list(run.attrs[key]), (attr, name)
        else:
            assert [str(c[0]) for c in tree[name][0]] == run.attrs[key], (attr, name)
print("recorders.sh: results.mat (scipy.io.loadmat): every recorder, its names, units, response, nodes, elements and components as results.h5")
PY
else
    echo "recorders.sh: python part skipped: $py lacks numpy or h5py (apt-get install python3-numpy python3-h5py)"
fi

# examples/fe_two_story_frame.yaml: floors that cannot rotate bend each column in double curvature,
# M_i = M_j = V h / 2 (h = 3.2 m); the base reactions carry the story shears
"$hysim" run "$HS_SOURCE_DIR/examples/fe_two_story_frame.yaml" -o ex --quiet 2> err || fail "example: $(cat err)"
paste -d, ex/recorders/columns1.csv ex/recorders/base.csv | awk -F, 'NR > 1 {
        for (c = 0; c < 2; c++) { V = $(3 + 6 * c); Mi = $(4 + 6 * c); Mj = $(7 + 6 * c)
            d = Mi - V * 1.6; if (d < 0) d = -d; if (d > m) m = d
            d = Mj - V * 1.6; if (d < 0) d = -d; if (d > m) m = d
            d = V + $(15 + 2 * c); if (d < 0) d = -d; if (d > r) r = d
            a = V < 0 ? -V : V; if (a > p) p = a } }
    END { printf "recorders.sh: example frame: column shear peak %.5g kN; |M - V h / 2| <= %.3g kN m, |V + R_x| <= %.3g kN\n", p, m, r
          exit !(p > 10 && m <= 1e-9 * p && r <= 1e-9 * p) }' || fail "the example's column moments"

# the same frame with its first-story left column at a perfect virtual lab: the drifts and roof
# accelerations are the numerical run's to round-off (recorders work in hybrid runs too)
{ cat "$HS_SOURCE_DIR/examples/fe_two_story_frame_hybrid.yaml"
  sed -n '/^  recorders:/,$p' "$HS_SOURCE_DIR/examples/fe_two_story_frame.yaml" |
      grep -v 'columns1\|base'; } > hybrid.yaml
"$hysim" run hybrid.yaml -o hy --quiet 2> err || fail "hybrid: $(cat err)"
for r in story_drift1 story_drift2 roof; do
    paste -d, "ex/recorders/$r.csv" "hy/recorders/$r.csv" | awk -F, -v r="$r" 'NR > 1 {
            n = NF / 2; for (i = 2; i <= n; i++) { d = $i - $(i + n); if (d < 0) d = -d
                if (d > m) m = d; a = $i < 0 ? -$i : $i; if (a > p) p = a } }
        END { printf "recorders.sh: hybrid %s: largest difference %.3g (peak %.5g)\n", r, m, p
              exit !(NR == 1026 && p > 0 && m <= 1e-9 * p) }' || fail "hybrid $r differs"
done

# --force with other recorders: none of the earlier run's recorders/*.csv stays beside the new ones
sed -e '/- {name: top_v/,/- {name: drift/d' -e '/checkpoint_every/d' frame.yaml > one.yaml
"$hysim" run one.yaml -o full --force --quiet 2> err || fail "forced run: $(cat err)"
[ "$(ls full/recorders)" = "top.csv" ] || fail "after --force: $(ls full/recorders | tr '\n' ' ')"
echo "recorders.sh: --force removed the earlier run's 7 other recorder files"

sed -e '/^structure:/,/^ground_motion:/c\
structure: {dofs: 1, mass: [1], springs: [{name: s, from: ground, to: 1, material: hinge}], damping: {none: true}}\
ground_motion: {synthetic: {seed: 11, pga: 6.0, duration: 4, dt: 0.01}}' frame.yaml > sb.yaml
"$hysim" check sb.yaml > out 2>&1 && fail "a recorder without a frame model was accepted"
grep -q "sb.yaml:[0-9]*:[0-9]*: output.recorders: recorders name nodes and elements of structure.model" out ||
    fail "no FILE:LINE:COL: $(cat out)"
echo "recorders.sh: OK"
