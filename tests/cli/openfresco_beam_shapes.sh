#!/bin/bash
# OpenFresco's experimental beam-column answers its recorders at OpenFresco's shapes
# (docs/openfresco.md; EEBeamColumn2d.cpp getResponse, ESOneActuator.cpp transfDaqDisp): its
# whole basic system B (axial, shear at jNode, rotation: 3 values with `-sizeTrialOut 3 3`)
# although its setup drives the shear alone. Two inclined cantilevers (3-4-5 chords, L = 50),
# one under geomTransf Linear, one under Corotational, each beside an elastic beam, their
# specimens Elastic on B's shear, pushed by a growing load in a transient analysis to a drift of
# about 8 % of L. At every step the script writes the node states and the elements' responses
# (eleResponse), and here, from the nodes alone, the closed forms of EEBeamColumn2d:
#   A: Linear dA = [axial, theta_i - chord, theta_j - chord] in the chord's axes at rest;
#      Corotational dA = [Ln - L, theta_i - (beta - beta0), theta_j - (beta - beta0)];
#   B: Linear db = [dA0, -L dA1, dA2 - dA1], vb likewise from the velocities;
#      Corotational db = [(L + dA0) cos dA1 - L, -(L + dA0) sin dA1, dA2 - dA1];
#   ctrlDisp = basicDeformation = db, ctrlVel = vb, daqDisp = [0, db1, 0];
#   basicForce = daqForce = [cos a qA0, k db1 + sin a qA0, 0], qA0 = K00 (|(L + db0, db1)| - L),
#      a = atan2(db1, L + db0);
#   localForce = [-qA0', (qA1 + qA2) / L, qA1, qA0', -(qA1 + qA2) / L, qA2] with qA0' = cos a qb0
#      + sin a qb1, qA1 = db1 qb0 - (L + db0) qb1 - qb2, qA2 = qb2;
# each to 1e-10 of its peak; and the recorder files are 6 values a row (3 for each element),
# the same numbers as eleResponse's. An experimental twoNodeLink over node 2's ux and uy from a
# fixed node, its OneActuator driving uy (Elastic 2.8), answers EETwoNodeLink's shapes: its
# deformation [ux, uy], daqDisp [0, uy], basicForce [0, 2.8 uy], force on both nodes; and
# OpenFresco's other spellings (ctrlDisplacement(s),
# daqDisplacement(s), defo, basicDefo, daqForces) as ctrlDisp, daqDisp, deformation, daqForce.
# An expElement generic over nodes 2 and 5 answers EEGeneric's shapes (below).
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

