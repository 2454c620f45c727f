#!/bin/bash
# pattern MultiSupport in the script's own analysis: a groundMotion of any series imposed on a
# free or a fixed DOF, as OpenSees' ImposedMotionSP under the Transformation handler
# (docs/opensees_tcl.md; src/opensees/opensees_imposed.c, opensees_ground_motion.c). A chain written here, -ndm 1:
# node 1 fixed, spring k1 = 300 to node 2, spring k2 = 80 to node 3 of mass m = 2; node 2 free,
# its displacement imposed by `groundMotion 1 Plain -disp 11` of `timeSeries Trig 11 0 4 0.5
# -factor 0.02` (u_g = A sin(W t), W = 4 pi, up to t = 4 s where the sine is back at 0).
#  - Newmark (1/2, 1/4), dt 0.002: node 2 follows u_g to its 16 printed digits (1e-13 of A);
#    node 3 equals the average-acceleration recurrence of m u'' + k2 u = k2 u_g(t), computed
#    here, to 1e-10 of its peak, and the closed form A / (1 - r^2) (sin W t - r sin w t),
#    w^2 = k2 / m, r = W / w, to 5e-4 of its peak (Newmark's phase error, (w dt)^2 / 12 radian
#    per radian of w t: 2.6e-4 measured);
#    the reaction recorded at node 2 is its springs' forces k1 u2 + k2 (u2 - u3) (1e-13);
#  - the same motion at the fixed node 1 (OpenSees' usual support motion): node 3 equals the
#    recurrence of m u'' + k u = k u_g with the springs in series, k = k1 k2 / (k1 + k2) (node 2
#    has no mass), to 1e-10 of its peak;
#  - LoadControl: `-disp` of a Linear series: node 2 and node 3 (no load) at the load factor;
#  - eigen takes the imposed DOF as fixed, as OpenSees: w^2 of the mass on the springs left;
#  - a fixed base moved by a pattern defined after a gravity analysis that yields a Steel01 spring
#    (the gravity deflection its closed form to 1e-12; the base on u_g);
#  - errors at their lines: DisplacementControl with an imposed motion, `remove loadPattern` of
#    the MultipleSupport.
# With OPENSEES set, the same scripts and a damped variant (betaK 0.01 on the k2 spring, whose
# force reads node 2's velocity: OpenSees differentiates the sine at dtInt 0.01 by the
# trapezoidal rule, not the cosine; with -dtInt 0.002 at that step), an -accel Path ground motion (integrated twice), and the
# damped chain under `constraints Plain`, and the fixed node 1 moved under a mass on node 2 and
# Rayleigh damping (alphaM 0.1, betaK 0.002: the damping forces read the support's velocity), the
# same with a Steel01 spring under HHT 0.8 (the support at t + alpha dt, as OpenSees leaves it),
# and the base moved after gravity (the yielded spring's state carried into the rebuilt model) (OpenSees' Plain handler takes the motion as zero: node 2
# stays, its velocity is the motion's; hysim says so in a warning), equal OpenSees 3.8's recorder
# files to 1e-12 of the peaks.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

# chain GM ANALYSIS [RAYLEIGH]: the script
chain() {
    cat <<TCL
model basic -ndm 1 -ndf 1
node 1 0.0
node 2 0.0
node 3 0.0
fix 1 1
mass 3 2.0
uniaxialMaterial Elastic 1 300.0
uniaxialMaterial Elastic 2 80.0
element zeroLength 1 1 2 -mat 1 -dir 1
element zeroLength 2 2 3 -mat 2 -dir 1 $3
timeSeries Trig 11 0.0 4.0 0.5 -factor 0.02
timeSeries Linear 12
timeSeries Path 13 -dt 0.01 -values {0.0 1.0 3.0 -2.0 -4.0 1.0 2.0 0.5 0.0} -factor 0.1
pattern MultiSupport 2 {
    $1
    imposedMotion 2 1 1
}
recorder Node -file disp.out -time -precision 16 -node 2 3 -dof 1 disp
recorder Element -file force.out -time -precision 16 -ele 1 2 basicForce
recorder Node -file react.out -time -precision 16 -node 2 -dof 1 reaction
constraints Transformation
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 10
algorithm Newton
$2
TCL
}
transient='integrator Newmark 0.5 0.25
analysis Transient
analyze 2000 0.002'
static='integrator LoadControl 0.1
analysis Static
analyze 10'
testfile() { printf 'hysim: 1\nname: imposed\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: %s}\n' "$1"; }
run() { # NAME: hysim on NAME.tcl into run_NAME/
    testfile "$1.tcl" > "$1.yaml"
    "$hysim" run "$1.yaml" -o "run_$1" --quiet > "$1.log" 2>&1 || fail "$1: $(cat "$1.log")"
}

