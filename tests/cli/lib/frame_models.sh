# The OpenSees Tcl models that several frame tests share (opensees_frame.sh, opensees_recorders.sh,
# fe_model.sh, opensees_frame3d.sh, opensees_recorders3d.sh, massless_brace.sh,
# opensees_massless_brace.sh); sourced, not run. Units kN, m, s.

# portal_tcl COLUMN_TRANSF BEAM_TRANSF: the portal frame: two 3.5 m columns 6 m apart (A 0.02,
# I 2e-3; geomTransf 1 of type COLUMN_TRANSF), a flexible beam (A 0.03, I 4e-3; geomTransf 2 of
# type BEAM_TRANSF), E 30e6, 20 t at each top node in x (the vertical DOFs and rotations massless)
portal_tcl() {
    cat <<TCL
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 6 0; node 3 0 3.5; node 4 6 3.5
fix 1 1 1 1; fix 2 1 1 1
mass 3 20 0 0; mass 4 20 0 0
geomTransf $1 1
geomTransf $2 2
element elasticBeamColumn 1 1 3 0.02 30e6 2e-3 1
element elasticBeamColumn 2 2 4 0.02 30e6 2e-3 1
element elasticBeamColumn 3 3 4 0.03 30e6 4e-3 2
TCL
}

# brace_portal_tcl: the portal frame of the massless-brace tests, without its brace: two 3.2 m
# columns 6 m apart (A 0.01, I 1e-4), a beam (A 0.01, I 2e-4), E 200e6, geomTransf Linear 1,
# 40 t at each top node in x; node 4's uy and the rotations massless
brace_portal_tcl() {
    cat <<TCL
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 6.0 0.0
node 3 0.0 3.2
node 4 6.0 3.2
fix 1 1 1 1
fix 2 1 1 1
mass 3 40.0 0.0 0.0
mass 4 40.0 0.0 0.0
geomTransf Linear 1
element elasticBeamColumn 1 1 3 0.01 200.0e6 1.0e-4 1
element elasticBeamColumn 2 2 4 0.01 200.0e6 1.0e-4 1
element elasticBeamColumn 3 3 4 0.01 200.0e6 2.0e-4 1
TCL
}

# portal_yaml_nodes: the portal's nodes in a test file (under structure.model.nodes)
portal_yaml_nodes() {
    cat <<'YAML'
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 6, y: 0, fix: [1, 1, 1]}
      - {id: 3, x: 0, y: 3.5, mass: [20, 0, 0]}
      - {id: 4, x: 6, y: 3.5, mass: [20, 0, 0]}
YAML
}

# floor3d_tcl COLUMN_TRANSF: the one-story frame of examples/fe_3d_floor.yaml: four 3.5 m columns
# on a 6 m x 4 m plan in two orientations (geomTransf 1 and 2 of type COLUMN_TRANSF), perimeter
# beams (one with a rotated section), a diagonal truss brace, a rigid diaphragm whose master
# node 100 carries 40 t and the slab's rotational inertia off the plan's centre
floor3d_tcl() {
    cat <<TCL
model BasicBuilder -ndm 3 -ndf 6
node 1 0 0 0; node 2 6 0 0; node 3 6 4 0; node 4 0 4 0
node 11 0 0 3.5; node 12 6 0 3.5; node 13 6 4 3.5; node 14 0 4 3.5
node 100 3.4 2.2 3.5
foreach n {1 2 3 4} { fix \$n 1 1 1 1 1 1 }
fix 100 0 0 1 1 1 0
mass 100 40 40 0 0 0 173.33333333333334
rigidDiaphragm 3 100 11 12 13 14
geomTransf $1 1 1 0 0
geomTransf $1 2 0 1 0
geomTransf Linear 3 0 0 1
geomTransf Linear 4 0 1 1
# elasticBeamColumn tag i j A E G J Iy Iz transf
element elasticBeamColumn 1 1 11 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 1
element elasticBeamColumn 2 2 12 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 2
element elasticBeamColumn 3 3 13 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 1
element elasticBeamColumn 4 4 14 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 2
element elasticBeamColumn 5 11 12 0.05 30e6 12e6 3e-4 2e-4 6e-4 4
element elasticBeamColumn 6 12 13 0.05 30e6 12e6 3e-4 2e-4 6e-4 3
element elasticBeamColumn 7 13 14 0.05 30e6 12e6 3e-4 2e-4 6e-4 3
element elasticBeamColumn 8 14 11 0.05 30e6 12e6 3e-4 2e-4 6e-4 3
uniaxialMaterial Elastic 1 30e6
element truss 9 1 14 0.002 1
TCL
}

