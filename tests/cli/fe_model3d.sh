#!/usr/bin/env bash
# The frame model in 3-D and 1-D from the test file (docs/fe_model.md, docs/testfile.md):
#  - examples/fe_3d_floor.yaml: `hysim modes` names the rigid floor's master DOFs;
#  - a control point on a rigid-diaphragm slave (node 11, dofs [x, y]): the actuators' T comes
#    from the floor's geometry (u_11 = u_m - dy rz, v_11 = v_m + dx rz); a perfect virtual lab
#    with a linear specimen diag(kx, ky) responds as the same frame with two zero-length springs
#    at node 11, to round-off;
#  - a 6-DOF control point (x, y, z, rx, ry, rz of a column top) at a perfect lab with a diagonal
#    specimen responds as six zero-length springs in the model, to round-off;
#  - a 1-D chain (ndm: 1) of zero-length springs and a truss has the shear building's periods;
#  - bad 3-D / 1-D input names FILE:LINE:COL.
# Usage: fe_model3d.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
example="$here/../../examples/fe_3d_floor.yaml"
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/frame_models.sh"
work_dir

"$hysim" modes "$example" > modes.out 2>&1 || fail "modes: $(cat modes.out)"
grep -q '^DOFs: 1 = n100_ux, 2 = n100_uy, 3 = n100_rz (12 massless DOFs condensed)$' \
    modes.out || fail "modes: DOF names: $(cat modes.out)"
echo "3-D floor: $(grep '^DOFs' modes.out)"

# numerical: springs at node 11; hybrid: the same stiffness at a perfect lab through node 11
analysis='analysis:
  integrator: {type: central_difference}
  dt: 0.009765625
  steps: 1024'
sed -e '/^analysis:/,$d' -e 's/^    elements:$/    elements:\
      - {type: zero_length, name: spx, nodes: [1, 11], dir: x, material: spx}\
      - {type: zero_length, name: spy, nodes: [1, 11], dir: y, material: spy}/' "$example" > num.yaml
cat >> num.yaml <<YAML
$analysis
materials:
  spx: {type: elastic, k: 3000}
  spy: {type: elastic, k: 5000}
YAML
sed -e '/^analysis:/,$d' "$example" > hyb.yaml
cat >> hyb.yaml <<YAML
$analysis
experimental:
  - {name: col, site: lab, control_point: {node: 11, dofs: [x, y]}, actuators: [ax, ay]}
sites:
  lab:
    kind: virtual
    rate: 1024
    perfect: true
    actuators:
      ax: {delay_samples: 3}
      ay: {delay_samples: 3}
    sensors: {displacement: {rms: 0.001}}
    specimen: {type: linear, K: [[3000, 0], [0, 5000]]}
YAML
"$hysim" run num.yaml -o num --quiet 2> err || fail "numerical run: $(cat err)"
"$hysim" run hyb.yaml -o hyb --quiet 2> err || fail "hybrid run: $(cat err)"
[ "$(wc -l < num/response.csv)" -gt 1000 ] || fail "numerical run too short"
[ "$(wc -l < num/response.csv)" = "$(wc -l < hyb/response.csv)" ] || fail "row counts differ"
same_response "3-D hybrid on a diaphragm slave vs numerical" num/response.csv hyb/response.csv 1e-12 1e-3 || fail "the hybrid floor differs from the numerical one"

# a 6-DOF control point (a loading box on a column top, node 2: x, y, z, rx, ry, rz) at a perfect
# lab with a diagonal specimen equals six zero-length springs in the model
six() { column_top_3d "$@"; } # lib/frame_models.sh
springs=$(for d in x y z rx ry rz; do echo "      - {type: zero_length, nodes: [1, 2], dir: $d, material: k$d}"; done)
six six_num.yaml "$springs"
six six_hyb.yaml ""
cat >> six_hyb.yaml <<'YAML'
experimental:
  - {name: box, site: lab, control_point: {node: 2, dofs: [x, y, z, rx, ry, rz]},
     actuators: [a1, a2, a3, a4, a5, a6]}
sites:
  lab:
    kind: virtual
    rate: 1024
    perfect: true
    actuators: {a1: {}, a2: {}, a3: {}, a4: {}, a5: {}, a6: {}}
    sensors: {displacement: {rms: 0.001}}
    specimen: {type: linear, K: [[3000, 0, 0, 0, 0, 0], [0, 4000, 0, 0, 0, 0], [0, 0, 5000, 0, 0, 0],
                                 [0, 0, 0, 600, 0, 0], [0, 0, 0, 0, 700, 0], [0, 0, 0, 0, 0, 800]]}