chain "groundMotion 1 Plain -disp 11" "$transient" > trig.tcl
run trig
[ "$(wc -l < run_trig/disp.out)" -eq 2000 ] || fail "trig: $(wc -l < run_trig/disp.out) rows, expected 2000"
# newmark_vs K COL FILE: node COL's history in FILE against u_g and the recurrence of
# m u'' + K u = K u_g (prints: u_g error / A, recurrence error / peak, closed form error / peak)
newmark_vs() {
    awk -v k="$1" -v col="$2" 'BEGIN { A = 0.02; W = 4 * atan2(0, -1); m = 2; w = sqrt(k / m); r = W / w
        dt = 0.002; a0 = 4 / (dt * dt); a1 = 4 / dt; keff = k + m * a0; u = 0; v = 0; acc = 0 }
    { t = $1; g = (t <= 4 ? A * sin(W * t) : 0)
      # average acceleration: m a + k u = k g at t
      p = k * g + m * (a0 * u + a1 * v + acc); un = p / keff
      an = a0 * (un - u) - a1 * v - acc; v = v + dt / 2 * (acc + an); u = un; acc = an
      c = A / (1 - r * r) * (sin(W * t) - r * sin(w * t))
      e1 = $2 - g; if (e1 < 0) e1 = -e1; if (e1 > m1) m1 = e1
      e2 = $col - u; if (e2 < 0) e2 = -e2; if (e2 > m2) m2 = e2
      e3 = $col - c; if (e3 < 0) e3 = -e3; if (e3 > m3) m3 = e3
      p3 = $col < 0 ? -$col : $col; if (p3 > pk) pk = p3 }
    END { printf "%.3g %.3g %.3g\n", m1 / A, m2 / pk, m3 / pk }' "$3"
}
read -r ug rec cf < <(newmark_vs 80 3 run_trig/disp.out)
echo "$me: Newmark: node 2 within $ug of A of u_g; node 3 within $rec of its peak of the recurrence, $cf of the closed form"
awk -v a="$ug" -v b="$rec" -v c="$cf" 'BEGIN { exit !(a <= 1e-13 && b <= 1e-10 && c <= 5e-4) }' ||
    fail "imposed Trig: $ug, $rec, $cf"

# the reaction that holds node 2: its springs' forces, k1 u2 + k2 (u2 - u3)
w=$(paste -d' ' run_trig/disp.out run_trig/react.out | awk '{ f = 300 * $2 + 80 * ($2 - $3)
    d = $5 - f; if (d < 0) d = -d; if (d > m) m = d; a = f < 0 ? -f : f; if (a > p) p = a } END { printf "%.3g", m / p }')
awk -v w="$w" 'BEGIN { exit !(w <= 1e-13) }' || fail "the reaction at node 2 is off its springs' forces by $w of the peak"
echo "$me: the reaction at node 2 equals its springs' forces within $w of the peak"

# the fixed node 1 moved: node 2's column of disp.out is the support's (node 1 is not recorded)
sed -e 's/^fix 1 1$/fix 1 1/' -e 's/imposedMotion 2 1 1/imposedMotion 1 1 1/' \
    -e 's/-node 2 3 -dof 1 disp/-node 1 3 -dof 1 disp/' -e 's/-node 2 -dof 1 reaction/-node 1 -dof 1 reaction/' trig.tcl > base.tcl
run base
read -r ug rec _ < <(newmark_vs "$(awk 'BEGIN { printf "%.17g", 300.0 * 80.0 / 380.0 }')" 3 run_base/disp.out)
echo "$me: the fixed node 1 moved: it within $ug of A of u_g; node 3 within $rec of its peak of the recurrence"
awk -v a="$ug" -v b="$rec" 'BEGIN { exit !(a <= 1e-13 && b <= 1e-10) }' || fail "imposed fixed DOF: $ug, $rec"

