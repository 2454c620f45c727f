#!/bin/bash
# Member loads and moment releases in OpenSees scripts (docs/opensees_tcl.md: eleLoad,
# elasticBeamColumn -release; src/fe/fe_member_load.c), run by `hysim run` with the script's own
# analysis:
#  - OpenSees' own Test.BeamLoad2D.ops and Test.BeamLoad3D.ops (from $OPENSEES_SRC/EXAMPLES/
#    ExamplesForTesting; skipped when it is absent): a simply supported beam under two halves of a
#    point load and a uniform load each (transverse and axial; 3-D in y and z), whose axial
#    displacement and end rotations the scripts print in closed form (3-D: the rotations about y
#    with the sign of those about z; OpenSees' and hysim's are the opposite, the right-hand rule
#    about local y turning a +z deflection negative). Their `print node` (an
#    OpenSees printout hysim does not make) becomes a `puts` of nodeDisp in a copy. The
#    elasticBeamColumn and dispBeamColumn equal the closed forms to 1e-12; nonlinearBeamColumn
#    (3 Lobatto points: the member loads' section forces integrated by its rule) equals OpenSees
#    3.8 to 1e-12 (with OPENSEES); beamWithHinges (lp = 0.2 L: OpenSees' HingeRadau would weigh
#    the interior negatively) is refused at its line with the reason;
#  - a frame written here (fiber forceBeamColumn columns of Steel01, PDelta; beams: an elastic one
#    with -beamUniform, on the roof a dispBeamColumn with two -beamPoint and beside it an elastic
#    one released at its left end carrying -beamUniform with an axial part): gravity by LoadControl in 10 steps, loadConst
#    -time 0, then a ground motion by Newmark with Rayleigh damping; the gravity reactions sum to
#    the applied loads (1e-9), and with OPENSEES the recorders (displacements of every floor,
#    local forces of the loaded beams, the columns' basic forces) equal OpenSees 3.8's within
#    1e-9 of each column's peak;
#  - a 3-D frame written here (elastic columns, Linear and PDelta; an elastic beam released about
#    z at i and about y at j, a dispBeamColumn beam and a forceBeamColumn brace, all loaded in
#    local y and z, uniform and point, with axial parts), static by LoadControl: the reactions
#    balance the loads' global resultant (1e-12); with OPENSEES its displacements, local forces,
#    reactions and four periods (eigen) equal OpenSees 3.8's within 1e-10 of each row's peak;
#  - beamWithHinges (lp = 0.1 L, Steel01 fiber hinges, elastic interior) as a PDelta column with
#    member loads across and along it, gravity, loadConst, then a DisplacementControl pushover past
#    yield, 2-D and 3-D: with OPENSEES its top's displacements and local forces equal OpenSees
#    3.8's within 1e-10 of each column's peak (OpenSees' HingeRadau: the hinge sections at the
#    ends only);
#  - the mass of a released beam is OpenSees' (not condensed): a two-story portal of -cMass beams,
#    one released at i, the roof's at both ends, read by a test file: `hysim modes` gives OpenSees
#    3.8's four lowest periods (eigen -fullGenLapack) to its printed digits (1e-4);
#  - PDelta cantilevers (elasticBeamColumn, dispBeamColumn) with transverse and axial member
#    loads: with OPENSEES displacements and local forces within 1e-12 of OpenSees 3.8's peaks;
#  - partial uniform loads (aOverL bOverL) on an elastic beam released at one end, a
#    forceBeamColumn beam and a column, 2-D and 3-D, and in 2-D loads varying along the member
#    (wyb wxb): the reactions balance the loads (1e-12); with OPENSEES displacements and local
#    forces within 1e-12 of OpenSees 3.8's peaks;
#  - the 2-D Corotational transformation: a portal of a fiber forceBeamColumn and a dispBeamColumn
#    column, a released elastic beam and a forceBeamColumn beam, all four with member loads,
#    gravity then a pushover to a 0.21 drift: with OPENSEES the nodes' displacements and the
#    elements' local forces equal OpenSees 3.8's within 1e-10 of each column's peak;
#  - the test file's analysis (about the static equilibrium): a P-Delta portal whose beam carries
#    -beamUniform responds as its twin with the equivalent nodal loads (the gravity compression
#    of its columns; 1e-12 of the peak), and not as the portal without gravity.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