YAML
"$hysim" run six_num.yaml -o six_num --quiet 2> err || fail "six-DOF numerical run: $(cat err)"
"$hysim" run six_hyb.yaml -o six_hyb --quiet 2> err || fail "six-DOF hybrid run: $(cat err)"
[ "$(wc -l < six_num/response.csv)" -gt 1000 ] || fail "six-DOF numerical run too short"
same_response "6-DOF control point vs numerical" six_num/response.csv six_hyb/response.csv 1e-12 1e-3 || fail "the 6-DOF hybrid differs from the numerical model"

# 1-D chain vs the shear building
cat > chain.yaml <<YAML
hysim: 1
name: chain
units: {force: kN, length: m, time: s}
materials:
  k1: {type: elastic, k: 40000}
  k3: {type: elastic, k: 20000}
structure:
  model:
    ndm: 1
    nodes:
      - {id: 1, x: 0, fix: [1]}
      - {id: 2, x: 2, mass: [20]}
      - {id: 3, x: 4, mass: [15]}
      - {id: 4, x: 6, mass: [10]}
    elements:
      - {type: zero_length, nodes: [1, 2], dir: x, material: k1}
      - {type: truss, nodes: [2, 3], E: 60000, A: 1}
      - {type: zero_length, nodes: [3, 4], dir: x, material: k3}
$(modes_only_tail)
YAML
cat > sb.yaml <<YAML
hysim: 1
name: sb
units: {force: kN, length: m, time: s}
materials:
  k1: {type: elastic, k: 40000}
  k2: {type: elastic, k: 30000}
  k3: {type: elastic, k: 20000}
structure:
  dofs: 3
  mass: [20, 15, 10]
  shear_building:
    stories: [{material: k1}, {material: k2}, {material: k3}]
$(modes_only_tail)
YAML
"$hysim" modes chain.yaml > chain.out 2>&1 || fail "chain modes: $(cat chain.out)"
"$hysim" modes sb.yaml > sb.out 2>&1 || fail "shear building modes: $(cat sb.out)"
read -r a1 a2 a3 <<< "$(periods chain.out)"
read -r b1 b2 b3 <<< "$(periods sb.out)"
for k in 1 2 3; do
    eval "a=\$a$k b=\$b$k"
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "1-D chain period $k: $a s, shear building $b s"
done
grep -q '^DOFs: 1 = n2_ux, 2 = n3_ux, 3 = n4_ux' chain.out || fail "chain DOFs: $(cat chain.out)"
echo "1-D chain: T = $a1, $a2, $a3 s (shear building $b1, $b2, $b3 s)"

# errors point at the line
bad() { # NAME SED-EXPR FILE EXPECTED
    sed "$2" "$3" > "$1.yaml"
    "$hysim" check "$1.yaml" > out 2>&1 && fail "$1: passed"
    grep -q "$1.yaml:[0-9]*:[0-9]*: .*$4" out || fail "$1: message: $(cat out)"
}
bad z2d 's/- {id: 2, x: 2, mass: \[20\]}/- {id: 2, x: 2, y: 1, mass: [20]}/' chain.yaml \
    "a 1-D model has no y coordinate"
bad beamI 's/Iy: 1.5e-4, Iz: 3e-4, vecxz: \[1, 0, 0\], transf: pdelta, axial_compression: 500}/I: 1, Iy: 1.5e-4, Iz: 3e-4, vecxz: [1, 0, 0]}/' \
    "$example" "a 3-D beam takes Iy and Iz (and G, J, vecxz), not I"
bad novec 's/, vecxz: \[0, 1, 1\]//' "$example" "vecxz"
bad parallel 's/Iy: 1.5e-4, Iz: 3e-4, vecxz: \[1, 0, 0\]/Iy: 1.5e-4, Iz: 3e-4, vecxz: [0, 0, 3]/' "$example" \
    "vecxz (0, 0, 3) is parallel to the element's axis"
bad fixedslave 's/- {id: 12, x: 6, y: 0, z: 3.5}/- {id: 12, x: 6, y: 0, z: 3.5, fix: [1, 1, 1, 1, 1, 1]}/' "$example" \
    "rigid_diaphragm: node 12 ux is fixed; a fixed DOF cannot follow node 100"
bad exrz 's/excitation: y/excitation: rz/' "$example" "the ground moves in x, y or z, not rz"
bad dirw 's/dir: x, material: k1/dir: w, material: k1/' chain.yaml "expected a direction x, got 'w'"
bad perp 's/perp: z/perp: q/' "$example" "the perpendicular direction is x, y or z, got 'q'"
bad twice 's/slaves: \[11, 12, 13, 14\]/slaves: [11, 12, 13, 14, 12]/' "$example" \
    "node 12 ux already follows node 100 (rigid_diaphragm); a DOF follows one master"
echo "fe_model3d.sh: ok"
