#!/bin/bash
# element forceBeamColumnCBDI (docs/opensees_tcl.md; OpenSees' ForceBeamColumnCBDI2d.cpp): the
# force-based element whose moments carry the member's own P-delta through the curvature-based
# displacement interpolation. A cantilever (L 196, EI 29500 x 2150, one element, elastic section,
# PDelta transformation) under a tip shear H = 10 and a compression P, written here:
#  - with 8 Legendre points and a tight element tolerance (-iter 60 1e-26) the tip deflection and
#    the base moment equal the beam-column's closed form, H (tan kL - kL) / (P k) and H tan(kL) / k
#    with k = sqrt(P / EI) (H L^3 / 3EI and H L at P = 0), to 1e-12 for P = 0, 400, 1200 (the
#    last 0.29 of the cantilever's buckling load pi^2 EI / (4 L^2));
#  - with 4 points the error is that of the curvature polynomial (below 1e-7);
#  - forceBeamColumn (no CBDI) misses the member's P-delta: 6.5 % of the deflection at P = 1200;
#  - a 3-D model is refused at the element's line (OpenSees' element is 2-D only);
#  - with OPENSEES set, OpenSees 3.8 on the same script at the default tolerance: 1e-10; and a
#    Steel01 fiber cantilever under 600 of axial load pushed past yield and back by
#    DisplacementControl (the nonlinear state determination): displacements and basic forces
#    within 1e-12 of their peaks.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

# cantilever ITER: the script, each case printing "tip TYPE NP P ok delta moment"
cantilever() {
    cat << TCL
set L 196.0; set E 29500.0; set A 51.7; set I 2150.0; set H 10.0
foreach {type np} {forceBeamColumnCBDI 8 forceBeamColumnCBDI 4 forceBeamColumn 8} {
  foreach P {0.0 400.0 1200.0} {
    wipe
    model basic -ndm 2 -ndf 3
    node 1 0.0 0.0
    node 2 0.0 \$L
    fix 1 1 1 1
    geomTransf PDelta 1
    section Elastic 1 \$E \$A \$I
    element \$type 1 1 2 1 "Legendre 1 \$np" $1
    timeSeries Linear 1
    pattern Plain 1 1 { load 2 \$H [expr -\$P] 0.0 }
    constraints Plain
    numberer Plain
    system BandGeneral
    test NormDispIncr 1.0e-14 20 0
    algorithm Newton
    integrator LoadControl 1.0
    analysis Static
    set ok [analyze 1]
    puts [format "tip %s %d %g %d %.17g %.17g" \$type \$np \$P \$ok [nodeDisp 2 1] [lindex [eleResponse 1 forces] 2]]
  }
}
TCL
}
cantilever "-iter 60 1e-26" > tight.tcl
cantilever "" > plain.tcl
for s in tight plain; do
    printf 'hysim: 1\nname: %s\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: %s.tcl}\n' $s $s > $s.yaml
    "$hysim" run $s.yaml -o run_$s > $s.log 2>&1 || fail "hysim run $s: $(tail -5 $s.log)"
    [ "$(grep -c '^tip .* 0 [-0-9]' $s.log)" -eq 9 ] || fail "$s: 9 converged cases expected: $(grep ^tip $s.log)"
done
# the largest relative error in deflection and moment of the cases TYPE NP (tight tolerance)
error() {
    awk -v t="$1" -v n="$2" '$1 == "tip" && $2 == t && $3 == n { P = $4; L = 196; EI = 29500 * 2150; H = 10
        if (P > 0) { k = sqrt(P / EI); tn = sin(k * L) / cos(k * L); d = H * (tn - k * L) / (P * k); m = H * tn / k }
        else { d = H * L ^ 3 / (3 * EI); m = H * L }
        a = ($6 - d) / d; b = ($7 - m) / m; a = a < 0 ? -a : a; b = b < 0 ? -b : b
        if (a > e) e = a; if (b > e) e = b } END { print e + 0 }' tight.log
}
e8=$(error forceBeamColumnCBDI 8)
e4=$(error forceBeamColumnCBDI 4)
ef=$(error forceBeamColumn 8)
awk -v e="$e8" 'BEGIN { exit !(e <= 1e-12) }' || fail "CBDI with 8 points: $e8 from the closed form"
awk -v e="$e4" -v e8="$e8" 'BEGIN { exit !(e <= 1e-7 && e > e8) }' || fail "CBDI with 4 points: $e4"
awk -v e="$ef" 'BEGIN { exit !(e >= 0.06) }' || fail "forceBeamColumn: $ef from the closed form (expected the member's P-delta missing)"
echo "$me: CBDI, 8 points: closed form to $e8; 4 points: $e4; forceBeamColumn without CBDI: $ef"

