#!/usr/bin/env bash
# The frame model's recorders on a 3-D model (docs/outputs.md "Recorders") against a real
# OpenSees' recorders: the one-story frame of examples/fe_3d_floor.yaml (four columns in two
# orientations, perimeter beams, one with a rotated section, a diagonal truss brace, a rigid
# diaphragm with an eccentric mass) with linear columns and no gravity, undamped, Newmark average
# acceleration, a 2 Hz sine pulse of the ground in y for 2 s then free vibration:
#   recorder Node disp (the master's x, y, rz; every DOF of the diaphragm's slaves: their
#   in-plane DOFs through the diaphragm's lever arms, the others condensed), vel, accel -timeSeries
#   (abs_accel) and reaction (every DOF of the four supports); recorder Element force (the
#   columns, beams and brace: 12 values each), localForce, basicForce and basicDeformations (the
#   columns and beams: [N Vy Vz T My Mz]_i,j and [N Mz_i Mz_j My_i My_j T]; OpenSees 3.8's
#   ElasticBeam3d answers basicDeformations, not basicDeformation), the brace's basicForce;
#   recorder Drift across z. Every column of every recorder must agree with OpenSees'
#   to 1e-9 of that recorder's peak (round-off and the two programs' Newton tolerances).
# Needs OPENSEES=/path/to/OpenSees (skipped otherwise). Usage: opensees_recorders3d.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
example="$here/../../examples/fe_3d_floor.yaml"
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/frame_models.sh"
need_opensees
work_dir
steps=400
sine_pulse rec.txt 3 2 2
{
    floor3d_tcl Linear
    cat <<TCL
timeSeries Path 2 -dt 0.01 -filePath rec.txt -factor 1.0
timeSeries Constant 3 -factor 0.0
pattern UniformExcitation 2 2 -accel 2
recorder Node -file master.out -time -precision 16 -node 100 -dof 1 2 6 disp
recorder Node -file slaves.out -time -precision 16 -node 11 12 13 14 -dof 1 2 3 4 5 6 disp
recorder Node -file vel.out -time -precision 16 -node 100 12 -dof 1 2 6 vel
recorder Node -file abs.out -time -precision 16 -timeSeries 3 2 3 -node 100 12 -dof 1 2 6 accel
recorder Node -file reac.out -time -precision 16 -node 1 2 3 4 -dof 1 2 3 4 5 6 reaction
recorder Element -file force.out -time -precision 16 -ele 1 2 3 4 5 6 7 8 9 force
recorder Element -file local.out -time -precision 16 -ele 1 2 3 4 5 6 7 8 localForce
recorder Element -file basic.out -time -precision 16 -ele 1 2 3 4 5 6 7 8 basicForce
recorder Element -file bdef.out -time -precision 16 -ele 1 2 3 4 5 6 7 8 basicDeformations
recorder Element -file brace.out -time -precision 16 -ele 9 basicForce
recorder Drift -file drift.out -time -precision 16 -iNode 2 -jNode 12 -dof 2 -perpDirn 3
$(tcl_newmark $steps Transformation)
TCL
} > floor.tcl
run_opensees floor.tcl opensees.log || fail "OpenSees failed"
sed -e 's/axial_compression: 500/axial_compression: 0/' -e "s/transf: pdelta/transf: linear/" \
    -e 's/^  damping: .*/  damping: {none: true}/' -e '/^ground_motion:/,$d' "$example" > floor.yaml
cat >> floor.yaml <<YAML
ground_motion: {file: rec.txt, format: columns, dt: 0.01}
$(newmark_analysis $steps)
output:
  recorders:
    - {name: master, node: 100, dofs: [x, y, rz], response: disp}
    - {name: slaves, node: [11, 12, 13, 14], dofs: [x, y, z, rx, ry, rz], response: disp}
    - {name: vel, node: [100, 12], dofs: [x, y, rz], response: vel}
    - {name: abs, node: [100, 12], dofs: [x, y, rz], response: abs_accel}
    - {name: reac, node: [1, 2, 3, 4], dofs: [x, y, z, rx, ry, rz], response: reaction}
    - {name: force, element: [col1, col2, col3, col4, beam1, beam2, beam3, beam4, brace], response: force}
    - {name: local, element: [col1, col2, col3, col4, beam1, beam2, beam3, beam4], response: local_force}
    - {name: basic, element: [col1, col2, col3, col4, beam1, beam2, beam3, beam4], response: basic_force}
    - {name: bdef, element: [col1, col2, col3, col4, beam1, beam2, beam3, beam4], response: deformation}
    - {name: brace, element: brace, response: basic_force}
    - {name: drift, drift: {i: 2, j: 12, dof: y, perp: z}}
YAML
grep -q 'transf: pdelta' floor.yaml && fail "floor.yaml still has P-Delta columns"
"$hysim" run floor.yaml -o run --quiet > run.log 2>&1 || fail "hysim run exited $?"
# compare TOL NAME...: every column of each recorder against OpenSees' NAME.out
compare() {
    local tol=$1 r
    shift
    for r in "$@"; do recorder_vs_opensees "$r" "run/recorders/$r.csv" "$r.out" "$tol"; done
}
compare 1e-9 master slaves vel abs reac force local basic bdef brace drift
echo "opensees_recorders3d.sh: OK"
