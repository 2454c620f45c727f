# The OpenSees twin of an OpenFresco experimental element's -initStif (sourced by the twins that
# tests/cli/openfresco_scripts.sh makes; docs/openfresco.md, "OpenFresco scripts").
#
# OpenFresco's experimental elements answer their -initStif as their initial and tangent
# stiffness (EEBeamColumn2d.cpp getInitialStiff / getTangentStiff: "Return InitialStiff"), while
# their force is the specimen's measured force. The twin carries the specimen as the numerical
# element of its material, so it lacks -initStif less the specimen's initial stiffness on the
# driven basic DOF. twin_stiffness adds exactly that part as a twoNodeLink whose materials have
# no force and that initial stiffness: an Elastic material wrapped in MinMax with limits +-1e-300
# (MinMaxMaterial.cpp: outside its limits the stress is 0; getInitialTangent is the wrapped
# material's). With `algorithm Linear -initial` (the twin's, when every numerical element is
# linear) the twin's matrix is then the element's -initStif, and its Rayleigh betaKinit damping
# too (the links take -doRayleigh where the experimental element takes the Rayleigh factors).
#
# twin_stiffness tag iNode jNode basic drive E K ray opts
#   basic: "beamColumn" (EEBeamColumn2d's basic system B: axial, the shear at jNode, the
#          rotation theta_j - theta_i) or the twoNodeLink's -dir list;
#   drive: the driven basic DOF (0-based); E: the specimen's initial stiffness;
#   K: the -initStif values (column-major); ray: "-doRayleigh" or ""; opts: the link's -orient or
#   -shearDist options (twoNodeLink); axial: 1 when twin_axial carries the axial stiffness.
proc twin_stiffness {tag iNode jNode basic drive E K ray opts {axial 0}} {
    set n [expr {int(round(sqrt([llength $K])))}]
    for {set a 0} {$a < $n} {incr a} {
        for {set b 0} {$b < $n} {incr b} {
            set v [lindex $K [expr {$b * $n + $a}]]
            if {$a == $drive && $b == $drive} { set v [expr {$v - $E}] }
            set k($a,$b) $v
        }
    }
    set parts {}
    set shear {}
    if {$basic eq "beamColumn"} {
        if {$k(0,1) != 0 || $k(0,2) != 0} {
            error "twin_stiffness: element $tag: -initStif couples the axial DOF"
        }
        set ci [nodeCoord $iNode]
        set cj [nodeCoord $jNode]
        set L [expr {hypot([lindex $cj 0] - [lindex $ci 0], [lindex $cj 1] - [lindex $ci 1])}]
        if {!$axial} { lappend parts 1 $k(0,0) }
        set kr $k(2,2)
        if {$k(1,1) != 0} {
            # shear of a link with shear distance sD: (v_j - v_i - L theta_i) - s (theta_j -
            # theta_i), s = (1 - sD) L; ks (db1 - s db2)^2 gives the coupling -ks s
            set s [expr {-$k(1,2) / $k(1,1)}]
            set kr [expr {$k(2,2) - $k(1,1) * $s * $s}]
            lappend parts 2 $k(1,1)
            set shear [list -shearDist [expr {1.0 - $s / $L}]]
        } elseif {$k(1,2) != 0} {
            error "twin_stiffness: element $tag: -initStif couples shear and rotation without shear stiffness"
        }
        if {abs($kr) > 1e-12 * abs($k(2,2))} { lappend parts 3 $kr }
    } else {
        for {set a 0} {$a < $n} {incr a} {
            for {set b 0} {$b < $n} {incr b} {
                if {$a != $b && $k($a,$b) != 0} {
                    error "twin_stiffness: element $tag: a non-diagonal -initStif"
                }
            }
            lappend parts [lindex $basic $a] $k($a,$a)
        }
        set shear $opts
    }
    set mats {}
    set dirs {}
    foreach {d kv} $parts {
        if {$kv == 0} continue
        set m [expr {9000000 + 10 * $tag + $d}]
        uniaxialMaterial Elastic $m $kv
        uniaxialMaterial MinMax [expr {$m + 500000}] $m -min -1e-300 -max 1e-300
        lappend mats [expr {$m + 500000}]
        lappend dirs $d
    }
    if {[llength $mats] == 0} return
    eval element twoNodeLink [expr {9000000 + $tag}] $iNode $jNode -mat $mats -dir $dirs $shear $ray
}

# twin_scaled_material newTag type args dispFact forceFact: the specimen of a scaled setup
# (ExperimentalSetup.cpp: the material takes dispFact times the element's deformation, the element
# takes forceFact times its stress) as one material of the element's units: Elastic, Steel01 and
# Steel02 are homogeneous in (strain, stress) given Fy and E (Steel02's a1..a4 are ratios), so the
# scaled material is the same one with Fy' = forceFact Fy and E' = dispFact forceFact E.
proc twin_scaled_material {tag type params a b} {
    switch -- $type {
        Elastic {
            uniaxialMaterial Elastic $tag [expr {$a * $b * [lindex $params 0]}]
        }
        Steel01 - Steel02 {
            eval uniaxialMaterial $type $tag [expr {$b * [lindex $params 0]}] \
                [expr {$a * $b * [lindex $params 1]}] [lrange $params 2 end]
        }
        default { error "twin_scaled_material: $type: not scaled here" }
    }
}