cat > three.tcl << 'TCL'
model basic -ndm 3 -ndf 6
node 1 0.0 0.0 0.0
node 2 0.0 196.0 0.0
geomTransf PDelta 1 0.0 0.0 1.0
section Elastic 1 29500.0 51.7 2150.0 2150.0 11000.0 100.0
element forceBeamColumnCBDI 1 1 2 1 "Legendre 1 4"
TCL
printf 'hysim: 1\nname: three\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: three.tcl}\n' > three.yaml
"$hysim" run three.yaml -o run_three > three.log 2>&1 && fail "a 3-D forceBeamColumnCBDI ran"
grep -q 'three.tcl:6: element: forceBeamColumnCBDI needs -ndm 2 -ndf 3' three.log || fail "3-D: $(cat three.log)"
echo "$me: a 3-D model is refused at the element's line"

rest_needs_opensees
mkdir os && cp plain.tcl os/ && (cd os && run_opensees plain.tcl os.log) || fail "OpenSees: $(tail -5 os/os.log)"
grep '^tip' os/os.log > os.tip
d=$(grep '^tip' plain.log | paste -d' ' - os.tip | awk '{ for (i = 6; i <= 7; i++) { a = ($i - $(i + 7)) / $(i + 7)
    a = a < 0 ? -a : a; if (a > d) d = a } n++ } END { print (n == 9 ? d + 0 : "rows " n) }')
awk -v d="$d" 'BEGIN { exit !(d != "" && d + 0 == d && d <= 1e-10) }' || fail "OpenSees differs: $d"
echo "$me: OpenSees 3.8 at the default tolerance: largest relative difference $d"
cat > fiber.tcl << 'TCL'
model basic -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 0.0 100.0
fix 1 1 1 1
uniaxialMaterial Steel01 1 50.0 29000.0 0.02
section Fiber 1 { patch rect 1 12 1 -6.0 -3.0 6.0 3.0 }
geomTransf PDelta 1
element forceBeamColumnCBDI 1 1 2 1 "Lobatto 1 5"
timeSeries Constant 1
pattern Plain 1 1 { load 2 0.0 -600.0 0.0 }
constraints Plain
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-10 30 0
algorithm Newton
integrator LoadControl 1.0
analysis Static
analyze 1
loadConst -time 0.0
timeSeries Linear 2
pattern Plain 2 2 { load 2 1.0 0.0 0.0 }
recorder Node -file d.out -time -precision 16 -node 2 -dof 1 2 3 disp
recorder Element -file q.out -time -precision 16 -ele 1 basicForce
integrator DisplacementControl 2 1 0.05
set ok [analyze 60]
integrator DisplacementControl 2 1 -0.05
incr ok [analyze 100]
puts "ok $ok"
TCL
printf 'hysim: 1\nname: fiber\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: fiber.tcl}\n' > fiber.yaml
"$hysim" run fiber.yaml -o run_fiber > fiber.log 2>&1 || fail "hysim run fiber: $(tail -5 fiber.log)"
mkdir osf && cp fiber.tcl osf/ && (cd osf && run_opensees fiber.tcl os.log) || fail "OpenSees fiber: $(tail -5 osf/os.log)"
grep -q '^ok 0$' fiber.log && grep -q '^ok 0$' osf/os.log || fail "fiber: an analyze failed"
for f in d q; do
    r=$(columns_vs_opensees run_fiber/$f.out osf/$f.out 160)
    awk -v r="$r" 'BEGIN { exit !(r + 0 == r && r <= 1e-12) }' || fail "fiber $f.out differs from OpenSees: $r"
    echo "$me: OpenSees 3.8, the fiber cantilever's $f.out: within $r of each column's peak"
done
echo "$me: OK"