chain "groundMotion 1 Plain -disp 12" "$static" > lin.tcl
run lin
w=$(awk '{ d2 = $2 - $1; d3 = $3 - $1; if (d2 < 0) d2 = -d2; if (d3 < 0) d3 = -d3
    if (d2 > m) m = d2; if (d3 > m) m = d3 } END { print m + 0 }' run_lin/disp.out)
[ "$(wc -l < run_lin/disp.out)" -eq 10 ] && awk -v w="$w" 'BEGIN { exit !(w <= 1e-15) }' ||
    fail "LoadControl: nodes 2 and 3 off the load factor by $w: $(cat run_lin/disp.out)"
echo "$me: LoadControl: nodes 2 and 3 at the load factor within $w"

# after a gravity analysis: the fixed base moved by a pattern defined then (the live model
# rebuilt with its equation, the yielded Steel01 spring's state carried over)
cat > late.tcl << 'TCL'
model basic -ndm 1 -ndf 1
node 1 0.0
node 2 0.0
node 3 0.0
fix 1 1
mass 2 1.0
mass 3 2.0
uniaxialMaterial Steel01 1 5.0 300.0 0.1
uniaxialMaterial Steel01 2 1.0 80.0 0.05
element zeroLength 1 1 2 -mat 1 -dir 1
element zeroLength 2 2 3 -mat 2 -dir 1
timeSeries Linear 1
pattern Plain 1 1 { load 3 1.5 }
constraints Transformation
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 10
algorithm Newton
integrator LoadControl 0.1
analysis Static
analyze 10
puts "gravity [nodeDisp 3 1]"
loadConst -time 0.0
timeSeries Trig 11 0.0 4.0 0.5 -factor 0.03
pattern MultiSupport 2 {
    groundMotion 1 Plain -disp 11
    imposedMotion 1 1 1
}
recorder Node -file disp.out -time -precision 16 -node 1 2 3 -dof 1 disp
recorder Element -file force.out -time -precision 16 -ele 1 2 basicForce
recorder Node -file react.out -time -precision 16 -node 1 -dof 1 reaction
rayleigh 0.1 0.002 0.0 0.0
integrator Newmark 0.5 0.25
analysis Transient
analyze 2000 0.002
TCL
run late
g=$(awk '$1 == "gravity" { print $2 }' late.log)
near "$g" "$(awk 'BEGIN { printf "%.17g", 1.5 / 300 + 1.0 / 80 + 0.5 / (0.05 * 80) }')" 1e-12 ||
    fail "late: gravity deflection $g"
w=$(awk '{ d = $2 - 0.03 * sin(4 * atan2(0, -1) * $1); if (d < 0) d = -d; if (d > m) m = d } END { printf "%.3g", m / 0.03 }' run_late/disp.out)
awk -v w="$w" 'BEGIN { exit !(w <= 1e-13) }' || fail "late: the base is off the motion by $w"
echo "$me: after gravity (node 3 at $g, the yielded spring's closed form), the fixed base moved within $w of A of u_g"
# eigen takes an imposed DOF as fixed (OpenSees' constraint handlers): before the first analyze
# and after it, w^2 = k1 k2 / (k1 + k2) / m with node 1 moved, k2 / m with node 2 moved
for s in base trig; do
    { sed 's/^analysis Transient$/puts "w2 [eigen 1]"\n&/' $s.tcl; echo 'puts "w2 [eigen 1]"'; } > eig_$s.tcl
    run "eig_$s"
