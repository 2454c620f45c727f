#!/usr/bin/env bash
# The two-node link's P-Delta (OpenSees twoNodeLink -pDelta Mratios, YAML p_delta;
# docs/fe_model.md, "Two-node link"):
#  - an isolator under a column (2-D, ndf 3): a vertical twoNodeLink (axial, shear, moment,
#    -pDelta 0.2 0.3, -shearDist 0.4) whose axial spring carries a gravity-like compression
#    P = 2000 as its material's initial stress (Steel02 sigInit), balanced by the column above
#    (an axial link with the same initial compression): the structure is in equilibrium at rest
#    with N = -P in the isolator, and hysim needs no gravity step. The same model in YAML
#    (steel02 sig_init, p_delta: [0.2, 0.3]) gives the script's response.csv byte for byte;
#  - the script's eigen (hysim's initial stiffness) leaves the links' P-Delta out: a line says so;
#  - bad input: p_delta with a wrong count, in a 1-D model, negative Tcl ratios (SCRIPT:LINE and
#    the value OpenSees would use), -pDelta under the loads of a pattern Plain (hysim does not
#    carry gravity loads into a link's axial force: refused, the message says what to do);
#  - with OPENSEES=/path/to/OpenSees, the script through OpenSees 3.8 and hysim (undamped Newmark,
#    average acceleration, a 2 Hz ground pulse in x): node 2's displacements and the isolator's
#    and column's basic forces, the isolator's local and global forces, to 1e-10 of each
#    column's peak; the same for a 3-D isolator (ndf 6, six directions, -pDelta with the four
#    ratios, -shearDist sDy sDz, -orient yp, a slightly skewed chord so that N varies with the
#    motion); a stack of 40 such isolators (120 DOFs: hysim's sparse path with a nonsymmetric
#    Newton matrix); and without -pDelta in hysim the 2-D displacements differ from OpenSees' by more
#    than 1 % of the peak (the P-Delta terms matter in the comparison); the 2-D isolator in a
#    -ndf 2 model (the shear term alone). Skipped with a message
#    otherwise.
# Usage: opensees_link_pdelta.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

cat > iso2.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 0 1.2; node 3 0 3.0
fix 1 1 1 1; fix 3 1 1 1
mass 2 40 40 0.5
set P 2000.0
# elastic (Fy out of reach) with the initial stress -P: the gravity compression
uniaxialMaterial Steel02 1 1e12 8e5 0.01 20 0.925 0.15 0 1 0 1 [expr {-$P}]
uniaxialMaterial Elastic 2 6000
uniaxialMaterial Elastic 3 9000
uniaxialMaterial Steel02 4 1e12 3e5 0.01 20 0.925 0.15 0 1 0 1 [expr {-$P}]
element twoNodeLink 1 1 2 -mat 1 2 3 -dir 1 2 3 -pDelta 0.2 0.3 -shearDist 0.4
element twoNodeLink 2 2 3 -mat 4 -dir 1
TCL
cat > iso2.yaml <<'YAML'
hysim: 1
name: iso2
units: {force: kN, length: m, time: s}
materials:
  axial: {type: steel02, fy: 1e12, E0: 8e5, b: 0.01, R0: 20, cR1: 0.925, cR2: 0.15, a1: 0,
          a2: 1, a3: 0, a4: 1, sig_init: -2000}
  shear: {type: elastic, k: 6000}
  rot: {type: elastic, k: 9000}
  column: {type: steel02, fy: 1e12, E0: 3e5, b: 0.01, R0: 20, cR1: 0.925, cR2: 0.15, a1: 0,
           a2: 1, a3: 0, a4: 1, sig_init: -2000}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 0, y: 1.2, mass: [40, 40, 0.5]}
      - {id: 3, x: 0, y: 3.0, fix: [1, 1, 1]}
    elements:
      - {type: two_node_link, nodes: [1, 2], dirs: [x, y, rz], materials: [axial, shear, rot],
         p_delta: [0.2, 0.3], shear_dist: 0.4}
      - {type: two_node_link, nodes: [2, 3], dirs: [x], materials: [column]}
  damping: {none: true}
