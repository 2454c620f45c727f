#!/usr/bin/env bash
# The two-node link element from the test file (structure.model, type two_node_link,
# docs/fe_model.md):
#  - a vertical link of length L = 2 with a shear spring ky and a rotational spring kr, its top
#    rotation massless (condensed): the lateral stiffness is that of the two in series through the
#    shear distance (1 - s) L = 1: k = ky kr / (kr + ky); `hysim modes` against 2 pi sqrt(m / k);
#  - bad input names FILE:LINE:COL;
#  - the same frame as an OpenSees Tcl script (element twoNodeLink -shearDist -orient) read by
#    hysim (structure.model.opensees) has the YAML model's periods to every printed digit; its
#    -pDelta ratios whose sum exceeds 1 are refused with SCRIPT:LINE and the ratios OpenSees
#    would scale them to;
#  - with OPENSEES=/path/to/OpenSees, a frame on skewed links (shear distance 0.3, orient) has
#    OpenSees' eigen periods (twoNodeLink, -fullGenLapack); skipped with a message otherwise.
# Usage: fe_link.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

cat > col.yaml <<YAML
hysim: 1
name: link_column
units: {force: kN, length: m, time: s}
materials:
  shear: {type: elastic, k: 4000}
  rot: {type: elastic, k: 1000}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 0, y: 2, fix: [0, 1, 0], mass: [10, 0, 0]}
    elements:
      - {type: two_node_link, nodes: [1, 2], dirs: [y, rz], materials: [shear, rot]}
$(modes_only_tail)
YAML
"$hysim" modes col.yaml > m.out 2>&1 || fail "modes: $(cat m.out)"
t1=$(awk '$1 == 1 { print $2 }' m.out)
e1=$(awk 'BEGIN { k = 4000 * 1000 / (1000 + 4000); printf "%.10g", 2 * atan2(0, -1) * sqrt(10 / k) }')
near "$t1" "$e1" 1e-4 || fail "link column T1 = $t1, closed form $e1: $(cat m.out)"
echo "link column: T1 = $t1 s (closed form $e1 s)"

sed 's/dirs: \[y, rz\], materials: \[shear, rot\]/dirs: [y, rz], materials: [shear]/' col.yaml > bad.yaml
refused bad.yaml "one material for two directions" "bad.yaml:13:[0-9]*: .*materials: expected a list of 2 material names"
sed 's/dirs: \[y, rz\]/dirs: [y, z]/' col.yaml > bad2.yaml
refused bad2.yaml "a bad direction" "bad2.yaml:13:[0-9]*: .*dirs\[2\]: expected a direction x, y or rz"
sed 's/materials: \[shear, rot\]}/materials: [shear, rot], dir: x}/' col.yaml > bad3.yaml
refused bad3.yaml "a zero-length key on a link" "bad3.yaml:13:[0-9]*: .*'dir' does not apply to a two_node_link element"

# two columns on skewed links with a beam across, against OpenSees
cat > frame.yaml <<YAML
hysim: 1
name: link_frame
units: {force: kN, length: m, time: s}
materials:
  ax: {type: elastic, k: 50000}
  sh: {type: elastic, k: 3000}
  rot: {type: elastic, k: 8000}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 5, y: 0, fix: [1, 1, 1]}
      - {id: 3, x: 0.5, y: 3, mass: [12, 12, 0]}
      - {id: 4, x: 5, y: 3, mass: [12, 12, 0]}
    elements:
      - {type: two_node_link, nodes: [1, 3], dirs: [x, y, rz], materials: [ax, sh, rot],
         shear_dist: 0.3}
      - {type: two_node_link, nodes: [2, 4], dirs: [x, y, rz], materials: [ax, sh, rot],
         orient: [0.2, 1, 0]}
      - {type: elastic_beam, nodes: [3, 4], E: 30e6, A: 0.03, I: 4e-3}
$(modes_only_tail)
YAML
"$hysim" modes frame.yaml > fm.out 2>&1 || fail "frame modes: $(cat fm.out)"
read -r p1 p2 p3 _ <<< "$(periods fm.out)"
cat > frame.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 5 0; node 3 0.5 3; node 4 5 3
fix 1 1 1 1; fix 2 1 1 1
mass 3 12 12 0; mass 4 12 12 0
uniaxialMaterial Elastic 1 50000
uniaxialMaterial Elastic 2 3000
uniaxialMaterial Elastic 3 8000
element twoNodeLink 1 1 3 -mat 1 2 3 -dir 1 2 3 -shearDist 0.3
element twoNodeLink 2 2 4 -mat 1 2 3 -dir 1 2 3 -orient 0.2 1 0
geomTransf Linear 1
element elasticBeamColumn 3 3 4 0.03 30e6 4e-3 1
set lam [eigen -fullGenLapack 3]
foreach l $lam { puts [format "period %.10g" [expr 2*acos(-1)/sqrt($l)]] }
TCL
# the same script as hysim's model (structure.model.opensees: element twoNodeLink)
tcl_twin frame.yaml frame.tcl > frame_tcl.yaml
"$hysim" modes frame_tcl.yaml > tm.out 2>&1 || fail "frame.tcl modes: $(cat tm.out)"
read -r q1 q2 q3 _ <<< "$(periods tm.out)"
[ "$p1 $p2 $p3" = "$q1 $q2 $q3" ] || fail "frame.tcl (twoNodeLink) periods $q1 $q2 $q3, the YAML's $p1 $p2 $p3"
echo "link frame from the Tcl script (twoNodeLink): T = $q1, $q2, $q3 s, as the YAML model"
sed 's/-shearDist 0.3/-shearDist 0.3 -pDelta 0.9 0.6/' frame.tcl > bad.tcl
sed 's/opensees: frame.tcl/opensees: bad.tcl/' frame_tcl.yaml > bad_tcl.yaml
refused bad_tcl.yaml "twoNodeLink -pDelta 0.9 0.6" \
    "bad.tcl:8: .*P-Delta moment ratios Mz at node i + Mz at node j = 0.9 + 0.6 = 1.5 exceed 1 .*scale them down to 0.6 and 0.4"
if have_opensees; then
    run_opensees frame.tcl os.out 120 || fail "OpenSees: $(tail -5 os.out)"
    read -r o1 o2 o3 _ <<< "$(script_periods os.out)"
    near "$p1" "$o1" 1e-4 || fail "link frame T1: hysim $p1, OpenSees $o1"
    near "$p2" "$o2" 1e-4 || fail "link frame T2: hysim $p2, OpenSees $o2"
    near "$p3" "$o3" 1e-4 || fail "link frame T3: hysim $p3, OpenSees $o3"
    echo "link frame: hysim T = $p1, $p2, $p3 s; OpenSees $o1, $o2, $o3 s"
else
    echo "link frame vs OpenSees: skipped (set OPENSEES=/path/to/OpenSees to compare)"
fi
echo "fe_link.sh: ok"
