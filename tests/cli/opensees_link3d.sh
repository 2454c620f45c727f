#!/usr/bin/env bash
# The two-node link outside the 2-D frame (docs/fe_model.md, "Two-node link"):
#  - a 3-D bridge bent as an OpenSees Tcl script: two piers (3-D elastic beam-columns) on skewed
#    soil springs (twoNodeLink, six directions, one along the chord with OpenSees' default axes
#    and -shearDist sDy sDz, one with -orient x1 x2 x3 yp1 yp2 yp3 off the chord), a deck beam
#    across and a skewed abutment spring (-orient yp1 yp2 yp3: x along the nodes) at one pier
#    top (element mass 6: half on each node's translations); the same model written in YAML
#    (orient, yp, shear_dist [sy, sz], mass) has the script's periods to every printed digit and
#    the same response.csv byte for byte;
#  - a 1-D chain of links (node 2 left of node 1, a Steel01 link) from YAML and from Tcl: the same
#    response.csv byte for byte;
#  - bad input names FILE:LINE:COL or SCRIPT:LINE, the element and the directions;
#  - with OPENSEES=/path/to/OpenSees, the same script in OpenSees 3.8: the four lowest periods
#    (eigen -fullGenLapack) to 1e-8, and an undamped Newmark history (average acceleration, a
#    ground pulse in x) through both programs: the node displacements and the links' global,
#    local and basic forces and deformations to 1e-10 of each recorder's peak (elastic links,
#    and with Steel01 in some directions); the same way a plane truss model (-ndm 2 -ndf 2) with
#    an axial-shear link, a space truss model (-ndm 3 -ndf 3) with a skewed three-direction link
#    and a 1-D chain (-ndm 1 -ndf 1) whose node j lies left of node i with a Steel01 link (local
#    x is global X: the recorded deformation is u_j - u_i). Skipped with a message otherwise.
# Usage: opensees_link3d.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

cat > bent.tcl <<'TCL'
model BasicBuilder -ndm 3 -ndf 6
node 1 0 0 0; node 2 6 0 0; node 3 -1.5 4 4
node 11 0.3 0.2 0.5; node 12 6.2 -0.1 0.4
node 21 0.3 0.2 4.5; node 22 6.2 -0.1 4.4
foreach n {1 2 3} { fix $n 1 1 1 1 1 1 }
mass 11 5 5 5 0 0 0; mass 12 5 5 5 0 0 0
mass 21 30 30 30 0 0 0; mass 22 30 30 30 0 0 0
uniaxialMaterial Elastic 1 80000
uniaxialMaterial Elastic 2 12000
uniaxialMaterial Elastic 3 9000
uniaxialMaterial Elastic 4 30000
uniaxialMaterial Elastic 5 40000
uniaxialMaterial Elastic 6 50000
element twoNodeLink 1 1 11 -mat 1 2 3 4 5 6 -dir 1 2 3 4 5 6 -shearDist 0.3 0.7
element twoNodeLink 2 2 12 -mat 6 5 4 3 2 1 -dir 1 2 3 4 5 6 -orient 1 0.2 0.1 0 1 0.3 -shearDist 0.6 0.2
element twoNodeLink 3 3 21 -mat 2 3 1 -dir 2 3 1 -mass 6 -shearDist 0.4 0.9 -orient 0.3 1 0
geomTransf Linear 1 1 0 0
geomTransf Linear 2 0 0 1
element elasticBeamColumn 4 11 21 0.5 30e6 12e6 0.05 0.03 0.04 1
element elasticBeamColumn 5 12 22 0.5 30e6 12e6 0.05 0.03 0.04 1
element elasticBeamColumn 6 21 22 0.4 30e6 12e6 0.02 0.01 0.06 2
TCL
cat > bent_tcl.yaml <<YAML
hysim: 1
name: link3d
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: bent.tcl}
$(modes_only_tail)
YAML
cat > bent.yaml <<YAML
hysim: 1
name: link3d
units: {force: kN, length: m, time: s}
materials:
  k1: {type: elastic, k: 80000}
  k2: {type: elastic, k: 12000}
  k3: {type: elastic, k: 9000}
  k4: {type: elastic, k: 30000}
  k5: {type: elastic, k: 40000}
  k6: {type: elastic, k: 50000}
