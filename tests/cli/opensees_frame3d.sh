#!/usr/bin/env bash
# The 3-D frame model and its rigid constraints against a real OpenSees (docs/fe_model.md):
#  - examples/fe_3d_floor.yaml (four columns in two orientations, perimeter beams, one with a
#    rotated section, a diagonal brace, a rigid diaphragm with an eccentric mass): after OpenSees'
#    gravity step (loads on the column tops, then loadConst), its column axial forces go into the
#    hysim file as axial_compression; the three periods (eigen) must agree to the printed digits;
#  - the same frame without gravity, undamped, Newmark average acceleration with Newton, a 2 Hz
#    sine pulse of the ground in y for 2 s then free vibration: the master node's ux, uy and rz
#    histories must agree to 1e-12 of their peaks with linear columns (round-off) and to 1e-9
#    with P-Delta columns (nonlinear: both programs' Newton tolerances);
#  - a 2-D portal frame whose beam ends are offset from the column tops by rigid links (beam),
#    and a 3-D column top that carries a beam through an offset in x, y and z (rigid link beam)
#    and a second column's top translations (rigid link bar): the periods must agree to the
#    printed digits.
# Needs OPENSEES=/path/to/OpenSees (skipped otherwise). Usage: opensees_frame3d.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
example="$here/../../examples/fe_3d_floor.yaml"
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/frame_models.sh"
need_opensees
work_dir

floor3d_tcl PDelta > model.tcl
{
    cat model.tcl
    echo 'timeSeries Linear 1'
    echo 'pattern Plain 1 1 { foreach n {11 12 13 14} { load $n 0 0 -500 0 0 0 } }'
    tcl_gravity Transformation
    cat <<'TCL'
foreach e {1 2 3 4} { puts [format "axial %d %.17g" $e [expr -[lindex [eleResponse $e basicForce] 0]]] }
set lam [eigen -fullGenLapack 3]
foreach l $lam { puts [format "period %.10g" [expr 2*acos(-1)/sqrt($l)]] }
TCL
} > gravity.tcl
run_opensees gravity.tcl gravity.log || fail "OpenSees (gravity, eigen) failed"
cp "$example" grav.yaml
for e in 1 2 3 4; do
    p=$(awk -v e="$e" '$1 == "axial" && $2 == e { print $3 }' gravity.log)
    [ -n "$p" ] || fail "no axial force of column $e from OpenSees"
    sed -i "/name: col$e,/,/axial_compression/s/axial_compression: [0-9.e+-]*/axial_compression: $p/" grav.yaml
done
sed -i 's/^  damping: .*/  damping: {none: true}/' grav.yaml
"$hysim" modes grav.yaml > modes.log 2>&1 || fail "hysim modes: $(cat modes.log)"
read -r h1 h2 h3 <<< "$(periods modes.log)"
read -r o1 o2 o3 <<< "$(script_periods gravity.log)"
for k in 1 2 3; do
    eval "h=\$h$k o=\$o$k"
    near "$h" "$o" 1e-4 || fail "period $k with gravity: hysim $h s, OpenSees $o s"
done
echo "opensees_frame3d.sh: periods with gravity (P-Delta): hysim $h1, $h2, $h3 s; OpenSees $o1, $o2, $o3 s"
echo "  column axial forces from OpenSees' gravity step: $(awk '$1 == "axial" { printf "%.6g ", $3 }' gravity.log)kN"

