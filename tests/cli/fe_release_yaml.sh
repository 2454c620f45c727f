#!/usr/bin/env bash
# Moment releases of the YAML elastic_beam (docs/fe_model.md, "Member loads and releases":
# `release: i | j | both`, 3-D `release_y`) against their OpenSees Tcl twins (elasticBeamColumn
# -release / -releasez / -releasey through hysim's Tcl front end): the same frame, so the
# response.csv files are equal bit for bit:
#  - 2-D: a two-story portal whose first-floor beam is pinned at its right end and whose roof beam
#    is pinned at both ends (a link carrying axial force only), Newmark, 400 steps;
#  - 3-D: two columns and a beam between their tops, released about local z at i and about local
#    y at j, shaken in y (the beam bends about both axes);
#  - the released frame is more flexible: its first period is longer than the same frame's
#    without releases (hysim modes);
#  - a bad value and release_y in 2-D are refused at FILE:LINE:COL with what to write.
# Usage: fe_release_yaml.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

# portal RELEASE1 RELEASE2: the 2-D YAML portal with those releases of its two beams
portal() {
    cat << YAML
hysim: 1
name: release-portal
units: {force: kN, length: m, time: s}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 6, y: 0, fix: [1, 1, 1]}
      - {id: 3, x: 0, y: 3.5, mass: [20, 20, 0.05]}
      - {id: 4, x: 6, y: 3.5, mass: [20, 20, 0.05]}
      - {id: 5, x: 0, y: 7.0, mass: [10, 10, 0.02]}
      - {id: 6, x: 6, y: 7.0, mass: [10, 10, 0.02]}
    elements:
      - {type: elastic_beam, nodes: [1, 3], E: 2.0e8, A: 0.01, I: 1.0e-4}
      - {type: elastic_beam, nodes: [2, 4], E: 2.0e8, A: 0.01, I: 1.0e-4}
      - {type: elastic_beam, nodes: [3, 5], E: 2.0e8, A: 0.01, I: 1.0e-4}
      - {type: elastic_beam, nodes: [4, 6], E: 2.0e8, A: 0.01, I: 1.0e-4}
      - {type: elastic_beam, nodes: [3, 4], E: 2.0e8, A: 0.01, I: 2.0e-4$1}
      - {type: elastic_beam, nodes: [5, 6], E: 2.0e8, A: 0.01, I: 2.0e-4$2}
    excitation: x
  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}
ground_motion:
  synthetic: {seed: 5, pga: 3.0, duration: 4, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 400
YAML
}
portal ", release: j" ", release: both" > portal.yaml
cat > portal.tcl << 'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 6 0
node 3 0 3.5 -mass 20 20 0.05; node 4 6 3.5 -mass 20 20 0.05
node 5 0 7.0 -mass 10 10 0.02; node 6 6 7.0 -mass 10 10 0.02
fix 1 1 1 1; fix 2 1 1 1
geomTransf Linear 1
element elasticBeamColumn 1 1 3 0.01 2.0e8 1.0e-4 1
element elasticBeamColumn 2 2 4 0.01 2.0e8 1.0e-4 1
element elasticBeamColumn 3 3 5 0.01 2.0e8 1.0e-4 1
element elasticBeamColumn 4 4 6 0.01 2.0e8 1.0e-4 1
element elasticBeamColumn 5 3 4 0.01 2.0e8 2.0e-4 1 -release 2
element elasticBeamColumn 6 5 6 0.01 2.0e8 2.0e-4 1 -releasez 3
TCL
tcl_twin portal.yaml portal.tcl > portal_tcl.yaml
twin_pair portal 300

# the releases soften the frame: a longer first period
portal "" "" > rigid.yaml
"$hysim" modes portal.yaml > released.modes 2>&1 || fail "modes: $(cat released.modes)"
"$hysim" modes rigid.yaml > rigid.modes 2>&1 || fail "modes: $(cat rigid.modes)"
t1=$(periods released.modes | awk '{ print $1 }')
t0=$(periods rigid.modes | awk '{ print $1 }')
awk -v a="$t1" -v b="$t0" 'BEGIN { exit !(a > 1.05 * b) }' || fail "released T1 $t1 s, rigid $t0 s"
echo "$me: first period $t1 s released, $t0 s rigid"

# 3-D: a beam released about z at i and about y at j
cat > space.yaml << 'YAML'
hysim: 1
name: release-space
units: {force: kN, length: m, time: s}
structure:
  model:
    ndm: 3
    nodes:
      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 2, x: 5, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 3, x: 0, y: 0, z: 3, mass: [10, 10, 10, 0.1, 0.1, 0.1]}
      - {id: 4, x: 5, y: 0, z: 3, mass: [10, 10, 10, 0.1, 0.1, 0.1]}
    elements:
      - {type: elastic_beam, nodes: [1, 3], E: 2.0e8, G: 8.0e7, A: 0.01, J: 2.0e-4, Iy: 1.0e-4, Iz: 1.5e-4, vecxz: [1, 0, 0]}
      - {type: elastic_beam, nodes: [2, 4], E: 2.0e8, G: 8.0e7, A: 0.01, J: 2.0e-4, Iy: 1.0e-4, Iz: 1.5e-4, vecxz: [1, 0, 0]}
      - {type: elastic_beam, nodes: [3, 4], E: 2.0e8, G: 8.0e7, A: 0.01, J: 2.0e-4, Iy: 1.0e-4, Iz: 2.0e-4, vecxz: [0, 0, 1],
         release: i, release_y: j}
    excitation: y
  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}
ground_motion:
  synthetic: {seed: 7, pga: 3.0, duration: 4, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 400
YAML
cat > space.tcl << 'TCL'
model BasicBuilder -ndm 3 -ndf 6
node 1 0 0 0; node 2 5 0 0
node 3 0 0 3 -mass 10 10 10 0.1 0.1 0.1; node 4 5 0 3 -mass 10 10 10 0.1 0.1 0.1
fix 1 1 1 1 1 1 1; fix 2 1 1 1 1 1 1
geomTransf Linear 1 1 0 0
geomTransf Linear 2 0 0 1
element elasticBeamColumn 1 1 3 0.01 2.0e8 8.0e7 2.0e-4 1.0e-4 1.5e-4 1
element elasticBeamColumn 2 2 4 0.01 2.0e8 8.0e7 2.0e-4 1.0e-4 1.5e-4 1
element elasticBeamColumn 3 3 4 0.01 2.0e8 8.0e7 2.0e-4 1.0e-4 2.0e-4 2 -releasez 1 -releasey 2
TCL
tcl_twin space.yaml space.tcl | sed 's|{opensees: space.tcl}|{opensees: space.tcl, excitation: y}|' > space_tcl.yaml
twin_pair space 300

# refusals
sed 's/release: j/release: end/' portal.yaml > bad.yaml
refused bad.yaml "release: end" "bad.yaml:[0-9]*:[0-9]*: .*release: expected i, j, both or none"
sed 's/release: j/release_y: j/' portal.yaml > bad2.yaml
refused bad2.yaml "release_y in 2-D" "bad2.yaml:[0-9]*:[0-9]*: .*'release_y' is for 3-D beams"
echo "$me: a bad release and release_y in 2-D refused at their FILE:LINE:COL"
echo "$me: OK"
