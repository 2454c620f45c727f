#!/usr/bin/env bash
# Fiber sections and beam-columns in the YAML frame model (structure.model.sections,
# force_beam_column, disp_beam_column, zero_length_section; docs/fe_model.md "Beam-columns with
# sections", docs/testfile.md). Each YAML model and its OpenSees Tcl twin written here (the same
# model through hysim's Tcl front end) build the same frame, so their response.csv files are equal
# bit for bit:
#  - 2-D: examples/fe_fiber_frame.yaml, an RC portal (force_beam_column columns of Concrete02 /
#    Steel02 fibers from rect and quad patches, straight layers and a single fiber; a HingeRadau
#    beam of aggregator hinges and an elastic interior, with mass per length), HHT, 600 steps;
#  - 3-D: a column on a zero_length_section base (fiber section with GJ aggregated with elastic
#    shears, orient), a disp_beam_column (Legendre, vecxz, corotational) above it, a
#    force_beam_column (Lobatto, pdelta) beside it on a circular section (circ patch and layer),
#    and a disp_beam_column of UserDefined points with a section each, driven in x;
#  - 2-D zero_length_section with the three-number orient and a uniaxial section;
#  - with OPENSEES set, the 3-D Tcl twin (a square patch for the circular one, below) through
#    OpenSees 3.8 and hysim: the tops' six DOFs agree within 1e-5 of each peak;
#  - the portal is nonlinear: its force-based elements iterate more than once a call on average
#    (the fibers crack and yield) and its energy balance closes within 1 %.
# The error messages (FILE:LINE:COL): tests/test_testfile_fe_section.c.
# Usage: fe_fiber_yaml.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
example="$here/../../examples/fe_fiber_frame.yaml"
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

# --- 2-D: the example portal and its Tcl twin
sed -e 's|^  dir: .*|  dir: out|' "$example" > portal.yaml
cat > portal.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 6 0
node 3 0 3.5 -mass 40 40 0.1; node 4 6 3.5 -mass 40 40 0.1
fix 1 1 1 1; fix 2 1 1 1
uniaxialMaterial Concrete02 1 -34000 -0.004 -24000 -0.014
uniaxialMaterial Concrete02 2 -27600 -0.002 -5000 -0.006
uniaxialMaterial Steel02 3 420000 2e8 0.01
uniaxialMaterial Elastic 4 1.0e6
section Fiber 1 {
  patch rect 1 10 1 -0.15 -0.15 0.15 0.15
  patch rect 2 2 1 -0.2 -0.2 -0.15 0.2
  patch rect 2 2 1 0.15 -0.2 0.2 0.2
  patch quad 2 10 1 -0.15 -0.2 0.15 -0.2 0.15 -0.15 -0.15 -0.15
  patch quad 2 10 1 -0.15 0.15 0.15 0.15 0.15 0.2 -0.15 0.2
  layer straight 3 3 4.9e-4 -0.15 -0.15 -0.15 0.15
  layer straight 3 3 4.9e-4 0.15 -0.15 0.15 0.15
  fiber 0 0 4.9e-4 3
}
section Fiber 2 {
  patch rect 1 12 1 -0.21 -0.11 0.21 0.11
  patch rect 2 2 1 -0.25 -0.15 -0.21 0.15
  patch rect 2 2 1 0.21 -0.15 0.25 0.15
  layer straight 3 3 3.8e-4 -0.21 -0.11 -0.21 0.11
  layer straight 3 3 3.8e-4 0.21 -0.11 0.21 0.11
}
section Aggregator 3 4 Vy -section 2
section Elastic 4 1.0 4.5e6 4.0e4
geomTransf PDelta 1
geomTransf Linear 2
beamIntegration Lobatto 1 1 5
beamIntegration HingeRadau 2 3 0.5 3 0.5 4
element forceBeamColumn 1 1 3 1 1
element forceBeamColumn 2 2 4 1 1 -iter 20 1e-12
element forceBeamColumn 3 3 4 2 2 -mass 1.2
TCL
tcl_twin portal.yaml portal.tcl > portal_tcl.yaml
twin_pair portal 500
esd() { # KEY: the value of KEY in the portal's summary.json element_state_determination
    sed -n "s/.*\"element_state_determination\": {.*\"$1\": \([0-9.e+-]*\).*/\1/p" portal_yaml/summary.json
}
calls=$(esd calls) iters=$(esd iterations)
[ -n "$calls" ] && [ "$iters" -gt $((calls + calls / 5)) ] ||
    fail "portal: $iters element iterations in $calls calls: not beyond the elastic range"