structure:
  model:
    ndm: 3
    nodes:
      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 2, x: 6, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 3, x: -1.5, y: 4, z: 4, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 11, x: 0.3, y: 0.2, z: 0.5, mass: [5, 5, 5, 0, 0, 0]}
      - {id: 12, x: 6.2, y: -0.1, z: 0.4, mass: [5, 5, 5, 0, 0, 0]}
      - {id: 21, x: 0.3, y: 0.2, z: 4.5, mass: [30, 30, 30, 0, 0, 0]}
      - {id: 22, x: 6.2, y: -0.1, z: 4.4, mass: [30, 30, 30, 0, 0, 0]}
    elements:
      - {type: two_node_link, nodes: [1, 11], dirs: [x, y, z, rx, ry, rz],
         materials: [k1, k2, k3, k4, k5, k6], shear_dist: [0.3, 0.7]}
      - {type: two_node_link, nodes: [2, 12], dirs: [x, y, z, rx, ry, rz],
         materials: [k6, k5, k4, k3, k2, k1], orient: [1, 0.2, 0.1, 0, 1, 0.3],
         shear_dist: [0.6, 0.2]}
      - {type: two_node_link, nodes: [3, 21], dirs: [y, z, x], materials: [k2, k3, k1],
         yp: [0.3, 1, 0], shear_dist: [0.4, 0.9], mass: 6}
      - {type: elastic_beam, nodes: [11, 21], E: 30e6, G: 12e6, A: 0.5, J: 0.05, Iy: 0.03,
         Iz: 0.04, vecxz: [1, 0, 0]}
      - {type: elastic_beam, nodes: [12, 22], E: 30e6, G: 12e6, A: 0.5, J: 0.05, Iy: 0.03,
         Iz: 0.04, vecxz: [1, 0, 0]}
      - {type: elastic_beam, nodes: [21, 22], E: 30e6, G: 12e6, A: 0.4, J: 0.02, Iy: 0.01,
         Iz: 0.06, vecxz: [0, 0, 1]}
$(modes_only_tail)
YAML
"$hysim" modes bent.yaml > yaml_modes.log 2>&1 || fail "hysim modes (YAML)"
"$hysim" modes bent_tcl.yaml > tcl_modes.log 2>&1 || fail "hysim modes (Tcl)"
yp=$(awk '$1 ~ /^[0-9]+$/ && $1 <= 4 { printf "%s ", $2 }' yaml_modes.log)
tp=$(awk '$1 ~ /^[0-9]+$/ && $1 <= 4 { printf "%s ", $2 }' tcl_modes.log)
[ "$(echo "$yp" | wc -w)" -eq 4 ] || fail "periods of the YAML bent: '$yp'"
[ "$yp" = "$tp" ] || fail "the YAML bent's periods $yp, the Tcl script's $tp"
"$hysim" run bent.yaml -o yaml_run --quiet > yaml_run.log 2>&1 || fail "hysim run (YAML)"
"$hysim" run bent_tcl.yaml -o tcl_run --quiet > tcl_run.log 2>&1 || fail "hysim run (Tcl)"
cmp -s yaml_run/response.csv tcl_run/response.csv ||
    fail "the YAML bent's response.csv differs from the Tcl script's: $(diff yaml_run/response.csv tcl_run/response.csv | head -4)"
echo "opensees_link3d.sh: the bent from YAML and from Tcl: T = $yp s, the same response.csv byte for byte"

# bad input: FILE:LINE:COL (YAML) or SCRIPT:LINE (Tcl) and what to do
sed 's/dirs: \[y, z, x\]/dirs: [y, z, w]/' bent.yaml > bad1.yaml
refused bad1.yaml "a bad direction" "bad1.yaml:28:[0-9]*: structure.model.elements\[3\].dirs\[3\]: expected a direction x, y, z, rx, ry or rz, got 'w'"
sed 's/yp: \[0.3, 1, 0\]/yp: [-1.8, 3.8, -0.5]/' bent.yaml > bad2.yaml
refused bad2.yaml "yp along the chord" "bad2.yaml:28:[0-9]*: .*the local y' vector \[-1.8, 3.8, -0.5\] is parallel to the local x axis"
sed 's/-dir 2 3 1 /-dir 2 7 1 /' bent.tcl > bad.tcl
sed 's/opensees: bent.tcl/opensees: bad.tcl/' bent_tcl.yaml > bad_tcl.yaml
refused bad_tcl.yaml "twoNodeLink -dir 7" "bad.tcl:16: element: -dir 7: a twoNodeLink in -ndm 3 -ndf 6 has the local directions 1 (axial), 2 and 3 (shear along local y, z), 4 (torsion), 5 and 6 (moments about local y, z)"
sed 's/-shearDist 0.4 0.9 /-shearDist 0.4 /' bent.tcl > bad.tcl
refused bad_tcl.yaml "twoNodeLink -shearDist with one number in 3-D" "bad.tcl:16: element: -shearDist: expected sDy sDz (two numbers in -ndm 3: "
echo "opensees_link3d.sh: bad directions, y' along x and a 3-D -shearDist with one number are refused with FILE:LINE"