ground_motion:
  synthetic: {seed: 2, pga: 4.0, duration: 3, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 300
YAML
tcl_twin iso2.yaml iso2.tcl > iso2_tcl.yaml
grep -q 'opensees: iso2.tcl' iso2_tcl.yaml || fail "iso2_tcl.yaml: $(cat iso2_tcl.yaml)"
"$hysim" run iso2.yaml -o yaml_run --quiet > yaml_run.log 2>&1 || fail "hysim run (YAML)"
"$hysim" run iso2_tcl.yaml -o tcl_run --quiet > tcl_run.log 2>&1 || fail "hysim run (Tcl)"
cmp -s yaml_run/response.csv tcl_run/response.csv ||
    fail "the YAML isolator's response.csv differs from the Tcl script's: $(diff yaml_run/response.csv tcl_run/response.csv | head -4)"
peak=$(awk -F, 'NR > 2 { a = $2 < 0 ? -$2 : $2; if (a > p) p = a } END { print p + 0 }' yaml_run/response.csv)
awk -v p="$peak" 'BEGIN { exit !(p > 0.01) }' || fail "the isolator hardly moved (peak $peak m)"
echo "opensees_link_pdelta.sh: the isolator from YAML and from Tcl: the same response.csv byte for byte (peak $peak m)"

# bad input
sed 's/p_delta: \[0.2, 0.3\]/p_delta: [0.1, 0.2, 0.2, 0.3]/' iso2.yaml > bad1.yaml
refused bad1.yaml "four p_delta ratios in 2-D" \
    "bad1.yaml:[0-9]*:[0-9]*: structure.model.elements\[1\].p_delta: expected 2 values (one per P-Delta moment ratio about local z (node i, node j)), got 4"
sed 's/-pDelta 0.2 0.3/-pDelta 0.2 -0.3/' iso2.tcl > bad.tcl
sed 's/opensees: iso2.tcl/opensees: bad.tcl/' iso2_tcl.yaml > bad_tcl.yaml
refused bad_tcl.yaml "a negative -pDelta ratio" \
    "bad.tcl:11: element 1: .*P-Delta moment ratio 2 (Mz at node j) is -0.3; .*OpenSees would make a negative one positive with a warning: write 0.3 if that is what you mean"
sed 's/-pDelta 0.2 0.3/-pDelta 0.2/' iso2.tcl > bad.tcl
refused bad_tcl.yaml "-pDelta with one number in 2-D" \
    "bad.tcl:11: element: -pDelta: expected Mratios (two numbers in -ndm 2"
cat iso2.tcl - > bad.tcl <<'TCL'
timeSeries Constant 1
pattern Plain 1 1 { load 2 0 -100 0 }
TCL
refused bad_tcl.yaml "-pDelta under Plain loads" \
    "bad.tcl:11: element 1: twoNodeLink -pDelta under the loads of pattern Plain: hysim does not carry gravity loads into a link's axial force"
cat > chain.yaml <<'YAML'
hysim: 1
name: chain
units: {force: kN, length: m, time: s}
materials:
  el: {type: elastic, k: 1500}
structure:
  model:
    ndm: 1
    nodes:
      - {id: 1, x: 0, fix: [1]}
      - {id: 2, x: 2, mass: [10]}
    elements:
      - {type: two_node_link, nodes: [1, 2], dirs: [x], materials: [el], p_delta: [0.5, 0.5]}
  damping: {none: true}
ground_motion:
  synthetic: {seed: 3, pga: 1.0, duration: 1, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 10
YAML
refused chain.yaml "p_delta in a 1-D model" \
    "chain.yaml:13:[0-9]*: structure.model.elements\[1\].p_delta: a 1-D link has no P-Delta"
echo "opensees_link_pdelta.sh: a wrong count, a negative ratio, -pDelta under Plain loads and p_delta in 1-D are refused with FILE:LINE"
# the script's eigen leaves the links' P-Delta out, and a line says so
cat iso2.tcl - > eig.tcl <<'TCL'
set lam [eigen -fullGenLapack 1]
puts [format "period %.12g" [expr {2 * acos(-1) / sqrt([lindex $lam 0])}]]
TCL
sed 's/opensees: iso2.tcl/opensees: eig.tcl/' iso2_tcl.yaml > eig.yaml
"$hysim" check eig.yaml > out 2>&1 || fail "hysim check (eigen): $(cat out)"
grep -q "eig.tcl:13: eigen: the P-Delta of twoNodeLink -pDelta (element 1) is left out" out ||
    fail "no line about eigen and -pDelta: $(cat out)"

if [ -z "${OPENSEES:-}" ] || [ ! -x "${OPENSEES:-}" ]; then
    echo "opensees_link_pdelta.sh: OpenSees comparison skipped (set OPENSEES=/path/to/OpenSees)"
    echo "opensees_link_pdelta.sh: OK"
    exit 0
fi

# the 3-D isolator: six directions, the four ratios, shear distances, -orient yp, a skewed chord
cat > iso3.tcl <<'TCL'
model BasicBuilder -ndm 3 -ndf 6
node 1 0 0 0; node 2 0.1 0.05 1.2; node 3 0.1 0.05 3.0
fix 1 1 1 1 1 1 1; fix 3 1 1 1 1 1 1
mass 2 40 40 40 0.5 0.5 0.8
set P 2000.0
uniaxialMaterial Steel02 1 1e12 8e5 0.01 20 0.925 0.15 0 1 0 1 [expr {-$P}]
uniaxialMaterial Elastic 2 6000
uniaxialMaterial Elastic 3 4000
uniaxialMaterial Elastic 4 3000
uniaxialMaterial Elastic 5 9000
uniaxialMaterial Elastic 6 7000
uniaxialMaterial Steel02 7 1e12 3e5 0.01 20 0.925 0.15 0 1 0 1 [expr {-$P}]
element twoNodeLink 1 1 2 -mat 1 2 3 4 5 6 -dir 1 2 3 4 5 6 -pDelta 0.1 0.25 0.2 0.3 -shearDist 0.4 0.6 -orient 1 1 0
element twoNodeLink 2 2 3 -mat 7 -dir 1
TCL
# (OpenSees 3.8 reads a three-number -orient only as the element's last option)

steps=300
awk 'BEGIN { for (k = 0; k <= 600; k++) { t = k * 0.01
    printf "%.17g\n", t <= 1 ? 4 * sin(2 * atan2(0, -1) * 2 * t) : 0 } }' > rec.txt