# twin_bearing tag iNode jNode P Mz S E kInit ratios sD ray: OpenFresco's expElement bearing
# (EEBearing2d.cpp) in OpenSees elements. P and Mz: the axial and bending materials as
# {tag type params} (Elastic only: the twin negates them); S the specimen's material tag, E its
# initial stiffness; kInit the -initStif; ratios the -pDelta pair or {}; sD the shear distance;
# ray 1 when the element takes the Rayleigh factors. EEBearing2d's force is B^T [P, S, Mz] plus
# the twoNodeLink's P-Delta of the ratios plus N (sD L rz_i - (1 - sD) L rz_j) at iNode (minus at
# jNode); its tangent and initial stiffness have kInit on the shear; its Rayleigh damping uses
# that tangent. The twin, exact:
#   tag       twoNodeLink P S Mz, -pDelta ratios, no Rayleigh (the specimen's force, the basic
#             deformations the element's recorders give);
#   +9100000  twoNodeLink P kInit Mz, -pDelta ratios, Rayleigh, and +9200000 its negation
#             without: no force, no stiffness, the damping of EEBearing2d's tangent;
#   +9300000, +9400000  elastomericBearingPlasticity without shear (kInit 0) on P, each with half
#             of N in the rotations' term (ElastomericBearingPlasticity2d.cpp), and +9500000,
#             +9600000 twoNodeLinks of -P with -pDelta 0.5 0.5 that take back their 0.5 N delta
#             at each end and their axial force: the rotations' term with N, in force, tangent and
#             damping;
#   +9700000  the -initStif the specimen lacks on the shear (zero force, twin_stiffness's MinMax).
proc twin_bearing {tag iNode jNode P Mz S E kInit ratios sD ray} {
    set base [expr {9000000 + 10 * $tag}]
    foreach {name spec} [list P $P Mz $Mz] {
        lassign $spec mtag type params
        if {$type ne "Elastic"} { error "twin_bearing: element $tag: $name material $mtag is $type, not Elastic" }
        set e [lindex $params 0]
        set eta [expr {[llength $params] > 1 ? [lindex $params 1] : 0.0}]
        set eneg [expr {[llength $params] > 2 ? [lindex $params 2] : $e}]
        set neg($name) [expr {$base + ($name eq "P" ? 1 : 2)}]
        uniaxialMaterial Elastic $neg($name) [expr {-$e}] [expr {-$eta}] [expr {-$eneg}]
        set pos($name) $mtag
    }
    set zero [expr {$base + 3}]
    set kpos [expr {$base + 4}]
    set kneg [expr {$base + 5}]
    uniaxialMaterial Elastic $zero 0.0
    uniaxialMaterial Elastic $kpos $kInit
    uniaxialMaterial Elastic $kneg [expr {-$kInit}]
    set pd [expr {[llength $ratios] ? [concat -pDelta $ratios] : {}}]
    set r [expr {$ray ? "-doRayleigh" : ""}]
    eval element twoNodeLink $tag $iNode $jNode -mat $pos(P) $S $pos(Mz) -dir 1 2 3 -shearDist $sD $pd
    eval element twoNodeLink [expr {9100000 + $tag}] $iNode $jNode -mat $pos(P) $kpos $pos(Mz) -dir 1 2 3 -shearDist $sD $pd $r
    eval element twoNodeLink [expr {9200000 + $tag}] $iNode $jNode -mat $neg(P) $kneg $neg(Mz) -dir 1 2 3 -shearDist $sD $pd
    if {[llength $ratios]} {
        foreach t {9300000 9400000} {
            eval element elastomericBearingPlasticity [expr {$t + $tag}] $iNode $jNode 0.0 0.0 0.0 0.0 2.0 -P $pos(P) -Mz $zero -shearDist $sD $r
        }
        foreach t {9500000 9600000} {
            eval element twoNodeLink [expr {$t + $tag}] $iNode $jNode -mat $neg(P) $zero $zero -dir 1 2 3 -shearDist $sD -pDelta 0.5 0.5 $r
        }
    }
    if {$kInit != $E} {
        uniaxialMaterial Elastic [expr {$base + 6}] [expr {$kInit - $E}]
        uniaxialMaterial MinMax [expr {$base + 7}] [expr {$base + 6}] -min -1e-300 -max 1e-300
        element twoNodeLink [expr {9700000 + $tag}] $iNode $jNode -mat [expr {$base + 7}] -dir 2 -shearDist $sD
    }
}

# twin_axial tag iNode jNode K ray: EEBeamColumn2d's elastic axial force where its site measures
# none (EEBeamColumn2d.cpp getResistingForce: K(1,1) (|(L + db0, db1)| - L) along the chord of
# its basic system B, db the cantilever's tip displacement from iNode's tangent): a corotTruss of
# EA / L = K(1,1) (9800000 + tag). Exact under a Corotational transformation (B's chord is the
# chord: the force is the corotational truss's), and under Linear or PDelta when iNode does not
# turn; else B's chord turns with iNode where the truss's does not (EEBeamColumn2d's is not a
# rigid-body motion).
proc twin_axial {tag iNode jNode K ray} {
    set ci [nodeCoord $iNode]
    set cj [nodeCoord $jNode]
    set L [expr {hypot([lindex $cj 0] - [lindex $ci 0], [lindex $cj 1] - [lindex $ci 1])}]
    set m [expr {9800000 + $tag}]
    uniaxialMaterial Elastic $m [expr {[lindex $K 0] * $L}]
    eval element corotTruss $m $iNode $jNode 1.0 $m [expr {[string length [string trim $ray]] ? "-doRayleigh 1" : ""}]
}