steps=500
sine_pulse rec.txt 3 2 2
# history TRANSF TOL: the frame with columns' transformation TRANSF (PDelta or Linear) in both
# programs, node 100's ux, uy, rz compared to TOL of their peaks
history() {
    local tr=$1 tol=$2 low
    low=$(echo "$tr" | tr 'A-Z' 'a-z')
    sed "s/^geomTransf PDelta \([12]\)/geomTransf $tr \1/" model.tcl > m_$low.tcl
    cat m_$low.tcl - > h_$low.tcl <<TCL
timeSeries Path 2 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 2 2 -accel 2
recorder Node -file os_$low.out -time -precision 16 -node 100 -dof 1 2 6 disp
$(tcl_newmark $steps Transformation)
TCL
    run_opensees h_$low.tcl h_$low.log || fail "OpenSees (history, $tr) failed"
    sed -e 's/axial_compression: 500/axial_compression: 0/' -e "s/transf: pdelta/transf: $low/" \
        -e 's/^  damping: .*/  damping: {none: true}/' -e '/^ground_motion:/,$d' "$example" > h_$low.yaml
    cat >> h_$low.yaml <<YAML
ground_motion: {file: rec.txt, format: columns, dt: 0.01}
$(newmark_analysis $steps)
YAML
    "$hysim" run h_$low.yaml -o run_$low --quiet > run_$low.log 2>&1 || fail "hysim run ($tr) exited $?"
    # columns: time, ux, uy, rz of node 100 in both; each compared to its own peak
    echo "opensees_frame3d.sh: Newmark history of node 100 (ux, uy, rz), $tr columns, against OpenSees:"
    histories_vs_opensees "$tr" run_$low/response.csv os_$low.out "$tol"
}
history Linear 1e-12
history PDelta 1e-9

# the floor of tests/test_fe3d.c: four columns (weak at x = 0, strong at x = a), a rigid
# diaphragm, the mass e = 0.9 m off the stiffness centre: x uncoupled, y and torsion coupled:
# m J w^4 - (Ky J + Kt m) w^2 + Ky Kt - Kyt^2 = 0 about the mass centre
read -r c1 c2 c3 xm <<< "$(awk 'BEGIN { a = 8; b = 5; h = 3.5; E = 30e6; G = 12e6; m = 60; e = 0.9
    J = m * (a * a + b * b) / 12; pi = atan2(0, -1)
    split("1.2e-3 3e-3 3e-3 1.2e-3", Iy, " "); split("2e-3 5e-3 5e-3 2e-3", Iz, " ")
    split("2e-3 4e-3 4e-3 2e-3", Jt, " "); split("0 8 8 0", x, " "); split("0 0 5 5", y, " ")
    for (c = 1; c <= 4; c++) { kx[c] = 3 * E * Iy[c] / h^3; ky[c] = 3 * E * Iz[c] / h^3
        Kx += kx[c]; Ky += ky[c]; Sy += ky[c] * x[c]; gj += G * Jt[c] / h }
    xm = Sy / Ky + e; ym = b / 2; Kt = gj
    for (c = 1; c <= 4; c++) { dx = x[c] - xm; dy = y[c] - ym; Kt += kx[c] * dy^2 + ky[c] * dx^2; Kyt += ky[c] * dx }
    B = Ky / m + Kt / J; C = (Ky * Kt - Kyt^2) / (m * J); D = sqrt(B * B - 4 * C)
    w[1] = Kx / m; w[2] = 2 * C / (B + D); w[3] = (B + D) / 2
    for (i = 1; i <= 3; i++) for (j = i + 1; j <= 3; j++) if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
    printf "%.10g %.10g %.10g %.17g", 2 * pi / sqrt(w[1]), 2 * pi / sqrt(w[2]), 2 * pi / sqrt(w[3]), xm }')"