# history NAME NODE DOFS_TCL DOFS_YAML [RECORDERS]: NAME.tcl with the pulse in x through both
# programs; NODE's displacements (disp), links 1 and 2's basic forces (basic), link 1's local and
# global forces (local, force); writes the worst difference relative to each column's peak into
# NAME.worst
history() {
    local name=$1 node=$2 dtcl=$3 dyaml=$4 recs=${5:-disp basic local force} r
    cat "$name.tcl" - > "h_$name.tcl" <<TCL
timeSeries Path 2 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 2 1 -accel 2
recorder Node -file disp.out -time -precision 16 -node $node -dof $dtcl disp
recorder Element -file basic.out -time -precision 16 -ele 1 2 basicForce
recorder Element -file local.out -time -precision 16 -ele 1 localForce
recorder Element -file force.out -time -precision 16 -ele 1 force
system FullGeneral
numberer Plain
constraints Transformation
test NormDispIncr 1.0e-12 20
algorithm Newton
integrator Newmark 0.5 0.25
analysis Transient
analyze $steps 0.01
wipe
TCL
    rm -f disp.out basic.out local.out force.out
    timeout 300 "$OPENSEES" "h_$name.tcl" > "os_$name.log" 2>&1 || fail "OpenSees ($name history)"
    cat > "h_$name.yaml" <<YAML
hysim: 1
name: $name
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: h_$name.tcl}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: $steps
  initial_acceleration: zero
output:
  recorders:
    - {name: disp, node: [$node], dofs: [$dyaml], response: disp}
    - {name: basic, element: [ele1, ele2], response: basic_force}
    - {name: local, element: [ele1], response: local_force}
    - {name: force, element: [ele1], response: force}