cat > frame.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 30.0 40.0
node 4 100.0 0.0
node 5 130.0 40.0
fix 1 1 1 1
fix 4 1 1 1
mass 2 1.0 1.0 10.0
mass 5 1.0 1.0 10.0
uniaxialMaterial Elastic 1 2.8
expControl SimUniaxialMaterials 1 1
expControl SimUniaxialMaterials 2 1
expSetup OneActuator 1 -control 1 2 -sizeTrialOut 3 3
expSetup OneActuator 2 -control 2 2 -sizeTrialOut 3 3
expSite LocalSite 1 1
expSite LocalSite 2 2
geomTransf Linear 1
geomTransf Corotational 2
expElement beamColumn 1 1 2 1 -site 1 -initStif 1213 0 0 0 11.2 -302.4 0 -302.4 10886.4 -noRayleigh
expElement beamColumn 2 4 5 2 -site 2 -initStif 1213 0 0 0 11.2 -302.4 0 -302.4 10886.4 -noRayleigh
node 6 30.0 40.0
fix 6 1 1 1
expControl SimUniaxialMaterials 3 1
expSetup OneActuator 3 -control 3 2 -sizeTrialOut 2 2
expSite LocalSite 3 3
expElement twoNodeLink 5 6 2 -dir 1 2 -site 3 -initStif 1.0 0.0 0.0 2.8
uniaxialMaterial Elastic 4 1.5
uniaxialMaterial Elastic 5 0.7
expControl SimUniaxialMaterials 4 4 5
expSetup NoTransformation 4 -control 4 -dof 1 3 -sizeTrialOut 3 3
expSite LocalSite 4 4
expElement generic 7 -node 2 5 -dof 1 2 -dof 2 -site 4
element elasticBeamColumn 3 1 2 10.0 29000.0 0.5 1
element elasticBeamColumn 4 4 5 10.0 29000.0 0.5 2
timeSeries Linear 1
pattern Plain 1 1 { load 2 6.0 -2.0 4.0; load 5 6.0 -2.0 4.0 }
recorder Element -file ctrl.out -precision 16 -ele 1 2 ctrlDisp
recorder Element -file daq.out -precision 16 -ele 1 2 daqDisp
recorder Element -file force.out -precision 16 -ele 1 2 basicForces
recorder Element -file defo.out -precision 16 -ele 1 2 basicDeformations
recorder Element -file local.out -precision 16 -ele 1 2 localForce
constraints Plain
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 50
algorithm Newton
integrator Newmark 0.5 0.25
analysis Transient
set out [open state.out w]
set gout [open generic.out w]
for {set s 0} {$s < 40} {incr s} {
    if {[analyze 1 0.05] != 0} { puts "analyze failed"; exit }
    set row {}
    foreach n {2 5} { lappend row {*}[nodeDisp $n] {*}[nodeVel $n] }
    foreach e {1 2} {
        foreach r {ctrlDisp ctrlVel daqDisp basicForce localForce basicDeformation daqForce} {
            lappend row {*}[eleResponse $e $r]
        }
    }
    puts $out [join [lmap v $row {format %.17g $v}] " "]
    set g [list [nodeDisp 2 1] [nodeDisp 2 2] [nodeDisp 5 2] [nodeVel 2 1] [nodeVel 2 2] [nodeVel 5 2]]
    foreach r {ctrlDisp ctrlVel daqDisp basicForce daqForce force localForce} { lappend g {*}[eleResponse 7 $r] }
    puts $gout [join [lmap v $g {format %.17g $v}] " "]
    # OpenFresco's other spellings of an experimental twoNodeLink's responses
    foreach {a b} {ctrlDisplacement ctrlDisp ctrlDisplacements ctrlDisp daqDisplacement daqDisp
                   daqDisplacements daqDisp defo deformation basicDefo deformation
                   daqForces daqForce daqForce basicForce} {
        if {[eleResponse 5 $a] != [eleResponse 5 $b]} { puts "5 $a [eleResponse 5 $a] != $b"; exit }
    }
    # its basic vector over both -dir DOFs (EETwoNodeLink: numDir), the setup driving the second
    set ux [nodeDisp 2 1]; set uy [nodeDisp 2 2]
    foreach {r want} [list defo [list $ux $uy] daqDisp [list 0.0 $uy] basicForce [list 0.0 [expr {2.8 * $uy}]] \
                          force [list 0.0 [expr {-2.8 * $uy}] 0.0 0.0 [expr {2.8 * $uy}] 0.0]] {
        foreach a [eleResponse 5 $r] b $want {
            if {abs($a - $b) > 1e-12 * (1.0 + abs($b))} { puts "5 $r [eleResponse 5 $r] != $want"; exit }
        }
    }
}
close $out
close $gout
puts "done [getTime]"
TCL
printf 'hysim: 1\nname: shapes\nunits: {force: kip, length: in, time: s}\nstructure:\n  model: {opensees: frame.tcl}\n' > frame.yaml
"$hysim" run frame.yaml -o run > run.log 2>&1 || fail "run: $(cat run.log)"
grep -q '^done' run.log || fail "the analysis did not end: $(cat run.log)"
[ "$(wc -l < run/state.out)" -eq 40 ] || fail "state.out: $(wc -l < run/state.out) rows, expected 40"

# the closed forms (awk), per element: its node's displacements and velocities (node i fixed)
# at columns 1 + 6 (e - 1); its 24 responses from column 13 + 24 (e - 1)
awk -v K00=1213 -v k=2.8 -v L=50 -v c=0.6 -v s=0.8 '
    BEGIN { CONVFMT = "%.17g" }
    function chk(name, e, j, want, got,   d) {
        d = want - got; if (d < 0) d = -d; key = e SUBSEP name SUBSEP j
        if (d > diff[key]) diff[key] = d
        if ((want < 0 ? -want : want) > peak[key]) peak[key] = want < 0 ? -want : want
        names[key] = name " of element " e " value " j }
    { for (e = 1; e <= 2; e++) {
        o = 6 * (e - 1); ux = $(o + 1); uy = $(o + 2); rz = $(o + 3); vx = $(o + 4); vy = $(o + 5); vr = $(o + 6)
        # local (chord at rest) components of node j; node i fixed
        ul = c * ux + s * uy; vl = -s * ux + c * uy; vul = c * vx + s * vy; vvl = -s * vx + c * vy
        if (e == 1) { # Linear
            dA0 = ul; dA1 = -vl / L; dA2 = rz - vl / L
            vA1 = -vvl / L; vA2 = vr - vvl / L
            db0 = dA0; db1 = -L * dA1; db2 = dA2 - dA1
            vb0 = vul; vb1 = -L * vA1; vb2 = vA2 - vA1
        } else { # Corotational
            dx = L * c + ux; dy = L * s + uy; Ln = sqrt(dx * dx + dy * dy)
            rot = atan2(c * dy - s * dx, c * dx + s * dy)
            dA0 = Ln - L; dA1 = -rot; dA2 = rz - rot
            db0 = (L + dA0) * cos(dA1) - L; db1 = -(L + dA0) * sin(dA1); db2 = dA2 - dA1
        }
        a = atan2(db1, L + db0); qA0 = K00 * (sqrt((L + db0) ^ 2 + db1 ^ 2) - L)
        qb0 = cos(a) * qA0; qb1 = k * db1 + sin(a) * qA0; qb2 = 0
        p0 = cos(a) * qb0 + sin(a) * qb1; p1 = db1 * qb0 - (L + db0) * qb1 - qb2; p2 = qb2
        r = 12 + 24 * (e - 1)
        split(db0 " " db1 " " db2, w, " "); for (j = 1; j <= 3; j++) { chk("ctrlDisp", e, j, w[j], $(r + j)); chk("basicDeformation", e, j, w[j], $(r + 18 + j)) }
        if (e == 1) { split(vb0 " " vb1 " " vb2, w, " "); for (j = 1; j <= 3; j++) chk("ctrlVel", e, j, w[j], $(r + 3 + j)) }
        split("0 " db1 " 0", w, " "); for (j = 1; j <= 3; j++) chk("daqDisp", e, j, w[j], $(r + 6 + j))
        split(qb0 " " qb1 " " qb2, w, " "); for (j = 1; j <= 3; j++) { chk("basicForce", e, j, w[j], $(r + 9 + j)); chk("daqForce", e, j, w[j], $(r + 21 + j)) }
        split((-p0) " " ((p1 + p2) / L) " " p1 " " p0 " " (-(p1 + p2) / L) " " p2, w, " "); for (j = 1; j <= 6; j++) chk("localForce", e, j, w[j], $(r + 12 + j))
        if (e == 2 && (db1 < 0 ? -db1 : db1) > m2) m2 = db1 < 0 ? -db1 : db1
    } }
    END { for (key in diff) { tol = 1e-10 * (peak[key] > 1e-12 ? peak[key] : 1)
              if (diff[key] / tol > worst) worst = diff[key] / tol
              if (diff[key] > tol) { printf "%s: %.3g off (peak %.3g)\n", names[key], diff[key], peak[key]; bad = 1 } }
          printf "worst difference from the closed forms %.2g of its peak\n", worst * 1e-10
          if (m2 < 0.05 * L) { printf "the corotational drift reached only %.3g\n", m2; bad = 1 }
          printf "peak shear drift of the corotational cantilever %.3g (%.1f %% of L)\n", m2, 100 * m2 / L
          exit bad }' run/state.out > check.log || fail "closed forms: $(cat check.log)"