cat > floor.tcl <<TCL
model BasicBuilder -ndm 3 -ndf 6
node 1 0 0 0; node 2 8 0 0; node 3 8 5 0; node 4 0 5 0
node 11 0 0 3.5; node 12 8 0 3.5; node 13 8 5 3.5; node 14 0 5 3.5
node 100 $xm 2.5 3.5
foreach n {1 2 3 4} { fix \$n 1 1 1 1 1 1 }
fix 100 0 0 1 1 1 0
mass 100 60 60 0 0 0 445.0
rigidDiaphragm 3 100 11 12 13 14
geomTransf Linear 1 1 0 0
element elasticBeamColumn 1 1 11 0.16 30e6 12e6 2e-3 1.2e-3 2e-3 1
element elasticBeamColumn 2 2 12 0.25 30e6 12e6 4e-3 3e-3 5e-3 1
element elasticBeamColumn 3 3 13 0.25 30e6 12e6 4e-3 3e-3 5e-3 1
element elasticBeamColumn 4 4 14 0.16 30e6 12e6 2e-3 1.2e-3 2e-3 1
constraints Transformation
set lam [eigen -fullGenLapack 3]
foreach l \$lam { puts [format "period %.10g" [expr 2*acos(-1)/sqrt(\$l)]] }
TCL
run_opensees floor.tcl floor.log 120 || fail "OpenSees (floor) failed"
{
    printf 'hysim: 1\nname: floor\nunits: {force: kN, length: m, time: s}\nstructure:\n  model:\n'
    printf '    ndm: 3\n    nodes:\n'
    for n in "1 0 0" "2 8 0" "3 8 5" "4 0 5"; do
        set -- $n
        printf '      - {id: %s, x: %s, y: %s, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n' "$1" "$2" "$3"
        printf '      - {id: 1%s, x: %s, y: %s, z: 3.5}\n' "$1" "$2" "$3"
    done
    printf '      - {id: 100, x: %s, y: 2.5, z: 3.5, fix: [0, 0, 1, 1, 1, 0], mass: [60, 60, 0, 0, 0, 445]}\n' "$xm"
    printf '    elements:\n'
    for c in "1 0.16 2e-3 1.2e-3 2e-3" "2 0.25 4e-3 3e-3 5e-3" "3 0.25 4e-3 3e-3 5e-3" "4 0.16 2e-3 1.2e-3 2e-3"; do
        set -- $c
        printf '      - {type: elastic_beam, nodes: [%s, 1%s], E: 30e6, G: 12e6, A: %s, J: %s, Iy: %s, Iz: %s, vecxz: [1, 0, 0]}\n' "$1" "$1" "$2" "$3" "$4" "$5"
    done
    printf '    rigid_diaphragm:\n      - {perp: z, master: 100, slaves: [11, 12, 13, 14]}\n'
    printf '  damping: {none: true}\nground_motion:\n  synthetic: {seed: 1, pga: 1.0, duration: 1, dt: 0.01}\n'
    printf 'analysis:\n  integrator: {type: newmark}\n  dt: 0.01\n  steps: 10\n'
} > floor.yaml
"$hysim" modes floor.yaml > floor_modes.log 2>&1 || fail "hysim modes (floor): $(cat floor_modes.log)"
read -r h1 h2 h3 <<< "$(periods floor_modes.log)"
read -r o1 o2 o3 <<< "$(script_periods floor.log)"
for k in 1 2 3; do
    eval "h=\$h$k o=\$o$k c=\$c$k"
    near "$h" "$c" 1e-4 && near "$o" "$c" 1e-8 || fail "floor period $k: hysim $h s, OpenSees $o s, closed form $c s"
done
echo "opensees_frame3d.sh: eccentric floor: hysim $h1, $h2, $h3 s; OpenSees $o1, $o2, $o3 s; closed form $c1, $c2, $c3 s"

# 2-D: beam ends offset from the column tops by rigid links (0.25 m in, 0.3 m down)
cat > link.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 6 0; node 3 0 3.5; node 4 6 3.5; node 5 0.25 3.2; node 6 5.75 3.2
fix 1 1 1 1; fix 2 1 1 1
mass 3 20 0 0; mass 4 20 0 0
rigidLink beam 3 5
rigidLink beam 4 6
geomTransf Linear 1
element elasticBeamColumn 1 1 3 0.02 30e6 2e-3 1
element elasticBeamColumn 2 2 4 0.02 30e6 2e-3 1
element elasticBeamColumn 3 5 6 0.03 30e6 4e-3 1
constraints Transformation
set lam [eigen -fullGenLapack 2]
foreach l $lam { puts [format "period %.10g" [expr 2*acos(-1)/sqrt($l)]] }
TCL
run_opensees link.tcl link.log 120 || fail "OpenSees (rigid link) failed"
cat > link.yaml <<YAML
hysim: 1
name: link
units: {force: kN, length: m, time: s}
structure:
  model:
    nodes:
$(portal_yaml_nodes)
      - {id: 5, x: 0.25, y: 3.2}
      - {id: 6, x: 5.75, y: 3.2}
    elements:
      - {type: elastic_beam, nodes: [1, 3], E: 30e6, A: 0.02, I: 2e-3}
      - {type: elastic_beam, nodes: [2, 4], E: 30e6, A: 0.02, I: 2e-3}
      - {type: elastic_beam, nodes: [5, 6], E: 30e6, A: 0.03, I: 4e-3}
    rigid_link:
      - {type: beam, master: 3, slave: 5}
      - {type: beam, master: 4, slave: 6}