done
read -r w1 w2 < <(grep -h '^w2 ' eig_base.log | awk '{ printf "%s ", $2 }')
read -r w3 w4 < <(grep -h '^w2 ' eig_trig.log | awk '{ printf "%s ", $2 }')
for w in "$w1" "$w2"; do near "$w" "$(awk 'BEGIN { printf "%.17g", 300.0 * 80.0 / 380.0 / 2.0 }')" 1e-12 || fail "eigen, node 1 moved: $w1 $w2"; done
for w in "$w3" "$w4"; do near "$w" 40 1e-12 || fail "eigen, node 2 moved: $w3 $w4"; done
echo "$me: eigen with the imposed DOF fixed: $w1 $w2 (node 1 moved), $w3 $w4 (node 2 moved)"
chain "groundMotion 1 Plain -disp 12" "timeSeries Linear 3
pattern Plain 3 3 { load 3 1.0 }
integrator DisplacementControl 3 1 0.001
analysis Static
analyze 3" > dc.tcl
testfile dc.tcl > dc.yaml
"$hysim" run dc.yaml -o run_dc > dc.log 2>&1 && fail "DisplacementControl with an imposed motion ran"
grep -q "dc.tcl:30: analyze: dc.tcl:14: a pattern MultipleSupport with a static analysis other than LoadControl is not yet" dc.log ||
    fail "dc: $(cat dc.log)"
{ cat base.tcl; echo 'remove loadPattern 2'; } > rm.tcl
testfile rm.tcl > rm.yaml
"$hysim" run rm.yaml -o run_rm > rm.log 2>&1 && fail "remove loadPattern of a MultipleSupport ran"
grep -q "rm.tcl:$(wc -l < rm.tcl): remove: pattern 2 is a MultipleSupport" rm.log || fail "rm: $(cat rm.log)"
echo "$me: refused: DisplacementControl with an imposed motion, removing the pattern (at their lines)"

rest_needs_opensees
chain "groundMotion 1 Plain -disp 11" "$transient" "-doRayleigh 1
rayleigh 0.0 0.01 0.0 0.0" > damped.tcl
chain "groundMotion 1 Plain -accel 13 -fact 2.0" "$transient" > accel.tcl
sed 's/^constraints Transformation$/constraints Plain/' damped.tcl > plain.tcl
sed 's/groundMotion 1 Plain -disp 11/groundMotion 1 Series -disp 11 -dtInt 0.002 -int Trapezoidal/' damped.tcl > dtint.tcl
sed -e 's/^mass 3 2.0$/mass 2 1.0\nmass 3 2.0/' -e 's/^constraints Transformation$/rayleigh 0.1 0.002 0.0 0.0\n&/' \
    base.tcl > fixdamp.tcl
sed -e 's/^uniaxialMaterial Elastic 2 80.0$/uniaxialMaterial Steel01 2 80.0 80.0 0.05/' \
    -e 's/^integrator Newmark 0.5 0.25$/integrator HHT 0.8/' fixdamp.tcl > hht.tcl
run damped
run accel
run plain
run dtint
# the velocity at dtInt 0.002 is another one: the damped responses differ
w=$(paste -d' ' run_damped/disp.out run_dtint/disp.out | awk '{ d = $3 - $6; if (d < 0) d = -d; if (d > m) m = d
    p = $3 < 0 ? -$3 : $3; if (p > P) P = p } END { printf "%.3g", m / P }')
awk -v w="$w" 'BEGIN { exit !(w > 1e-5) }' || fail "-dtInt 0.002 changed node 3 by $w of its peak only"
echo "$me: -dtInt 0.002 moves the damped node 3 by $w of its peak"
run fixdamp
run hht
grep -q "plain.tcl:15: constraints Plain (OpenSees' default): its Plain handler takes an imposed motion as zero" plain.log ||
    fail "plain: no warning: $(cat plain.log)"
for s in trig lin damped accel plain dtint base fixdamp hht late; do
    mkdir -p "os_$s" && cp "$s.tcl" "os_$s/" && (cd "os_$s" && run_opensees "$s.tcl" os.log) ||
        fail "OpenSees on $s.tcl: $(tail -3 "os_$s/os.log")"
    for f in disp force react; do
        rows=$(wc -l < "run_$s/$f.out")
        w=$(columns_vs_opensees "run_$s/$f.out" "os_$s/$f.out" "$rows")
        echo "$me: $s: $f.out: $w of the peaks from OpenSees ($rows rows)"
        awk -v w="$w" 'BEGIN { exit !(w + 0 == w && w <= 1e-12) }' || fail "$s: $f.out differs from OpenSees: $w"
    done
done
echo "$me: OK"