cat check.log

# the recorder files: 6 values a row (3 an element), the numbers eleResponse gave (the state
# file's columns of ctrlDisp, daqDisp, basicForce, basicDeformation, localForce of both)
for f in ctrl:13 daq:19 force:22 defo:31 local:25; do
    file=run/${f%%:*}.out col=${f##*:} n=3
    [ "${f%%:*}" = local ] && n=6
    awk -v n=$n 'NF != 2 * n { print FILENAME ": row " NR " has " NF " values, expected " 2 * n; exit 1 }' "$file" ||
        fail "$file is not of OpenFresco's shape"
    paste -d'|' "$file" run/state.out | awk -F'|' -v col=$col -v n=$n '
        { split($1, a, " "); split($2, b, " ")
          for (e = 0; e < 2; e++) for (j = 1; j <= n; j++) {
              d = a[e * n + j] - b[col + 24 * e + j - 1]; if (d < 0) d = -d; if (d > m) m = d } }
        END { if (m > 1e-12) { print "differs from eleResponse by " m; exit 1 } }' || fail "$file"
done
# EEGeneric over nodes 2 (ux, uy) and 5 (uy), its NoTransformation driving node 2's ux (E 1.5)
# and node 5's uy (E 0.7): basic DOFs [ux2, uy2, uy5] in its list's order, absolute; ctrlDisp
# and ctrlVel those, daqDisp [ux2, 0, uy5], basicForce = daqForce [1.5 ux2, 0, 0.7 uy5], force =
# localForce those on the nodes' DOFs [q1 0 0 0 q3 0] (EEGeneric.cpp getResponse)
awk 'BEGIN { CONVFMT = "%.17g" }
    { split($1 " " $2 " " $3 " " $4 " " $5 " " $6 " " $1 " 0 " $3 " " 1.5 * $1 " 0 " 0.7 * $3 " " \
            1.5 * $1 " 0 " 0.7 * $3 " " 1.5 * $1 " 0 0 0 " 0.7 * $3 " 0 " 1.5 * $1 " 0 0 0 " 0.7 * $3 " 0", w, " ")
      if (NF != 6 + 27) { print "row " NR ": " NF - 6 " responses, expected 27"; bad = 1; exit }
      for (j = 1; j <= 27; j++) { d = w[j] - $(6 + j); if (d < 0) d = -d; x = w[j] < 0 ? -w[j] : w[j]
          if (d > 1e-13 * (x > 1 ? x : 1)) { print "row " NR " value " j ": " $(6 + j) ", expected " w[j]; bad = 1 } }
      if (($1 < 0 ? -$1 : $1) > m) m = $1 < 0 ? -$1 : $1 }
    END { if (m < 0.1) { print "node 2 hardly moves: " m; bad = 1 }; exit bad }' run/generic.out > gen.log ||
    fail "expElement generic's responses: $(head -5 gen.log)"
echo "PASS: EEBeamColumn2d's and EEGeneric's responses at OpenFresco's shapes"