YAML
    "$hysim" run "h_$name.yaml" -o "run_$name" --quiet > "hs_$name.log" 2>&1 || fail "hysim run ($name)"
    : > "$name.worst"
    for r in $recs; do
        [ -s "$r.out" ] || fail "$name: OpenSees wrote no $r.out"
        [ "$(head -1 "$r.out" | wc -w)" -eq "$(head -3 "run_$name/recorders/$r.csv" | tail -1 | tr ',' ' ' | wc -w)" ] ||
            fail "$name $r: OpenSees has $(head -1 "$r.out" | wc -w) columns, hysim $(head -1 "run_$name/recorders/$r.csv")"
        # OpenSees records from the first step (no t = 0 row); the time in column 1 as ours
        read -r w p rows bad <<< "$(tail -n +3 "run_$name/recorders/$r.csv" | tr ',' ' ' |
            paste -d' ' "$r.out" - | awk '
            { n = NF / 2; if (($1 - $(n + 1)) ^ 2 > 1e-18) bad++
              for (i = 2; i <= n; i++) { d = $i - $(i + n); if (d < 0) d = -d; if (d > m[i]) m[i] = d
                                         a = $i; if (a < 0) a = -a; if (a > p[i]) p[i] = a } }
            END { for (i = 2; i <= n; i++) if (p[i] > 0 && m[i] / p[i] > w) { w = m[i] / p[i]; q = p[i] }
                  printf "%.3g %.6g %d %d", w + 0, q + 0, NR, bad + 0 }')"
        [ "$rows" -eq "$steps" ] || fail "$name $r: $rows rows against OpenSees, expected $steps"
        [ "$bad" -eq 0 ] || fail "$name $r: the times of hysim's and OpenSees' records differ ($bad rows)"
        echo "opensees_link_pdelta.sh: $name $r: largest difference from OpenSees $w of its column's peak ($p)"
        echo "$r $w" >> "$name.worst"
    done
}
history iso2 2 "1 2 3" "x, y, rz"
awk '$2 > 1e-10 { print; bad = 1 } END { exit bad }' iso2.worst || fail "iso2 differs from OpenSees"
n2=$(awk '{ print $2 }' basic.out | sort -g | uniq | tr '\n' ' ')
[ "$n2" = "-2000 " ] || fail "the isolator's axial force moved from -2000: $n2"
# the P-Delta terms matter: hysim without -pDelta against OpenSees with it
cp disp.out disp_os.out
sed 's/ -pDelta 0.2 0.3//' h_iso2.tcl > h_nop.tcl
sed 's/h_iso2.tcl/h_nop.tcl/' h_iso2.yaml > h_nop.yaml
"$hysim" run h_nop.yaml -o run_nop --quiet > hs_nop.log 2>&1 || fail "hysim run (no -pDelta)"
rel=$(tail -n +3 run_nop/recorders/disp.csv | tr ',' ' ' | paste -d' ' disp_os.out - | awk '
    { d = $2 - $6; if (d < 0) d = -d; if (d > m) m = d; a = $2 < 0 ? -$2 : $2; if (a > p) p = a }
    END { printf "%.3g", m / p }')
awk -v r="$rel" 'BEGIN { exit !(r > 0.01) }' || fail "without -pDelta the response differs by only $rel of the peak"
echo "opensees_link_pdelta.sh: iso2 without -pDelta in hysim: $rel of the peak displacement from OpenSees' (N = -2000 throughout)"

history iso3 2 "1 2 3 4 5 6" "x, y, z, rx, ry, rz"
awk '$2 > 1e-10 { print; bad = 1 } END { exit bad }' iso3.worst || fail "iso3 differs from OpenSees"
range=$(awk '{ print $2 }' basic.out | sort -g | sed -n '1p;$p' | tr '\n' ' ')
echo "opensees_link_pdelta.sh: iso3: the isolator's N ranged over $range"

# a stack of 40 isolators (120 DOFs, every DOF with mass: hysim's sparse path, whose Newton matrix
# is now nonsymmetric) between fixed ends, each in compression 100
cat > stack.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
set n 40
set P 100.0
uniaxialMaterial Steel02 1 1e12 8e5 0.01 20 0.925 0.15 0 1 0 1 [expr {-$P}]
uniaxialMaterial Elastic 2 6000
uniaxialMaterial Elastic 3 9000
node 1 0 0; fix 1 1 1 1
for {set k 1} {$k <= $n} {incr k} {
    node [expr {$k + 1}] 0 [expr {0.5 * $k}] -mass 2 2 0.05
    element twoNodeLink $k $k [expr {$k + 1}] -mat 1 2 3 -dir 1 2 3 -pDelta 0.2 0.3 -shearDist 0.4
}
node [expr {$n + 2}] 0 [expr {0.5 * $n + 1}]; fix [expr {$n + 2}] 1 1 1
element twoNodeLink [expr {$n + 1}] [expr {$n + 1}] [expr {$n + 2}] -mat 1 -dir 1
TCL
history stack 21 "1 2 3" "x, y, rz"
awk '$2 > 1e-10 { print; bad = 1 } END { exit bad }' stack.worst || fail "the stack differs from OpenSees"

# a plane truss model (-ndf 2, OpenSees' 4-DOF link): the shear term alone, (1 - r_zi - r_zj) N
# delta / L (hysim's plane model keeps the fixed rotations: its force recorders have three
# values per node, so displacements and basic forces are compared)
sed -e 's/-ndf 3/-ndf 2/' -e 's/^fix 1 1 1 1; fix 3 1 1 1$/fix 1 1 1; fix 3 1 1/' \
    -e 's/^mass 2 40 40 0.5$/mass 2 40 40/' -e 's/-mat 1 2 3 -dir 1 2 3 -pDelta 0.2 0.3 -shearDist 0.4/-mat 1 2 -dir 1 2 -pDelta 0.2 0.3/' \
    iso2.tcl > truss.tcl
grep -q -- '-mat 1 2 -dir 1 2 -pDelta 0.2 0.3$' truss.tcl || fail "truss.tcl: $(cat truss.tcl)"
history truss 2 "1 2" "x, y" "disp basic"
awk '$2 > 1e-10 { print; bad = 1 } END { exit bad }' truss.worst || fail "the -ndf 2 isolator differs from OpenSees"
echo "opensees_link_pdelta.sh: OK"