# a 1-D chain: node 2 left of node 1 on a Steel01 link (local x is +X: deformation u_2 - u_1)
cat > chain.tcl <<'TCL'
model BasicBuilder -ndm 1 -ndf 1
node 1 0; node 2 -2; node 3 -5
fix 1 1
mass 2 10; mass 3 5
uniaxialMaterial Steel01 1 8 2000 0.05
uniaxialMaterial Elastic 2 1500
element twoNodeLink 1 1 2 -mat 1 -dir 1
element twoNodeLink 2 2 3 -mat 2 -dir 1
TCL
# the chain from YAML (ndm: 1) and from Tcl: the same response.csv, byte for byte
cat > chain.yaml <<'YAML'
hysim: 1
name: chain
units: {force: kN, length: m, time: s}
materials:
  st: {type: steel01, fy: 8, E0: 2000, b: 0.05}
  el: {type: elastic, k: 1500}
structure:
  model:
    ndm: 1
    nodes:
      - {id: 1, x: 0, fix: [1]}
      - {id: 2, x: -2, mass: [10]}
      - {id: 3, x: -5, mass: [5]}
    elements:
      - {type: two_node_link, nodes: [1, 2], dirs: [x], materials: [st]}
      - {type: two_node_link, nodes: [2, 3], dirs: [x], materials: [el]}
  damping: {none: true}
ground_motion:
  synthetic: {seed: 3, pga: 6.0, duration: 2, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 200
YAML
sed -e 's/^  model:$/  model: {opensees: chain.tcl}\n  xmodel:/' chain.yaml |
    awk '/^  xmodel:/ { skip = 1; next } skip && /^  [a-z]/ { skip = 0 } !skip' > chain_tcl.yaml
grep -q 'opensees: chain.tcl' chain_tcl.yaml || fail "chain_tcl.yaml: $(cat chain_tcl.yaml)"
"$hysim" run chain.yaml -o chain_yaml --quiet > chain_yaml.log 2>&1 || fail "hysim run (YAML chain)"
"$hysim" run chain_tcl.yaml -o chain_tcl --quiet > chain_tcl.log 2>&1 || fail "hysim run (Tcl chain)"
cmp -s chain_yaml/response.csv chain_tcl/response.csv ||
    fail "the YAML chain's response.csv differs from the Tcl script's: $(diff chain_yaml/response.csv chain_tcl/response.csv | head -4)"
peak=$(awk -F, 'NR > 2 { a = $2 < 0 ? -$2 : $2; if (a > p) p = a } END { print p + 0 }' chain_yaml/response.csv)
awk -v p="$peak" 'BEGIN { exit !(p > 0.004) }' || fail "the chain did not yield (peak $peak m)"
sed 's/materials: \[st\]}/materials: [st], orient: [1]}/' chain.yaml > bad3.yaml
refused bad3.yaml "orient in a 1-D model" "bad3.yaml:15:[0-9]*: .*orient: a 1-D link's local x is global x; remove orient"
echo "opensees_link3d.sh: the 1-D Steel01 chain from YAML and from Tcl: the same response.csv byte for byte (peak $peak m)"

rest_needs_opensees

# periods: the script's eigen in both programs
cat bent.tcl - > eig.tcl <<'TCL'
set lam [eigen -fullGenLapack 4]
foreach l $lam { puts [format "period %.15g" [expr {2 * acos(-1) / sqrt($l)}]] }
TCL
run_opensees eig.tcl os_eig.log 120 || fail "OpenSees (eigen)"
sed 's/opensees: bent.tcl/opensees: eig.tcl/' bent_tcl.yaml > eig.yaml
"$hysim" check eig.yaml > hs_eig.log 2>&1 || fail "hysim check (eigen): $(cat hs_eig.log)"
read -r -a op <<< "$(script_periods os_eig.log)"
read -r -a hp <<< "$(script_periods hs_eig.log)"
[ "${#op[@]}" -eq 4 ] && [ "${#hp[@]}" -eq 4 ] || fail "periods: OpenSees ${op[*]}, hysim ${hp[*]}"
for k in 0 1 2 3; do
    near "${hp[$k]}" "${op[$k]}" 1e-8 || fail "period $((k + 1)): hysim ${hp[$k]} s, OpenSees ${op[$k]} s"
done
echo "opensees_link3d.sh: periods of the bent: hysim ${hp[*]} s; OpenSees ${op[*]} s"

steps=400
sine_pulse rec.txt 4 3 1
# history NAME TOL DIR NODES DOFS_TCL DOFS_YAML ELEMENTS RECORDERS: NAME.tcl (the model) with a
# ground motion in DIR through both programs; RECORDERS of disp (the nodes'), force, local, basic
# and bdef (the elements' force, localForce, basicForce, basicDeformation) compared to TOL of
# each one's peak
history() {
    local name=$1 tol=$2 gdir=$3 nodes=$4 dtcl=$5 dyaml=$6 els=$7 recs=$8 r
    local yels
    yels=$(echo "$els" | awk '{ for (i = 1; i <= NF; i++) printf "%sele%s", (i > 1 ? ", " : ""), $i }')
    cat "$name.tcl" - > "h_$name.tcl" <<TCL
timeSeries Path 2 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 2 $gdir -accel 2
recorder Node -file disp.out -time -precision 16 -node $nodes -dof $dtcl disp
recorder Element -file force.out -time -precision 16 -ele $els force
recorder Element -file local.out -time -precision 16 -ele $els localForce
recorder Element -file basic.out -time -precision 16 -ele $els basicForce
recorder Element -file bdef.out -time -precision 16 -ele $els basicDeformation
$(tcl_newmark $steps Transformation)
TCL
    rm -f disp.out force.out local.out basic.out bdef.out
    run_opensees "h_$name.tcl" "os_$name.log" || fail "OpenSees ($name history)"
    cat > "h_$name.yaml" <<YAML
hysim: 1
name: $name
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: h_$name.tcl}
$(newmark_analysis $steps)
output:
  recorders:
    - {name: disp, node: [$(echo "$nodes" | tr ' ' ',')], dofs: [$dyaml], response: disp}
    - {name: force, element: [$yels], response: force}
    - {name: local, element: [$yels], response: local_force}
    - {name: basic, element: [$yels], response: basic_force}
    - {name: bdef, element: [$yels], response: deformation}
YAML
    "$hysim" run "h_$name.yaml" -o "run_$name" --quiet > "hs_$name.log" 2>&1 || fail "hysim run ($name)"
    for r in $recs; do recorder_vs_opensees "$name $r" "run_$name/recorders/$r.csv" "$r.out" "$tol"; done
}
history bent 1e-10 1 "21 22 11 12" "1 2 3 4 5 6" "x, y, z, rx, ry, rz" "1 2 3" "disp force local basic bdef"
# the same bent with a Steel01 (yield at 5 mm) in every link direction of material 2
sed 's/^uniaxialMaterial Elastic 2 12000$/uniaxialMaterial Steel01 2 60 12000 0.05/' bent.tcl > bent_nl.tcl
grep -q Steel01 bent_nl.tcl || fail "bent_nl.tcl has no Steel01"
history bent_nl 1e-10 1 "21 22 11 12" "1 2 3 4 5 6" "x, y, z, rx, ry, rz" "1 2 3" "disp force local basic bdef"