err=$(sed -n 's/.*"error_rel": \([0-9.e+-]*\).*/\1/p' portal_yaml/summary.json)
awk -v e="$err" 'BEGIN { exit !(e != "" && e < 0.01 && e > -0.01) }' ||
    fail "portal: energy balance error '$err' (relative; want within 1 %)"
echo "portal: $iters element iterations in $calls calls, relative energy balance error $err"

# --- 3-D: zero_length_section base, disp_beam_column above it, force_beam_column beside it
cat > col3d.yaml <<'YAML'
hysim: 1
name: col3d
units: {force: kN, length: m, time: s}
materials:
  core: {type: concrete02, fc: -34000, epsc0: -0.004, fcu: -24000, epscu: -0.014}
  rebar: {type: steel02, fy: 420000, E0: 2e8, b: 0.01}
  shear: {type: elastic, k: 2.0e6}
structure:
  model:
    ndm: 3
    nodes:
      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 2, x: 0, y: 0, z: 0}
      - {id: 3, x: 0, y: 0, z: 3, mass: [30, 30, 30, 0.1, 0.1, 0.1]}
      - {id: 4, x: 4, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 5, x: 4, y: 0, z: 3, mass: [30, 30, 30, 0.1, 0.1, 0.1]}
      - {id: 6, x: 8, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 7, x: 8, y: 0, z: 3, mass: [30, 30, 30, 0.1, 0.1, 0.1]}
    sections:
      - name: square
        type: fiber
        GJ: 2.0e4
        patches:
          - {type: rect, material: core, divisions: [8, 8], I: [-0.2, -0.2], J: [0.2, 0.2]}
        layers:
          - {type: straight, material: rebar, bars: 3, area: 4.9e-4, start: [-0.16, -0.16], end: [-0.16, 0.16]}
          - {type: straight, material: rebar, bars: 3, area: 4.9e-4, start: [0.16, -0.16], end: [0.16, 0.16]}
      - {name: base, type: aggregator, materials: {Vy: shear, Vz: shear}, section: square}
      - name: round
        type: fiber
        GJ: 1.5e4
        patches:
          - {type: circ, material: core, divisions: [12, 3], center: [0, 0], radius: [0, 0.22]}
        layers:
          - {type: circ, material: rebar, bars: 8, area: 3.8e-4, center: [0, 0], radius: 0.18}
    elements:
      - {type: zero_length_section, name: hinge, nodes: [1, 2], section: base, orient: [0, 0, 1, 1, 0, 0]}
      - {type: disp_beam_column, name: col, nodes: [2, 3], section: square, vecxz: [1, 0, 0],
         integration: {type: Legendre, points: 3}, transf: corotational}
      - {type: force_beam_column, name: col2, nodes: [4, 5], section: round, vecxz: [0, 1, 0],
         integration: {type: Lobatto, points: 4}, transf: pdelta, mass: 0.5}
      - {type: disp_beam_column, name: col3, nodes: [6, 7], sections: [square, round, square],
         integration: {type: UserDefined, locations: [0.1, 0.5, 0.9], weights: [0.3, 0.4, 0.3]},
         vecxz: [1, 0, 0]}
    excitation: x
  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}
ground_motion:
  synthetic: {seed: 5, pga: 6.0, duration: 4, dt: 0.01}
analysis:
  integrator: {type: hht, alpha: -0.05}
  dt: 0.01
  steps: 400