# the frame: 2 stories, 1 bay, gravity then a ground motion
cat > frame.tcl << 'TCL'
model basic -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 240.0 0.0
node 3 0.0 144.0
node 4 240.0 144.0
node 5 0.0 288.0
node 6 240.0 288.0
fix 1 1 1 1
fix 2 1 1 1
mass 3 0.2 0.2 0.0
mass 4 0.2 0.2 0.0
mass 5 0.1 0.1 0.0
mass 6 0.1 0.1 0.0
uniaxialMaterial Steel01 1 50.0 29000.0 0.02
section Fiber 1 {
    patch rect 1 10 1 -7.0 -5.0 7.0 5.0
}
geomTransf PDelta 1
geomTransf Linear 2
element forceBeamColumn 1 1 3 1 "Lobatto 1 5"
element forceBeamColumn 2 2 4 1 "Lobatto 1 5"
element forceBeamColumn 3 3 5 1 "Lobatto 1 5"
element forceBeamColumn 4 4 6 1 "Lobatto 1 5"
section Elastic 2 29000.0 30.0 1800.0
element elasticBeamColumn 5 3 4 30.0 29000.0 1800.0 2
element dispBeamColumn 6 5 6 4 2 2
element elasticBeamColumn 7 5 6 10.0 29000.0 200.0 2 -release 1
timeSeries Linear 1
pattern Plain 1 1 {
    eleLoad -ele 5 -type -beamUniform -0.25
    eleLoad -range 6 6 -type -beamPoint -40.0 0.3 2.0
    eleLoad -ele 6 -type -beamPoint -40.0 0.7
    eleLoad -ele 7 -type -beamUniform -0.05 0.01
    load 5 0.0 -20.0 0.0
}
constraints Transformation
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 20 0
algorithm Newton
integrator LoadControl 0.1
analysis Static
set ok [analyze 10]
reactions
set Rx [expr [nodeReaction 1 1] + [nodeReaction 2 1]]
set Ry [expr [nodeReaction 1 2] + [nodeReaction 2 2]]
puts [format "gravity %d %.17g %.17g" $ok $Rx $Ry]
puts [format "forces5 %s" [eleResponse 5 localForce]]
loadConst -time 0.0
recorder Node -file disp.out -time -precision 16 -node 3 4 5 6 -dof 1 2 3 disp
recorder Element -file beams.out -time -precision 16 -ele 5 6 7 localForce
recorder Element -file cols.out -time -precision 16 -ele 1 2 3 4 basicForce
timeSeries Path 2 -dt 0.01 -filePath gm.txt -factor 386.4
pattern UniformExcitation 2 1 -accel 2
rayleigh 0.2 0.0 0.0 0.002
wipeAnalysis
constraints Transformation
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 20 0
algorithm Newton
integrator Newmark 0.5 0.25
analysis Transient
set ok [analyze 200 0.01]
puts "dynamic $ok"
TCL
sine_pulse gm.txt 0.4 2.0 0.6 250
os_testfile frame frame.tcl > frame.yaml
"$hysim" run frame.yaml -o run_frame > frame.log 2>&1 || fail "hysim run frame: $(tail -5 frame.log)"
grep -q '^dynamic 0$' frame.log || fail "frame: the dynamic analysis failed"
# the applied gravity: 0.25 x 240 + 2 x 40 + 0.05 x 240 + 20 (down), 0.01 x 240 + 2 (along x)
g=$(awk '$1 == "gravity" { ex = 0.01 * 240 + 2; ey = 0.25 * 240 + 80 + 0.05 * 240 + 20
        a = ($3 + ex) / ex; b = ($4 - ey) / ey; a = a < 0 ? -a : a; b = b < 0 ? -b : b
        print ($2 == 0 ? (a > b ? a : b) : "failed") }' frame.log)
awk -v g="$g" 'BEGIN { exit !(g != "" && g + 0 == g && g <= 1e-9) }' ||
    fail "frame: the gravity reactions do not balance the loads: $g ($(grep -E '^gravity' frame.log))"
echo "$me: frame: the gravity reactions balance the member and nodal loads to $g"

