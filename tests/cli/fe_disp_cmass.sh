#!/usr/bin/env bash
# The consistent mass of displacement-based beam-columns (OpenSees' dispBeamColumn -cMass,
# DispBeamColumn2d/3d::getMass: the cubic Hermitian rho L / 420 [156 22L 54 -13L; ...] in each
# bending plane and the axial rho L / 6 [2 1; 1 2], no torsional mass; YAML disp_beam_column
# `mass_type: consistent`; docs/fe_model.md, "Mass"):
#  - a 2-D portal of dispBeamColumn columns and beam (elastic sections, -cMass) and a 3-D column
#    pair with a beam: each YAML model and its Tcl twin give the same response.csv bit for bit;
#  - the consistent mass lengthens nothing it should not: the portal's first period lies between
#    those of the same frame with its beam-columns' mass lumped (rotations massless) and with no
#    element mass (hysim modes);
#  - with OPENSEES, `hysim modes` of the Tcl scripts gives OpenSees 3.8's eigen periods (4 of
#    them, 2-D and 3-D) to its printed digits (1e-4);
#  - forceBeamColumn -cMass and a force_beam_column's consistent mass_type are refused (OpenSees'
#    forceBeamColumn has no -cMass).
# Usage: fe_disp_cmass.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

# portal MASSTYPE: the 2-D YAML portal (MASSTYPE: consistent, lumped or none)
portal() {
    local m=", mass: 0.004, mass_type: $1"
    [ "$1" = none ] && m=""
    cat << YAML
hysim: 1
name: cmass-portal
units: {force: kN, length: m, time: s}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 240, y: 0, fix: [1, 1, 1]}
      - {id: 3, x: 0, y: 144, mass: [0.05, 0.05, 0]}
      - {id: 4, x: 240, y: 144, mass: [0.05, 0.05, 0]}
    sections:
      - {name: col, type: elastic, EA: 580000, EIz: 8700000}
      - {name: beam, type: elastic, EA: 870000, EIz: 52200000}
    elements:
      - {type: disp_beam_column, nodes: [1, 3], section: col, integration: {type: Legendre, points: 3}$m}
      - {type: disp_beam_column, nodes: [2, 4], section: col, integration: {type: Legendre, points: 3}$m}
      - {type: disp_beam_column, nodes: [3, 4], section: beam, integration: {type: Legendre, points: 3}$m}
    excitation: x
  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}
ground_motion:
  synthetic: {seed: 4, pga: 3.0, duration: 4, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 400
YAML
}
portal consistent > portal.yaml
cat > portal.tcl << 'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 240 0
node 3 0 144 -mass 0.05 0.05 0; node 4 240 144 -mass 0.05 0.05 0
fix 1 1 1 1; fix 2 1 1 1
geomTransf Linear 1
section Elastic 1 29000.0 20.0 300.0
section Elastic 2 29000.0 30.0 1800.0
element dispBeamColumn 1 1 3 3 1 1 -mass 0.004 -cMass
element dispBeamColumn 2 2 4 3 1 1 -mass 0.004 -cMass
element dispBeamColumn 3 3 4 3 2 1 -mass 0.004 -cMass
TCL
tcl_twin portal.yaml portal.tcl > portal_tcl.yaml
twin_pair portal 300

portal lumped > lumped.yaml
portal none > none.yaml
for f in portal lumped none; do
    "$hysim" modes $f.yaml > $f.modes 2>&1 || fail "modes $f: $(cat $f.modes)"
done
read -r tc _ <<< "$(periods portal.modes)"
read -r tl _ <<< "$(periods lumped.modes)"
read -r t0 _ <<< "$(periods none.modes)"
awk -v c="$tc" -v l="$tl" -v z="$t0" 'BEGIN { exit !(c > z && c < l) }' ||
    fail "T1 consistent $tc s, lumped $tl s, without element mass $t0 s"
echo "$me: T1 with the consistent mass $tc s, between no element mass ($t0 s) and lumped ($tl s)"