YAML
cat > col3d.tcl <<'TCL'
model BasicBuilder -ndm 3 -ndf 6
node 1 0 0 0; node 2 0 0 0
node 3 0 0 3 -mass 30 30 30 0.1 0.1 0.1
node 4 4 0 0
node 5 4 0 3 -mass 30 30 30 0.1 0.1 0.1
node 6 8 0 0
node 7 8 0 3 -mass 30 30 30 0.1 0.1 0.1
fix 1 1 1 1 1 1 1; fix 4 1 1 1 1 1 1; fix 6 1 1 1 1 1 1
uniaxialMaterial Concrete02 1 -34000 -0.004 -24000 -0.014
uniaxialMaterial Steel02 2 420000 2e8 0.01
uniaxialMaterial Elastic 3 2.0e6
section Fiber 1 -GJ 2.0e4 {
  patch rect 1 8 8 -0.2 -0.2 0.2 0.2
  layer straight 2 3 4.9e-4 -0.16 -0.16 -0.16 0.16
  layer straight 2 3 4.9e-4 0.16 -0.16 0.16 0.16
}
section Aggregator 2 3 Vy 3 Vz -section 1
section Fiber 3 -GJ 1.5e4 {
  patch circ 1 12 3 0 0 0 0.22 0 360
  layer circ 2 8 3.8e-4 0 0 0.18
}
geomTransf Corotational 1 1 0 0
geomTransf PDelta 2 0 1 0
element zeroLengthSection 1 1 2 2 -orient 0 0 1 1 0 0
element dispBeamColumn 2 2 3 1 {Legendre 1 3}
element forceBeamColumn 3 4 5 2 {Lobatto 3 4} -mass 0.5
geomTransf Linear 3 1 0 0
beamIntegration UserDefined 4 3 1 3 1 0.1 0.5 0.9 0.3 0.4 0.3
element dispBeamColumn 4 6 7 3 4
TCL
tcl_twin col3d.yaml col3d.tcl > col3d_tcl.yaml
twin_pair col3d 300

# --- 2-D zero_length_section: three-number orient, a uniaxial section and an aggregator
cat > zls2d.yaml <<'YAML'
hysim: 1
name: zls2d
units: {force: kN, length: m, time: s}
materials:
  spring: {type: steel01, fy: 80, E0: 4000, b: 0.02}
  axial: {type: elastic, k: 1.0e5}
  rot: {type: elastic, k: 3.0e3}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 0, y: 0, mass: [10, 10, 0.5]}
    sections:
      - {name: shear, type: uniaxial, material: spring, resultant: Vy}
      - {name: hinge, type: aggregator, materials: {P: axial, Mz: rot}, section: shear}
    elements:
      - {type: zero_length_section, nodes: [1, 2], section: hinge, orient: [0, 1, 0]}
  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}
ground_motion:
  synthetic: {seed: 2, pga: 4.0, duration: 3, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 300
YAML
cat > zls2d.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 0 0 -mass 10 10 0.5
fix 1 1 1 1
uniaxialMaterial Steel01 1 80 4000 0.02
uniaxialMaterial Elastic 2 1.0e5
uniaxialMaterial Elastic 3 3.0e3
section Uniaxial 1 1 Vy
section Aggregator 2 2 P 3 Mz -section 1
element zeroLengthSection 1 1 2 2 -orient 0 1 0
TCL
tcl_twin zls2d.yaml zls2d.tcl > zls2d_tcl.yaml
twin_pair zls2d 250

# --- with OpenSees: the 3-D Tcl twin through OpenSees 3.8 and through hysim, Newmark with Newton,
# no damping, a sine pulse in x; the columns' tops compared relative to each DOF's peak (the
# corotational column: its rotation-vector update, docs/fe_model.md, leaves about 1e-6). The round
# section's `patch circ` is OpenSees 3.8's annular-sector cells (CircSectionCell.cpp) in both.
rest_needs_opensees
steps=400
sine_pulse rec.txt 4 2.5 1
cat col3d.tcl - > h_col3d.tcl <<TCL
timeSeries Path 2 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 2 1 -accel 2
recorder Node -file disp.out -time -precision 16 -node 3 5 7 -dof 1 2 3 4 5 6 disp
$(tcl_newmark $steps Transformation)
TCL
run_opensees h_col3d.tcl os_col3d.log || fail "OpenSees (col3d): $(tail -5 os_col3d.log)"
cat > h_col3d.yaml <<YAML
hysim: 1
name: h_col3d
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: h_col3d.tcl}
$(newmark_analysis $steps)
output:
  recorders:
    - {name: disp, node: [3, 5, 7], dofs: [x, y, z, rx, ry, rz], response: disp}
YAML
"$hysim" run h_col3d.yaml -o run_col3d --quiet > hs_col3d.log 2>&1 || fail "hysim run (col3d): $(cat hs_col3d.log)"
histories_vs_opensees "3-D columns vs OpenSees" run_col3d/recorders/disp.csv disp.out 1e-5 "" 1e-9
echo "$me: OK"
