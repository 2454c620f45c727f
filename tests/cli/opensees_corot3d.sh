#!/usr/bin/env bash
# The corotational 3-D beam-column (src/fe/fe_corot3d.c, docs/fe_model.md) against a real OpenSees
# (CorotCrdTransf3d): a 3 m cantilever column of four elastic elements with a 10 t tip mass (no
# rotational mass), undamped, Newmark average acceleration with Newton, a 0.6 Hz sine of the
# ground in x (4 m/s^2 for 3 s), large sway:
#  - plane sway (vecxz = global x, the ground in a principal plane; the tip sways 0.85 m, 28 %
#    drift): hysim's sum of rotation increments is the rotation itself, so the tip's ux and uz
#    must agree to 1e-6 of their peaks (measured: 2e-7 and 4e-7);
#  - biaxial sway (principal axes at 45 degrees, Iz = 3 Iy; 0.46 m): the rotation axis wanders;
#    hysim adds the increments of the rotation vector where OpenSees composes them, and the two
#    differ at second order: ux, uy and uz must agree to 1e-3 of their peaks (measured: 1.6e-4).
# Needs OPENSEES=/path/to/OpenSees (skipped otherwise). Usage: opensees_corot3d.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
need_opensees
work_dir
steps=300
sine_pulse rec.txt 4 0.6 3 400

# sway NAME VX VY TOL: the column with vecxz (VX, VY, 0) in both programs; the tip's ux, uy, uz
# compared to TOL of their peaks (uy only when its peak is above 1 mm)
sway() {
    local name=$1 vx=$2 vy=$3 tol=$4
    cat > $name.tcl <<TCL
model BasicBuilder -ndm 3 -ndf 6
for {set k 0} {\$k <= 4} {incr k} { node [expr \$k + 1] 0 0 [expr 0.75 * \$k] }
fix 1 1 1 1 1 1 1
mass 5 10 10 10 0 0 0
geomTransf Corotational 1 $vx $vy 0
for {set k 1} {\$k <= 4} {incr k} { element elasticBeamColumn \$k \$k [expr \$k + 1] 0.01 200e6 80e6 2e-5 1e-5 3e-5 1 }
timeSeries Path 2 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 2 1 -accel 2
recorder Node -file os_$name.out -time -precision 16 -node 5 -dof 1 2 3 disp
$(tcl_newmark $steps Plain 30)
TCL
    run_opensees $name.tcl os_$name.log || fail "OpenSees ($name) failed"
    {
        printf 'hysim: 1\nname: %s\nunits: {force: kN, length: m, time: s}\nstructure:\n  model:\n' "$name"
        printf '    ndm: 3\n    nodes:\n      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n'
        for k in 1 2 3; do printf '      - {id: %d, x: 0, y: 0, z: %s}\n' $((k + 1)) "$(awk -v k=$k 'BEGIN { print 0.75 * k }')"; done
        printf '      - {id: 5, x: 0, y: 0, z: 3, mass: [10, 10, 10, 0, 0, 0]}\n    elements:\n'
        for k in 1 2 3 4; do
            printf '      - {type: elastic_beam, nodes: [%d, %d], E: 200e6, G: 80e6, A: 0.01, J: 2e-5, Iy: 1e-5, Iz: 3e-5, vecxz: [%s, %s, 0], transf: corotational}\n' $k $((k + 1)) "$vx" "$vy"
        done
        printf '  damping: {none: true}\nground_motion: {file: rec.txt, format: columns, dt: 0.01}\n'
        printf 'analysis:\n  integrator: {type: newmark}\n  dt: 0.01\n  steps: %d\n  initial_acceleration: zero\n' $steps
    } > $name.yaml
    "$hysim" run $name.yaml -o run_$name --quiet > run_$name.log 2>&1 || fail "hysim run ($name) exited $?"
    # the tip's dynamic DOFs are ux, uy, uz (its rotations are condensed)
    head -1 run_$name/response.csv | grep -q '^t,n5_ux,n5_uy,n5_uz$' || fail "$name: response.csv header $(head -1 run_$name/response.csv)"
    echo "opensees_corot3d.sh: $name sway of the corotational column against OpenSees:"
    histories_vs_opensees "$name" run_$name/response.csv os_$name.out "$tol" "1 2 3" 1e-3 "tip ux,tip uy,tip uz"
}
sway plane 1 0 1e-6
sway biaxial 1 1 1e-3
echo "opensees_corot3d.sh: OK"