$(modes_only_tail)
YAML
"$hysim" modes link.yaml > link_modes.log 2>&1 || fail "hysim modes (rigid link): $(cat link_modes.log)"
read -r h1 h2 <<< "$(periods link_modes.log)"
read -r o1 o2 <<< "$(script_periods link.log)"
near "$h1" "$o1" 1e-4 && near "$h2" "$o2" 1e-4 || fail "rigid-link portal: hysim $h1, $h2 s; OpenSees $o1, $o2 s"
echo "opensees_frame3d.sh: 2-D portal with rigid links: hysim $h1, $h2 s; OpenSees $o1, $o2 s"
# 3-D rigid links: a column top (node 2, six masses) carries a beam through an offset in all three
# directions (rigidLink beam 2 3) and drives a second column's top translations (rigidLink bar 2 5)
cat > link3d.tcl <<'TCL'
model BasicBuilder -ndm 3 -ndf 6
node 1 0 0 0; node 2 0 0 3; node 3 1.2 0.8 3.4; node 4 5 0.8 3.4; node 5 0 -1 3; node 6 0 -1 0
fix 1 1 1 1 1 1 1; fix 4 1 1 1 1 1 1; fix 6 1 1 1 1 1 1
mass 2 10 10 10 2 3 4
rigidLink beam 2 3
rigidLink bar 2 5
geomTransf Linear 1 1 0 0
geomTransf Linear 2 0 1 1
element elasticBeamColumn 1 1 2 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 1
element elasticBeamColumn 2 3 4 0.05 30e6 12e6 3e-4 2e-4 6e-4 2
element elasticBeamColumn 3 6 5 0.01 30e6 12e6 5e-5 4e-5 8e-5 1
constraints Transformation
set lam [eigen -fullGenLapack 6]
foreach l $lam { puts [format "period %.10g" [expr 2*acos(-1)/sqrt($l)]] }
TCL
run_opensees link3d.tcl link3d.log 120 || fail "OpenSees (3-D rigid links) failed"
cat > link3d.yaml <<YAML
hysim: 1
name: link3d
units: {force: kN, length: m, time: s}
structure:
  model:
    ndm: 3
    nodes:
      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 2, x: 0, y: 0, z: 3, mass: [10, 10, 10, 2, 3, 4]}
      - {id: 3, x: 1.2, y: 0.8, z: 3.4}
      - {id: 4, x: 5, y: 0.8, z: 3.4, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 5, x: 0, y: -1, z: 3}
      - {id: 6, x: 0, y: -1, z: 0, fix: [1, 1, 1, 1, 1, 1]}
    elements:
      - {type: elastic_beam, nodes: [1, 2], E: 30e6, G: 12e6, A: 0.04, J: 2e-4, Iy: 1.5e-4, Iz: 3e-4, vecxz: [1, 0, 0]}
      - {type: elastic_beam, nodes: [3, 4], E: 30e6, G: 12e6, A: 0.05, J: 3e-4, Iy: 2e-4, Iz: 6e-4, vecxz: [0, 1, 1]}
      - {type: elastic_beam, nodes: [6, 5], E: 30e6, G: 12e6, A: 0.01, J: 5e-5, Iy: 4e-5, Iz: 8e-5, vecxz: [1, 0, 0]}
    rigid_link:
      - {type: beam, master: 2, slave: 3}
      - {type: bar, master: 2, slave: 5}
$(modes_only_tail)
YAML
"$hysim" modes link3d.yaml > link3d_modes.log 2>&1 || fail "hysim modes (3-D rigid links): $(cat link3d_modes.log)"
read -r -a hp <<< "$(periods link3d_modes.log)"
read -r -a op <<< "$(script_periods link3d.log)"
[ "${#hp[@]}" -eq 6 ] && [ "${#op[@]}" -eq 6 ] || fail "3-D rigid links: ${#hp[@]} and ${#op[@]} periods"
for k in 0 1 2 3 4 5; do
    near "${hp[$k]}" "${op[$k]}" 1e-4 || fail "3-D rigid links period $((k + 1)): hysim ${hp[$k]} s, OpenSees ${op[$k]} s"
done
echo "opensees_frame3d.sh: 3-D rigid links (beam and bar): hysim ${hp[*]} s; OpenSees ${op[*]} s"
echo "opensees_frame3d.sh: OK"
