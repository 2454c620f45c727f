# The OpenSees Tcl models that several frame tests share (opensees_frame.sh, opensees_recorders.sh,
# fe_model.sh, opensees_frame3d.sh, opensees_recorders3d.sh); sourced, not run. Units kN, m, s.

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
