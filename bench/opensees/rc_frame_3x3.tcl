# A 3-story, 3-bay reinforced-concrete moment frame of force-based fiber beam-columns (kN, m, s, t),
# the numerical substructure a lab would model: 6 m bays, 3.5 m stories; columns 0.5 x 0.5 m,
# beams 0.4 x 0.6 m, each section 52 concrete fibers (Concrete02: confined core, unconfined cover)
# and 10 Steel02 bars; forceBeamColumn with 5 Gauss-Lobatto points, P-Delta columns; 40 t on each
# interior joint, 25 t on each exterior one; gravity (the joints' weights) by a static
# load-controlled Newton analysis, then loadConst; Rayleigh damping 2 % (initial stiffness) from
# the first and third periods of the script's own eigen; the ground moves in x (ground_accel_g.txt,
# in g at 0.01 s, scaled by 1.5), HHT alpha 0.9 with Newton at dt = 1/1024 s.
wipe
model BasicBuilder -ndm 2 -ndf 3
set bays 3; set stories 3; set bay 6.0; set h 3.5; set g 9.81
for {set s 0} {$s <= $stories} {incr s} {
    for {set c 0} {$c <= $bays} {incr c} {
        set n [expr {10 * $s + $c + 1}]
        node $n [expr {$c * $bay}] [expr {$s * $h}]
        if {$s == 0} {
            fix $n 1 1 1
        } else {
            if {$c == 0 || $c == $bays} { set m 25.0 } else { set m 40.0 }
            mass $n $m $m 0.0
        }
    }
}
uniaxialMaterial Concrete02 1 -34500.0 -0.004 -24000.0 -0.014 0.1 3000.0 1.5e6
uniaxialMaterial Concrete02 2 -27600.0 -0.002 -5500.0 -0.006 0.1 2760.0 1.4e6
uniaxialMaterial Steel02 3 420000.0 2.0e8 0.01 18.0 0.925 0.15
# a rectangular RC section: depth d (local y), width b, cover cv, bars of area Ab
proc rcSection {tag d b cv Ab} {
    set y [expr {$d / 2.0}]; set z [expr {$b / 2.0}]
    set yc [expr {$y - $cv}]; set zc [expr {$z - $cv}]; set yb [expr {$yc - 0.02}]
    section Fiber $tag {
        patch rect 1 16 1 -$yc -$zc $yc $zc
        patch rect 2 2 1 $yc -$z $y $z
        patch rect 2 2 1 -$y -$z -$yc $z
        patch rect 2 16 1 -$yc $zc $yc $z
        patch rect 2 16 1 -$yc -$z $yc -$zc
        layer straight 3 4 $Ab $yb [expr {-$zc + 0.02}] $yb [expr {$zc - 0.02}]
        layer straight 3 4 $Ab -$yb [expr {-$zc + 0.02}] -$yb [expr {$zc - 0.02}]
        layer straight 3 2 $Ab 0.0 [expr {-$zc + 0.02}] 0.0 [expr {$zc - 0.02}]
    }
}
rcSection 1 0.5 0.5 0.04 0.00049
rcSection 2 0.6 0.4 0.04 0.00049
geomTransf PDelta 1
geomTransf Linear 2
beamIntegration Lobatto 1 1 5
beamIntegration Lobatto 2 2 5
set e 1
for {set s 1} {$s <= $stories} {incr s} {
    for {set c 0} {$c <= $bays} {incr c} {
        set top [expr {10 * $s + $c + 1}]
        element forceBeamColumn $e [expr {$top - 10}] $top 1 1; incr e
    }
    for {set c 0} {$c < $bays} {incr c} {
        set i [expr {10 * $s + $c + 1}]
        element forceBeamColumn $e $i [expr {$i + 1}] 2 2; incr e
    }
}
# gravity: the joints' weights, by a static load-controlled Newton analysis
timeSeries Linear 1
pattern Plain 1 1 {
    for {set s 1} {$s <= $stories} {incr s} {
        for {set c 0} {$c <= $bays} {incr c} {
            if {$c == 0 || $c == $bays} { set m 25.0 } else { set m 40.0 }
            load [expr {10 * $s + $c + 1}] 0.0 [expr {-$m * $g}] 0.0
        }
    }
}
constraints Plain
numberer RCM
system BandGeneral
test NormDispIncr 1.0e-10 20
algorithm Newton
integrator LoadControl 0.1
analysis Static
if {[analyze 10] != 0} { puts "gravity failed"; exit 1 }
loadConst -time 0.0
wipeAnalysis
# 2 % Rayleigh damping on the initial stiffness, from periods 1 and 3
set lambda [eigen 3]
set w1 [expr {sqrt([lindex $lambda 0])}]; set w3 [expr {sqrt([lindex $lambda 2])}]
set a0 [expr {2.0 * 0.02 * $w1 * $w3 / ($w1 + $w3)}]; set a1 [expr {2.0 * 0.02 / ($w1 + $w3)}]
rayleigh $a0 0.0 $a1 0.0
timeSeries Path 2 -dt 0.01 -filePath ground_accel_g.txt -factor [expr {1.5 * $g}]
pattern UniformExcitation 2 1 -accel 2