# a plane truss model (-ndf 2): a skewed link (axial and shear) and a truss hold node 3
cat > truss.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 2
node 1 0 0; node 2 4 0; node 3 1.5 2.5
fix 1 1 1; fix 2 1 1
mass 3 20 20
uniaxialMaterial Elastic 1 6000
uniaxialMaterial Elastic 2 2500
uniaxialMaterial Elastic 3 2e8
element twoNodeLink 1 1 3 -mat 1 2 -dir 1 2 -shearDist 0.3
element truss 2 2 3 1e-3 3
TCL
# (hysim's plane model keeps the fixed rotations: its force recorders have three values per node)
history truss 1e-10 1 "3" "1 2" "x, y" "1" "disp basic bdef"

# a space truss model (-ndm 3 -ndf 3): a skewed three-direction link (-orient yp) and two trusses
cat > space.tcl <<'TCL'
model BasicBuilder -ndm 3 -ndf 3
node 1 0 0 0; node 2 4 0 0; node 3 0 3 0; node 4 1.2 0.8 2.5
fix 1 1 1 1; fix 2 1 1 1; fix 3 1 1 1
mass 4 15 15 15
uniaxialMaterial Elastic 1 7000
uniaxialMaterial Elastic 2 2000
uniaxialMaterial Elastic 3 3500
uniaxialMaterial Elastic 4 2e8
element twoNodeLink 1 1 4 -mat 1 2 3 -dir 1 2 3 -orient 1 1 0
element truss 2 2 4 1e-4 4
element truss 3 3 4 1e-4 4
TCL
history space 1e-10 1 "4" "1 2 3" "x, y, z" "1" "disp force local basic bdef"

history chain 1e-10 1 "2 3" "1" "x" "1 2" "disp force local basic bdef"
echo "opensees_link3d.sh: OK"