# 3-D: two columns (Linear, PDelta), a beam released about z at i and about y at j, a second beam
# (dispBeamColumn) and a forceBeamColumn brace, loaded in y and z: the static state and the modes
cat > space.tcl << 'TCL'
model basic -ndm 3 -ndf 6
node 1 0.0 0.0 0.0
node 2 200.0 0.0 0.0
node 3 0.0 0.0 150.0
node 4 200.0 0.0 150.0
node 5 200.0 120.0 150.0
fix 1 1 1 1 1 1 1
fix 2 1 1 1 1 1 1
fix 5 0 0 1 0 0 0
mass 3 0.1 0.1 0.1 1.0 1.0 1.0
mass 4 0.1 0.1 0.1 1.0 1.0 1.0
mass 5 0.1 0.1 0.0 1.0 1.0 1.0
geomTransf Linear 1 1.0 0.0 0.0
geomTransf PDelta 2 1.0 0.0 0.0
geomTransf Linear 3 0.0 0.0 1.0
element elasticBeamColumn 1 1 3 20.0 29000.0 11200.0 300.0 200.0 250.0 1
element elasticBeamColumn 2 2 4 20.0 29000.0 11200.0 300.0 200.0 250.0 2
element elasticBeamColumn 3 3 4 15.0 29000.0 11200.0 200.0 150.0 300.0 3 -releasez 1 -releasey 2
section Elastic 1 29000.0 15.0 300.0 150.0 11200.0 200.0
element dispBeamColumn 4 4 5 4 1 3
element forceBeamColumn 5 1 5 3 "Lobatto 1 5"
timeSeries Linear 1
pattern Plain 1 1 {
    eleLoad -ele 3 -type -beamUniform -0.2 0.05 0.01
    eleLoad -ele 4 -type -beamPoint -10.0 3.0 0.25 1.0
    eleLoad -ele 4 -type -beamUniform 0.0 -0.1
    eleLoad -ele 5 -type -beamUniform 0.02 -0.03
    eleLoad -ele 3 -type -beamPoint 0.0 -8.0 0.6
}
constraints Plain
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 20 0
algorithm Newton
integrator LoadControl 0.25
analysis Static
set ok [analyze 4]
foreach n {3 4 5} { puts "static $n [nodeDisp $n]" }
puts "local3 [eleResponse 3 localForce]"
puts "local4 [eleResponse 4 localForce]"
reactions
set R [list]
foreach d {1 2 3} { lappend R [expr [nodeReaction 1 $d] + [nodeReaction 2 $d] + [nodeReaction 5 $d]] }
puts "reaction $ok $R"
set T [eigen 4]
puts "periods [lmap w $T { expr 6.283185307179586 / sqrt($w) }]"
TCL
os_testfile space space.tcl > space.yaml
"$hysim" run space.yaml -o run_space > space.log 2>&1 || fail "hysim run space: $(tail -5 space.log)"
# the reactions balance the loads' global resultant: beam 3 along x (local y = Y, z = Z), beam 4
# along y (local y = -X, z = Z), the brace from (0, 0, 0) to (200, 120, 150) with vecxz Z
q=$(awk '$1 == "reaction" { ok = $2; rx = $3; ry = $4; rz = $5 }
    END { L = sqrt(200 ^ 2 + 120 ^ 2 + 150 ^ 2); x1 = 200 / L; x2 = 120 / L; x3 = 150 / L
        n = sqrt(x1 ^ 2 + x2 ^ 2); y1 = -x2 / n; y2 = x1 / n; y3 = 0
        z1 = x2 * y3 - x3 * y2; z2 = x3 * y1 - x1 * y3; z3 = x1 * y2 - x2 * y1
        fx = 0.01 * 200 + 10 + L * (0.02 * y1 - 0.03 * z1)
        fy = -0.2 * 200 + 1 + L * (0.02 * y2 - 0.03 * z2)
        fz = 0.05 * 200 - 8 + 3 - 0.1 * 120 + L * (0.02 * y3 - 0.03 * z3)
        e = 0; a = rx + fx; b = ry + fy; c = rz + fz; top = sqrt(fx ^ 2 + fy ^ 2 + fz ^ 2)
        e = sqrt(a * a + b * b + c * c) / top; print (ok == 0 ? e : "failed") }' space.log)
awk -v q="$q" 'BEGIN { exit !(q + 0 == q && q <= 1e-12) }' || fail "space: reactions against the loads: $q"
echo "$me: space: the reactions balance the member loads' global resultant to $q"

# beamWithHinges (lp = 0.1 L) as a column with Steel01 fiber hinges and member loads (local x
# along the column: a uniform and a point load across it and along it), gravity, loadConst, then a
# pushover by DisplacementControl past yield: 2-D, and 3-D loaded about both axes
hinges() {
    local d3=$1
    echo "model basic -ndm $((2 + d3)) -ndf $((3 + 3 * d3))"
    if [ "$d3" = 1 ]; then
        echo "node 1 0.0 0.0 0.0; node 2 0.0 0.0 120.0; fix 1 1 1 1 1 1 1"
        echo "geomTransf PDelta 1 1.0 0.0 0.0"
        echo "section Fiber 1 -GJ 1.0e6 { patch rect 1 8 8 -5.0 -4.0 5.0 4.0 }"
        echo "element beamWithHinges 1 1 2 1 12.0 1 12.0 29000.0 80.0 427.0 683.0 11200.0 1000.0 1"
        echo "pattern Plain 1 Linear { eleLoad -ele 1 -type -beamUniform 0.1 0.05 -0.5; eleLoad -ele 1 -type -beamPoint 2.0 -1.0 0.4 -30.0 }"
        echo "recorder Node -file top.out -time -precision 16 -node 2 -dof 1 2 3 4 5 6 disp"
    else
        echo "node 1 0.0 0.0; node 2 0.0 120.0; fix 1 1 1 1"
        echo "geomTransf PDelta 1"
        echo "section Fiber 1 { patch rect 1 8 1 -5.0 -4.0 5.0 4.0 }"
        echo "element beamWithHinges 1 1 2 1 12.0 1 12.0 29000.0 80.0 683.0 1"
        echo "pattern Plain 1 Linear { eleLoad -ele 1 -type -beamUniform 0.1 -0.5; eleLoad -ele 1 -type -beamPoint 2.0 0.4 -30.0 }"
        echo "recorder Node -file top.out -time -precision 16 -node 2 -dof 1 2 3 disp"
    fi
    cat << 'TCL'
uniaxialMaterial Steel01 1 50.0 29000.0 0.02
constraints Plain
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 30 0
algorithm Newton
integrator LoadControl 0.1
analysis Static
set ok [analyze 10]
loadConst -time 0.0
recorder Element -file forces.out -time -precision 16 -ele 1 localForce
pattern Plain 2 Linear { load 2 1.0 0.0 0.0 TAIL }
integrator DisplacementControl 2 1 0.05
incr ok [analyze 40]
puts "ok $ok"
TCL
}
for d3 in 0 1; do
    hinges $d3 | awk '/^uniaxialMaterial/ { next } /^section Fiber/ { print "uniaxialMaterial Steel01 1 50.0 29000.0 0.02" } { print }' |
        sed "s/ TAIL/$([ $d3 = 1 ] && echo ' 0.0 0.0 0.0')/" > hinges$d3.tcl
    os_testfile hinges$d3 hinges$d3.tcl > hinges$d3.yaml
    "$hysim" run hinges$d3.yaml -o run_h$d3 > hinges$d3.log 2>&1 || fail "hysim run hinges$d3: $(tail -5 hinges$d3.log)"
    grep -q '^ok 0$' hinges$d3.log || fail "hinges$d3: an analysis failed"
done
echo "$me: beamWithHinges with Steel01 fiber hinges and member loads: gravity and a pushover ran (2-D, 3-D)"

# The mass of a released beam is OpenSees': not condensed. A portal of consistent-mass beams
# (-cMass) released at one end and at both, read by a test file (`hysim modes`): its periods
# against OpenSees' eigen (below, with OPENSEES)
cat > cmass.tcl << 'TCL'
model basic -ndm 2 -ndf 3
node 1 0.0 0.0; node 2 240.0 0.0; node 3 0.0 144.0; node 4 240.0 144.0
node 5 0.0 288.0; node 6 240.0 288.0
fix 1 1 1 1; fix 2 1 1 1
geomTransf Linear 1
element elasticBeamColumn 1 1 3 20.0 29000.0 300.0 1 -mass 0.002 -cMass
element elasticBeamColumn 2 2 4 20.0 29000.0 300.0 1 -mass 0.002 -cMass
element elasticBeamColumn 3 3 5 20.0 29000.0 300.0 1 -mass 0.002 -cMass
element elasticBeamColumn 4 4 6 20.0 29000.0 300.0 1 -mass 0.002 -cMass
element elasticBeamColumn 5 3 4 30.0 29000.0 1800.0 1 -mass 0.004 -cMass -release 1
element elasticBeamColumn 6 5 6 30.0 29000.0 1800.0 1 -mass 0.004 -cMass -release 3
TCL
printf 'hysim: 1\nname: cmass\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: cmass.tcl}\n%s\n' "$(modes_only_tail)" > cmass.yaml
"$hysim" modes cmass.yaml > cmass.modes 2>&1 || fail "hysim modes cmass: $(tail -3 cmass.modes)"
[ "$(periods cmass.modes | wc -w)" -ge 4 ] || fail "cmass: no periods: $(head -5 cmass.modes)"

# Member loads and a release under the 2-D Corotational transformation: a portal of a Steel01
# fiber forceBeamColumn and a dispBeamColumn as columns, a released elastic beam beside a
# forceBeamColumn beam, each loaded (uniform, point, axial parts), gravity then a pushover to 30
# (0.21 drift) by DisplacementControl
cat > corot.tcl << 'TCL'
model basic -ndm 2 -ndf 3
node 1 0.0 0.0; node 2 240.0 0.0; node 3 0.0 144.0; node 4 240.0 144.0
fix 1 1 1 1; fix 2 1 1 1
geomTransf Corotational 1
uniaxialMaterial Steel01 1 50.0 29000.0 0.02
section Fiber 1 { patch rect 1 8 1 -5.0 -4.0 5.0 4.0 }
section Elastic 2 29000.0 30.0 1800.0
element forceBeamColumn 1 1 3 1 "Lobatto 1 5"
element dispBeamColumn 2 2 4 1 "Legendre 1 3"
element elasticBeamColumn 3 3 4 30.0 29000.0 1800.0 1 -release 2
element forceBeamColumn 4 3 4 1 "Lobatto 2 4"
timeSeries Linear 1
pattern Plain 1 1 {
  eleLoad -ele 3 -type -beamUniform -0.05 0.01
  eleLoad -ele 4 -type -beamPoint -10.0 0.3 1.0
  eleLoad -ele 1 -type -beamUniform 0.02 -0.01
  eleLoad -ele 2 -type -beamPoint 1.0 0.5 -3.0
}
recorder Node -file d.out -time -precision 16 -node 3 4 -dof 1 2 3 disp
constraints Plain
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 30 0
algorithm Newton
integrator LoadControl 0.1
analysis Static
set ok [analyze 10]
loadConst -time 0.0
recorder Element -file f.out -time -precision 16 -ele 1 2 3 4 localForce
pattern Plain 2 Linear { load 3 1.0 0.0 0.0 }
integrator DisplacementControl 3 1 1.0
incr ok [analyze 30]
puts "ok $ok"
TCL
os_testfile corot corot.tcl > corot.yaml
"$hysim" run corot.yaml -o run_corot > corot.log 2>&1 || fail "hysim run corot: $(tail -5 corot.log)"
grep -q '^ok 0$' corot.log || fail "corot: the pushover failed"

# PDelta columns (elasticBeamColumn, dispBeamColumn) whose member loads have axial parts: the
# axial basic force with its fixed-end part carries the P-Delta (PDeltaCrdTransf2d's q0)
cat > pdelta.tcl << 'TCL'
model basic -ndm 2 -ndf 3
node 1 0.0 0.0; node 2 0.0 144.0; node 3 100.0 0.0; node 4 100.0 144.0
fix 1 1 1 1; fix 3 1 1 1
geomTransf PDelta 1
section Elastic 2 29000.0 20.0 300.0
element elasticBeamColumn 1 1 2 20.0 29000.0 300.0 1
element dispBeamColumn 2 3 4 3 2 1
timeSeries Linear 1
pattern Plain 1 1 {
  eleLoad -ele 1 2 -type -beamUniform 0.05 -1.0
  eleLoad -ele 1 2 -type -beamPoint 2.0 0.7 -40.0
  load 2 1.0 -10.0 0.0; load 4 1.0 -10.0 0.0
}
recorder Node -file d.out -time -precision 16 -node 2 4 -dof 1 2 3 disp
recorder Element -file f.out -time -precision 16 -ele 1 2 localForce
constraints Plain
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 30 0
algorithm Newton
integrator LoadControl 0.1
analysis Static
puts "ok [analyze 10]"
TCL
os_testfile pdelta pdelta.tcl > pdelta.yaml
"$hysim" run pdelta.yaml -o run_pdelta > pdelta.log 2>&1 || fail "hysim run pdelta: $(tail -5 pdelta.log)"
grep -q '^ok 0$' pdelta.log || fail "pdelta: the analysis failed"

# Partial uniform loads (-beamUniform w <wx> aOverL bOverL): a portal whose beams (an elastic
# one released at i and a forceBeamColumn) and a column carry them, 2-D and 3-D (in local y and z)
partial() {
    if [ "$1" = 2 ]; then
        cat << 'TCL'
model basic -ndm 2 -ndf 3
node 1 0.0 0.0; node 2 0.0 144.0; node 3 240.0 144.0; node 4 240.0 0.0
fix 1 1 1 1; fix 4 1 1 1
geomTransf Linear 1
section Elastic 1 29000.0 30.0 1800.0
element elasticBeamColumn 1 1 2 20.0 29000.0 300.0 1
element elasticBeamColumn 3 4 3 20.0 29000.0 300.0 1
element elasticBeamColumn 2 2 3 30.0 29000.0 1800.0 1 -release 1
element forceBeamColumn 4 2 3 1 "Lobatto 1 5"
timeSeries Linear 1
pattern Plain 1 1 {
  eleLoad -ele 2 -type -beamUniform -0.5 0.1 0.2 0.7
  eleLoad -ele 4 -type -beamUniform -0.3 0.05 0.1 0.6
  eleLoad -ele 1 -type -beamUniform 0.1 0.0 0.5 1.0
  load 2 1.0 0.0 0.0
}
recorder Node -file d.out -time -precision 16 -node 2 3 -dof 1 2 3 disp
TCL
    else
        cat << 'TCL'
model basic -ndm 3 -ndf 6
node 1 0.0 0.0 0.0; node 2 0.0 0.0 144.0; node 3 240.0 0.0 144.0; node 4 240.0 0.0 0.0
fix 1 1 1 1 1 1 1; fix 4 1 1 1 1 1 1
geomTransf Linear 1 1.0 0.0 0.0
geomTransf Linear 2 0.0 0.0 1.0
section Elastic 1 29000.0 30.0 1800.0 600.0 11200.0 300.0
element elasticBeamColumn 1 1 2 20.0 29000.0 11200.0 300.0 200.0 300.0 1
element elasticBeamColumn 3 4 3 20.0 29000.0 11200.0 300.0 200.0 300.0 1
element elasticBeamColumn 2 2 3 30.0 29000.0 11200.0 300.0 600.0 1800.0 2 -releasey 2
element forceBeamColumn 4 2 3 2 "Lobatto 1 5"
timeSeries Linear 1
pattern Plain 1 1 {
  eleLoad -ele 2 -type -beamUniform -0.5 0.2 0.1 0.2 0.7
  eleLoad -ele 4 -type -beamUniform -0.3 -0.1 0.05 0.1 0.6
  eleLoad -ele 1 -type -beamUniform 0.1 0.05 0.0 0.5 1.0
  load 2 1.0 0.5 0.0 0.0 0.0 0.0
}
recorder Node -file d.out -time -precision 16 -node 2 3 -dof 1 2 3 4 5 6 disp
TCL
    fi
    cat << 'TCL'
recorder Element -file f.out -time -precision 16 -ele 1 2 3 4 localForce
constraints Plain
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 30 0
algorithm Newton
integrator LoadControl 0.1
analysis Static
puts "ok [analyze 10]"
reactions
set R [list]
foreach d {1 2 3} { lappend R [expr [nodeReaction 1 $d] + [nodeReaction 4 $d]] }
puts "reaction $R"
TCL
}
for d in 2 3; do
    partial $d > partial$d.tcl
    os_testfile partial$d partial$d.tcl > partial$d.yaml
    "$hysim" run partial$d.yaml -o run_p$d > partial$d.log 2>&1 || fail "hysim run partial$d: $(tail -5 partial$d.log)"
    grep -q '^ok 0$' partial$d.log || fail "partial$d: the analysis failed"
done
# the reactions balance the loads. 2-D: the column (local y = -X) 0.1 over 72, the beams' wx
# 0.1 and 0.05 over 120, the node's 1: x -7.2 + 12 + 6 + 1; y -0.5 x 120 - 0.3 x 120. 3-D: the
# column (local y = -Y, z = X) 0.1 and 0.05 over 72, the beams (local y = Y, z = Z) over 120:
# x 3.6 + 12 + 6 + 1, y -7.2 - 60 - 36 + 0.5, z 24 - 12
q=$(awk 'FNR == 1 { n++ } $1 == "reaction" {
        split(n == 1 ? "11.8 -96 0" : "22.6 -102.7 12", f, " ")
        for (k = 1; k <= (n == 1 ? 2 : 3); k++) { a = ($(k + 1) + f[k]) / f[k]; a = a < 0 ? -a : a; if (a > w) w = a }
        seen++ }
    END { print (seen == 2 ? w + 0 : "rows " seen) }' partial2.log partial3.log)
awk -v q="$q" 'BEGIN { exit !(q + 0 == q && q <= 1e-12) }' || fail "partial loads: the reactions against the loads: $q"
echo "$me: partial uniform loads (2-D, 3-D): the reactions balance the loads to $q"
# 2-D loads varying along the member (OpenSees' trapezoid: wyb wxb at bOverL): the column's
# 0.1 -> 0.4 across (-X) and 0 -> 0.2 along (+Y) over 72, the beams' -0.5 -> -0.1 and 0.1 -> 0.3
# over 120 and -0.3 -> -0.9 and 0.05 -> 0 over 240: x -18 + 24 + 6 + 1, y 7.2 - 36 - 144
sed -e 's/-beamUniform -0.5 0.1 0.2 0.7$/-beamUniform -0.5 0.1 0.2 0.7 -0.1 0.3/' \
    -e 's/-beamUniform -0.3 0.05 0.1 0.6$/-beamUniform -0.3 0.05 0.0 1.0 -0.9 0.0/' \
    -e 's/-beamUniform 0.1 0.0 0.5 1.0$/-beamUniform 0.1 0.0 0.5 1.0 0.4 0.2/' partial2.tcl > trapezoid.tcl
[ "$(grep -c 'beamUniform .* .* .* .* .* .*$' trapezoid.tcl)" -eq 3 ] || fail "trapezoid.tcl: the loads were not varied"
os_testfile trapezoid trapezoid.tcl > trapezoid.yaml
"$hysim" run trapezoid.yaml -o run_t > trapezoid.log 2>&1 || fail "hysim run trapezoid: $(tail -5 trapezoid.log)"
q=$(awk '$1 == "reaction" { a = ($2 + 13) / 13; b = ($3 - 172.8) / 172.8; a = a < 0 ? -a : a; b = b < 0 ? -b : b
        print (a > b ? a : b); n++ } END { if (n != 1) print "rows " n }' trapezoid.log)
awk -v q="$q" 'BEGIN { exit !(q + 0 == q && q <= 1e-12) }' || fail "trapezoid loads: the reactions against the loads: $q"
echo "$me: 2-D loads varying along the member: the reactions balance the loads to $q"

# The test file's analysis (about the static equilibrium): the member loads enter as the gravity
# compression of the P-Delta columns, as their equivalent nodal loads (the fixed-end forces
# reversed: wL/2 and wL^2/12 at the beam's ends) do: the two scripts give the same response
gravity_portal() {
    cat << TCL
model basic -ndm 2 -ndf 3
node 1 0.0 0.0; node 2 240.0 0.0
node 3 0.0 144.0 -mass 0.5 0.5 0.0; node 4 240.0 144.0 -mass 0.5 0.5 0.0
fix 1 1 1 1; fix 2 1 1 1
geomTransf PDelta 1
geomTransf Linear 2
element elasticBeamColumn 1 1 3 20.0 29000.0 300.0 1
element elasticBeamColumn 2 2 4 20.0 29000.0 300.0 1
element elasticBeamColumn 3 3 4 30.0 29000.0 1800.0 2
timeSeries Linear 1
pattern Plain 1 1 { $1 }
TCL
}
gravity_portal "eleLoad -ele 3 -type -beamUniform -2.0" > member.tcl
gravity_portal "load 3 0.0 -240.0 -9600.0; load 4 0.0 -240.0 9600.0" > nodal.tcl
gravity_portal "" > none.tcl
for s in member nodal none; do
    printf 'hysim: 1\nname: %s\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: %s.tcl}\n  damping: {none: true}\nground_motion:\n  synthetic: {seed: 2, pga: 50.0, duration: 2, dt: 0.01}\nanalysis:\n  integrator: {type: newmark}\n  dt: 0.01\n  steps: 200\n' $s $s > g_$s.yaml
    "$hysim" run g_$s.yaml -o run_g_$s --quiet > g_$s.log 2>&1 || fail "hysim run g_$s: $(tail -3 g_$s.log)"
done
same_response "eleLoad vs its equivalent nodal loads" run_g_member/response.csv run_g_nodal/response.csv 1e-12 1e-6 ||
    fail "the test file's analysis: eleLoad and its equivalent nodal loads differ"
same_response "no gravity vs the nodal loads" run_g_none/response.csv run_g_nodal/response.csv 1e-3 1e-6 &&
    fail "the test file's analysis: the member loads' gravity compression changed nothing"
echo "$me: the test file's analysis: eleLoad and its equivalent nodal loads give the same response (P-Delta compression); without gravity it differs"

# Test.BeamLoad2D/3D from OpenSees' source
if [ -n "${OPENSEES_SRC:-}" ] && [ -d "$OPENSEES_SRC/EXAMPLES/ExamplesForTesting" ]; then
    for d in 2D 3D; do
        src="$OPENSEES_SRC/EXAMPLES/ExamplesForTesting/Test.BeamLoad$d.ops"
        [ -f "$src" ] || fail "no $src"
        cols='[nodeDisp 2 1] [nodeDisp 1 3] [nodeDisp 2 3]'
        [ $d = 3D ] && cols='[nodeDisp 2 1] [nodeDisp 1 6] [nodeDisp 2 6] [nodeDisp 1 5] [nodeDisp 2 5]'
        sed "s/^\(\s*\)print node 1 2/\1puts \"hysim $cols\"/" "$src" > beam$d.tcl
        grep -q '^\s*puts "hysim' beam$d.tcl || fail "Test.BeamLoad$d.ops: no 'print node 1 2' to replace"
        os_testfile beam$d beam$d.tcl > beam$d.yaml
        "$hysim" run beam$d.yaml -o run_$d > beam$d.log 2>&1 && fail "beamWithHinges (lp = 0.2 L) ran"
        grep -q "beam$d.tcl:[0-9]*: element: hinge lengths lpI = 20, lpJ = 20 .*negative weight" beam$d.log ||
            fail "$d: beamWithHinges not refused at its line: $(tail -2 beam$d.log)"
        # each element's hysim row against the closed forms it prints after it
        e=$(awk '/^Element:/ { el = $2 } $1 == "hysim" { n = 0; for (i = 2; i <= NF; i++) v[n++] = $i; k = 0 }
            /^Exact/ && el != "NonlinearBeamColumn" { x = $NF; y = k > 2 ? -v[k] : v[k]; a = (y - x) / x; a = a < 0 ? -a : a
                if (a > w) w = a; k++; c++ }
            END { print (c == ("'$d'" == "2D" ? 6 : 10) ? w + 0 : "values " c) }' beam$d.log)
        awk -v e="$e" 'BEGIN { exit !(e + 0 == e && e <= 1e-12) }' || fail "Test.BeamLoad$d: $e from the closed forms"
        echo "$me: Test.BeamLoad$d.ops: elasticBeamColumn and dispBeamColumn equal the closed forms to $e; beamWithHinges refused at its line"
    done
else
    echo "$me: Test.BeamLoad2D/3D skipped (set OPENSEES_SRC=/path/to/OpenSees, the folder holding EXAMPLES)"
fi

rest_needs_opensees
for d in 2D 3D; do
    [ -f beam$d.tcl ] || continue
    mkdir os$d && cp beam$d.tcl os$d/ && (cd os$d && run_opensees beam$d.tcl os.log)
    r=$(paste -d' ' <(grep '^hysim' beam$d.log) <(grep '^hysim' os$d/os.log | head -3) | awk '{ h = NF / 2
        for (i = 2; i <= h; i++) { a = ($i - $(i + h)) / $(i + h); a = a < 0 ? -a : a; if (a > w) w = a } n++ }
        END { print (n == 3 ? w + 0 : "rows " n) }')
    awk -v r="$r" 'BEGIN { exit !(r + 0 == r && r <= 1e-12) }' || fail "Test.BeamLoad$d: hysim and OpenSees differ: $r"
    echo "$me: Test.BeamLoad$d.ops: the three elements hysim runs (nonlinearBeamColumn too) equal OpenSees 3.8 to $r"
done
mkdir oss && cp space.tcl oss/ && (cd oss && run_opensees space.tcl os.log) || fail "OpenSees space: $(tail -5 oss/os.log)"
r=$(paste -d' ' <(grep -E '^(static|local|reaction|periods)' space.log) <(grep -E '^(static|local|reaction|periods)' oss/os.log) |
    awk '{ h = NF / 2; if (h != int(h)) { print "fields"; exit } for (i = 2; i <= h; i++) { a = $i - $(i + h)
        a = a < 0 ? -a : a; p = $(i + h) < 0 ? -$(i + h) : $(i + h); if (p > pk[NR]) pk[NR] = p; if (a > d[NR]) d[NR] = a } n = NR }
        END { for (k = 1; k <= n; k++) if (d[k] / pk[k] > w) w = d[k] / pk[k]; print (n == 7 ? w + 0 : "rows " n) }')
awk -v r="$r" 'BEGIN { exit !(r + 0 == r && r <= 1e-10) }' || fail "space: hysim and OpenSees differ: $r"
echo "$me: space (3-D releases, member loads on the three kinds of beams): displacements, local forces, reactions and periods within $r of OpenSees 3.8's (of each row's peak)"
for d3 in 0 1; do
    mkdir osh$d3 && cp hinges$d3.tcl osh$d3/ && (cd osh$d3 && run_opensees hinges$d3.tcl os.log) ||
        fail "OpenSees hinges$d3: $(tail -5 osh$d3/os.log)"
    grep -q '^ok 0$' osh$d3/os.log || fail "OpenSees hinges$d3: an analysis failed"
    for f in top:50 forces:40; do
        r=$(columns_vs_opensees run_h$d3/${f%:*}.out osh$d3/${f%:*}.out ${f#*:})
        f=${f%:*}
        awk -v r="$r" 'BEGIN { exit !(r + 0 == r && r <= 1e-10) }' || fail "hinges$d3 $f.out differs from OpenSees: $r"
        echo "$me: beamWithHinges $((2 + d3))-D, $f.out: within $r of each column's peak of OpenSees 3.8's"
    done
done
{ cat cmass.tcl; echo 'foreach l [eigen -fullGenLapack 4] { puts [format "period %.10g" [expr 2*acos(-1)/sqrt($l)]] }'; } > oscm.tcl
run_opensees oscm.tcl oscm.log || fail "OpenSees cmass: $(tail -5 oscm.log)"
read -r -a hp <<< "$(periods cmass.modes)"
read -r -a op <<< "$(script_periods oscm.log)"
[ "${#op[@]}" -eq 4 ] || fail "OpenSees cmass: $(tail -5 oscm.log)"
for k in 0 1 2 3; do
    near "${hp[$k]}" "${op[$k]}" 1e-4 || fail "cmass period $((k + 1)): hysim ${hp[$k]} s, OpenSees ${op[$k]} s"
done
echo "$me: released -cMass beams (mass not condensed): periods ${hp[*]:0:4} s, OpenSees ${op[*]} s (to hysim modes' printed digits)"
mkdir osp && cp pdelta.tcl osp/ && (cd osp && run_opensees pdelta.tcl os.log) || fail "OpenSees pdelta: $(tail -5 osp/os.log)"
for f in d f; do
    r=$(columns_vs_opensees run_pdelta/$f.out osp/$f.out 10)
    awk -v r="$r" 'BEGIN { exit !(r + 0 == r && r <= 1e-12) }' || fail "pdelta $f.out: hysim and OpenSees differ: $r"
    echo "$me: PDelta columns with axial member loads: $f.out within $r of OpenSees 3.8's peaks"
done
for d in 2 3 t; do
    src=partial$d
    [ $d = t ] && src=trapezoid
    run=run_p$d
    [ $d = t ] && run=run_t
    mkdir ospl$d && cp $src.tcl ospl$d/ && (cd ospl$d && run_opensees $src.tcl os.log) ||
        fail "OpenSees $src: $(tail -5 ospl$d/os.log)"
    for f in d f; do
        r=$(columns_vs_opensees $run/$f.out ospl$d/$f.out 10)
        awk -v r="$r" 'BEGIN { exit !(r + 0 == r && r <= 1e-12) }' || fail "$src $f.out: hysim and OpenSees differ: $r"
        echo "$me: $src: $f.out within $r of OpenSees 3.8's peaks"
    done
done
mkdir osc && cp corot.tcl osc/ && (cd osc && run_opensees corot.tcl os.log) || fail "OpenSees corot: $(tail -5 osc/os.log)"
for f in d:40 f:30; do
    r=$(columns_vs_opensees run_corot/${f%:*}.out osc/${f%:*}.out ${f#*:})
    awk -v r="$r" 'BEGIN { exit !(r + 0 == r && r <= 1e-10) }' || fail "corot ${f%:*}.out: hysim and OpenSees differ: $r"
    echo "$me: 2-D Corotational with member loads and a release, pushed to a 0.21 drift: ${f%:*}.out within $r of OpenSees 3.8's peaks"
done
mkdir osf && cp frame.tcl gm.txt osf/ && (cd osf && run_opensees frame.tcl os.log) || fail "OpenSees frame: $(tail -5 osf/os.log)"
grep -q '^dynamic 0$' osf/os.log || fail "OpenSees frame: the dynamic analysis failed"
for f in disp beams cols; do
    r=$(columns_vs_opensees run_frame/$f.out osf/$f.out 200)
    awk -v r="$r" 'BEGIN { exit !(r + 0 == r && r <= 1e-9) }' || fail "frame $f.out differs from OpenSees: $r"
    echo "$me: the frame's $f.out: within $r of each column's peak of OpenSees 3.8's"
done
echo "$me: OK"