# column_top_3d FILE EXTRA-ELEMENTS: a 3 m 3-D column whose top (node 2: x, y, z, rx, ry, rz, all
# with mass) carries a six-DOF control point or springs (EXTRA-ELEMENTS, indented six spaces), a
# seeded synthetic record in x, 1024 central-difference steps of 10 controller ticks; the
# materials kx .. krz are six elastic stiffnesses (3000, 4000, 5000 kN/m; 600, 700, 800 kN m/rad)
# (fe_model3d.sh, setups.sh)
column_top_3d() {
    cat > "$1" <<YAML
hysim: 1
name: six
units: {force: kN, length: m, time: s}
materials:
  kx: {type: elastic, k: 3000}
  ky: {type: elastic, k: 4000}
  kz: {type: elastic, k: 5000}
  krx: {type: elastic, k: 600}
  kry: {type: elastic, k: 700}
  krz: {type: elastic, k: 800}
structure:
  model:
    ndm: 3
    nodes:
      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 2, x: 0.5, y: 0.2, z: 3, mass: [50, 50, 50, 20, 20, 20]}
    elements:
      - {type: elastic_beam, nodes: [1, 2], E: 30e6, G: 12e6, A: 0.04, J: 2e-4, Iy: 1.5e-4, Iz: 3e-4, vecxz: [1, 0, 0]}
$2
    excitation: x
  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}
ground_motion:
  synthetic: {seed: 5, pga: 3.0, duration: 10, dt: 0.01}
analysis:
  integrator: {type: central_difference}
  dt: 0.009765625
  steps: 1024
YAML
}

# large_frame_model BAYS STORIES: the test file's head (hysim, name, units, structure.model) of a
# 2-D frame of elastic beam-columns, bay 6 m, story 3.5 m, E = 200 GPa (columns A = 0.0228 m^2,
# I = 5.41e-4 m^4; beams A = 0.0105 m^2, I = 5.62e-4 m^4), 20 t in x and y and 5 t m^2 at every
# joint, nodes numbered column line by column line (fe_large_frame.sh, lazy_libs.sh); 4 x 40:
# 600 DOFs, half-bandwidth 125 (the sparse solvers, ARPACK's modes)
large_frame_model() {
    awk -v bays="$1" -v stories="$2" 'BEGIN {
    print "hysim: 1\nname: large-frame\nunits: {force: kN, length: m, time: s}"
    print "structure:\n  model:\n    nodes:"
    for (c = 0; c <= bays; c++) for (s = 0; s <= stories; s++) {
        id = c * (stories + 1) + s + 1
        if (s == 0) printf "      - {id: %d, x: %d, y: 0, fix: [1, 1, 1]}\n", id, 6 * c
        else printf "      - {id: %d, x: %d, y: %.1f, mass: [20, 20, 5]}\n", id, 6 * c, 3.5 * s
    }
    print "    elements:"
    for (s = 1; s <= stories; s++) for (c = 0; c <= bays; c++) {
        top = c * (stories + 1) + s + 1
        printf "      - {type: elastic_beam, nodes: [%d, %d], E: 200e6, A: 0.0228, I: 5.41e-4}\n", top - 1, top
        if (c < bays)
            printf "      - {type: elastic_beam, nodes: [%d, %d], E: 200e6, A: 0.0105, I: 5.62e-4}\n", top, top + stories + 1
    }
}'
}
