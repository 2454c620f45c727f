# A two-story, one-bay steel moment frame in OpenSees' Tcl (kN, m, s, t), as a lab would bring it:
# hysim runs it unchanged as the numerical model of examples/opensees/frame.yaml
# (docs/opensees_tcl.md), and OpenSees 3.x runs it too (tests/cli/opensees_tcl.sh appends an
# analysis to it and compares the two response histories).
#
# Columns 3.5 m (A = 0.0228 m^2, I = 5.7e-4 m^4, about a W14x120) on semi-rigid, yielding base
# connections: Steel02 rotational springs (initial stiffness 1.5 x 6 E I / h, My = 250 kN m,
# b = 0.05); beams 6 m (A = 0.0105 m^2, I = 5.6e-4 m^4), E = 200 GPa,
# 20 t on each beam-column joint (in x). The gravity frames' 1600 kN per floor bear on a leaning
# column tied to the frame in x: P-Delta. Rayleigh damping 2 % in the first mode, mass-
# proportional (the usual choice for a yielding frame), from the script's own `eigen`. The ground
# moves in x: ground_accel_g.txt, in g, 0.01 s:
#   a(t) = 0.25 env(t) (sin(2 pi 1.2 t) + 0.6 sin(2 pi 3.1 t + 1) + 0.3 sin(2 pi 7.3 t + 2)),
#   env = (t / 1.5)^2 up to 1.5 s, 1 up to 5 s, then exp(-0.6 (t - 5)); 12 s.

wipe
model BasicBuilder -ndm 2 -ndf 3

set h 3.5
set bay 6.0
set E 200.0e6
set g 9.81
set mJoint 20.0
set Acol 0.0228; set Icol 5.7e-4
set Abeam 0.0105; set Ibeam 5.6e-4
set My 250.0
set Pgravity 1600.0

# supports, and the column bases' hinge nodes (free to turn about the hinge)
node 1 0.0 0.0
node 2 $bay 0.0
fix 1 1 1 1
fix 2 1 1 1
node 11 0.0 0.0
node 12 $bay 0.0
fix 11 1 1 0
fix 12 1 1 0

# floors: the joints carry the mass
proc floor {level} {
    global h bay mJoint
    set y [expr {$level * $h}]
    node [expr {10 * $level + 3}] 0.0 $y -mass $mJoint 0.0 0.0
    node [expr {10 * $level + 4}] $bay $y -mass $mJoint 0.0 0.0
}
for {set level 1} {$level <= 2} {incr level} {
    floor $level
}

# the leaning column: pinned at its base, its floors follow the frame in x
node 5 [expr {$bay + 4.0}] 0.0
fix 5 1 1 0
node 15 [expr {$bay + 4.0}] $h
node 25 [expr {$bay + 4.0}] [expr {2 * $h}]
equalDOF 14 15 1
equalDOF 24 25 1

geomTransf PDelta 1
geomTransf Linear 2

# the base connections: Giuffre-Menegotto-Pinto (Steel02's default R0 = 15, cR1, cR2)
uniaxialMaterial Steel02 1 $My [expr {1.5 * 6.0 * $E * $Icol / $h}] 0.05
element zeroLength 1 1 11 -mat 1 -dir 6
element zeroLength 2 2 12 -mat 1 -dir 6

# columns (P-Delta) and beams
element elasticBeamColumn 11 11 13 $Acol $E $Icol 1
element elasticBeamColumn 12 12 14 $Acol $E $Icol 1
element elasticBeamColumn 21 13 23 $Acol $E $Icol 1
element elasticBeamColumn 22 14 24 $Acol $E $Icol 1
element elasticBeamColumn 13 13 14 $Abeam $E $Ibeam 2
element elasticBeamColumn 23 23 24 $Abeam $E $Ibeam 2
# the leaning column: axially stiff, no bending stiffness to speak of
element elasticBeamColumn 31 5 15 1.0 $E 1.0e-9 1
element elasticBeamColumn 32 15 25 1.0 $E 1.0e-9 1

# gravity: the frame's own joints and the gravity frames on the leaning column
timeSeries Linear 1
pattern Plain 1 1 {
    foreach level {1 2} {
        load [expr {10 * $level + 3}] 0.0 -200.0 0.0
        load [expr {10 * $level + 4}] 0.0 -200.0 0.0
        load [expr {10 * $level + 5}] 0.0 -$Pgravity 0.0
    }
}
system BandGeneral
numberer RCM
constraints Transformation
test NormDispIncr 1.0e-12 20
algorithm Newton
integrator LoadControl 1.0
analysis Static
analyze 1
loadConst -time 0.0
wipeAnalysis

# damping: 2 % of critical in the first mode, proportional to the mass
set lambda [eigen 2]
set omega1 [expr {sqrt([lindex $lambda 0])}]
puts [format "frame.tcl: T1 = %.5f s, T2 = %.5f s" [expr {2.0 * acos(-1.0) / $omega1}] \
          [expr {2.0 * acos(-1.0) / sqrt([lindex $lambda 1])}]]
rayleigh [expr {2.0 * 0.02 * $omega1}] 0.0 0.0 0.0

# the earthquake
timeSeries Path 2 -dt 0.01 -filePath ground_accel_g.txt -factor $g
pattern UniformExcitation 2 1 -accel 2