# 3-D: two columns and a beam of dispBeamColumns with -cMass
cat > space.yaml << 'YAML'
hysim: 1
name: cmass-space
units: {force: kN, length: m, time: s}
structure:
  model:
    ndm: 3
    nodes:
      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 2, x: 200, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}
      - {id: 3, x: 0, y: 0, z: 150, mass: [0.05, 0.05, 0.05, 0, 0, 0]}
      - {id: 4, x: 200, y: 0, z: 150, mass: [0.05, 0.05, 0.05, 0, 0, 0]}
    sections:
      - {name: col, type: elastic, EA: 580000, EIz: 8700000, EIy: 5800000, GJ: 2240000}
      - {name: beam, type: elastic, EA: 870000, EIz: 52200000, EIy: 8700000, GJ: 3360000}
    elements:
      - {type: disp_beam_column, nodes: [1, 3], section: col, integration: {type: Legendre, points: 3},
         vecxz: [1, 0, 0], mass: 0.004, mass_type: consistent}
      - {type: disp_beam_column, nodes: [2, 4], section: col, integration: {type: Legendre, points: 3},
         vecxz: [1, 0, 0], mass: 0.004, mass_type: consistent}
      - {type: disp_beam_column, nodes: [3, 4], section: beam, integration: {type: Legendre, points: 3},
         vecxz: [0, 0, 1], mass: 0.004, mass_type: consistent}
    excitation: y
  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}
ground_motion:
  synthetic: {seed: 6, pga: 3.0, duration: 4, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 400
YAML
cat > space.tcl << 'TCL'
model BasicBuilder -ndm 3 -ndf 6
node 1 0 0 0; node 2 200 0 0
node 3 0 0 150 -mass 0.05 0.05 0.05 0 0 0; node 4 200 0 150 -mass 0.05 0.05 0.05 0 0 0
fix 1 1 1 1 1 1 1; fix 2 1 1 1 1 1 1
geomTransf Linear 1 1 0 0
geomTransf Linear 2 0 0 1
section Elastic 1 29000.0 20.0 300.0 200.0 11200.0 200.0
section Elastic 2 29000.0 30.0 1800.0 300.0 11200.0 300.0
element dispBeamColumn 1 1 3 3 1 1 -mass 0.004 -cMass
element dispBeamColumn 2 2 4 3 1 1 -mass 0.004 -cMass
element dispBeamColumn 3 3 4 3 2 2 -mass 0.004 -cMass
TCL
tcl_twin space.yaml space.tcl | sed 's|{opensees: space.tcl}|{opensees: space.tcl, excitation: y}|' > space_tcl.yaml
twin_pair space 300

# refusals
sed 's/element dispBeamColumn 3 3 4 3 2 1 -mass 0.004 -cMass/element forceBeamColumn 3 3 4 3 2 1 -mass 0.004 -cMass/' portal.tcl > force.tcl
tcl_twin portal.yaml force.tcl > force.yaml
refused force.yaml "forceBeamColumn -cMass" "force.tcl:10: element: option '-cMass' is not supported by hysim (forceBeamColumn knows -mass, -iter"
sed '0,/type: disp_beam_column/s//type: force_beam_column/' portal.yaml > forcey.yaml
refused forcey.yaml "force_beam_column mass_type: consistent" "forcey.yaml:[0-9]*:[0-9]*: .*a force_beam_column's mass is lumped"
echo "$me: forceBeamColumn -cMass and a consistent force_beam_column refused at their lines"

rest_needs_opensees
for f in portal space; do
    { cat $f.tcl; echo 'foreach l [eigen -fullGenLapack 4] { puts [format "period %.10g" [expr 2*acos(-1)/sqrt($l)]] }'; } > os_$f.tcl
    run_opensees os_$f.tcl os_$f.log || fail "OpenSees $f: $(tail -5 os_$f.log)"
    printf 'hysim: 1\nname: %s\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: %s.tcl}\n%s\n' $f $f "$(modes_only_tail)" > m_$f.yaml
    "$hysim" modes m_$f.yaml > m_$f.log 2>&1 || fail "hysim modes $f: $(tail -3 m_$f.log)"
    read -r -a hp <<< "$(periods m_$f.log)"
    read -r -a op <<< "$(script_periods os_$f.log)"
    [ "${#op[@]}" -eq 4 ] || fail "OpenSees $f: $(tail -5 os_$f.log)"
    for k in 0 1 2 3; do
        near "${hp[$k]}" "${op[$k]}" 1e-4 || fail "$f period $((k + 1)): hysim ${hp[$k]} s, OpenSees ${op[$k]} s"
    done
    echo "$me: $f: periods ${hp[*]:0:4} s, OpenSees 3.8 ${op[*]} s"
done
echo "$me: OK"
