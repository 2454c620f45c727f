# A one-story 3-D frame in OpenSees' Tcl (the twin of examples/fe_3d_floor.yaml): four columns
# 3.5 m high on a 6 m x 4 m plan, perimeter beams (one with its section turned 45 degrees), a
# diagonal brace in the x = 0 face and a rigid floor (rigidDiaphragm, perpendicular z) whose mass
# (40 t and the slab's rotational inertia m (a^2 + b^2) / 12) sits at its master node, off the
# plan's centre. The columns carry the gravity loads of the Plain pattern by P-Delta. Units kN,
# m, s. hysim reads it through floor3d.yaml; OpenSees runs it unchanged.
model BasicBuilder -ndm 3 -ndf 6

set a 6.0; set b 4.0; set h 3.5
set corners [list 1 0 0 2 $a 0 3 $a $b 4 0 $b]
foreach {n x y} $corners {
    node $n $x $y 0.0
    node [expr {10 + $n}] $x $y $h
    fix $n 1 1 1 1 1 1
}
# the floor's master: in-plane ux, uy, rz free; the rest fixed (the diaphragm ties only those)
node 100 3.4 2.2 $h
fix 100 0 0 1 1 1 0
set m 40.0
mass 100 $m $m 0 0 0 [expr {$m * ($a * $a + $b * $b) / 12.0}]
rigidDiaphragm 3 100 11 12 13 14

# columns: strong axis (Iz) against y (vecxz x) or against x (vecxz y); beams: vecxz z, and
# (0, 1, 1) for beam 5
geomTransf PDelta 1 1 0 0
geomTransf PDelta 2 0 1 0
geomTransf Linear 3 0 0 1
geomTransf Linear 4 0 1 1
set E 30e6; set G 12e6
# element elasticBeamColumn tag i j A E G J Iy Iz transfTag
foreach {c transf} {1 1 2 2 3 1 4 2} {
    element elasticBeamColumn $c $c [expr {10 + $c}] 0.04 $E $G 2e-4 1.5e-4 3e-4 $transf
}
foreach {e i j transf} {5 11 12 4 6 12 13 3 7 13 14 3 8 14 11 3} {
    element elasticBeamColumn $e $i $j 0.05 $E $G 3e-4 2e-4 6e-4 $transf
}
uniaxialMaterial Elastic 1 $E
element truss 9 1 14 0.002 1

# gravity: 500 kN on each column top, held constant (OpenSees: analyze, then loadConst)
timeSeries Linear 1
pattern Plain 1 1 { foreach n {11 12 13 14} { load $n 0 0 -500 0 0 0 } }
