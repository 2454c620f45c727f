#!/bin/bash
# The script's own analysis (docs/opensees_tcl.md): a test file that names only an OpenSees
# script runs the script's analysis commands as OpenSees would, its recorders writing inside the
# run's folder. Scripts written here, each checked against theory or an independent recurrence:
#  - a cantilever pushed by LoadControl: the tip displacement P L^3 / (3 E I), the reaction -P,
#    analyze's 0, getTime, eleForce, the recorders' rows and format;
#  - the same column on an elastic-perfectly-plastic rotational hinge (Steel01, b = 0) pushed by
#    DisplacementControl: the elastic branch and the plateau at My / L;
#  - the gravity idiom on a P-Delta column: gravity by LoadControl and Newton, loadConst -time
#    0.0, then a lateral push: the base moment H L + N delta of the deformed equilibrium;
#  - an SDOF under a Trig load (Newmark, with a `while {$t < $T}` loop on getTime) and under a
#    Path ground motion (-values, HHT alpha 0.9) against the Newmark / HHT recurrences in awk;
#  - the same SDOF on a node 0 support, free from UniformExcitation -vel0, with tcl_precision,
#    getPID / getNP and display commands (said once);
#  - with the test file's analysis: the same loop ends, one line per ignored command;
#  - errors: the line of a bad command; keys that only the test file's analysis reads.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

testfile() { # NAME SCRIPT: a test file naming only the script
    printf 'hysim: 1\nname: %s\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: %s}\n' "$1" "$2"
}
# last_col FILE COL: column COL of the last row
last_col() { tail -1 "$1" | awk -v c="$2" '{ print $c }'; }

# --- a cantilever under LoadControl ---
cat > cant.tcl <<'TCL'
wipe
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 0.0 3.0
fix 1 1 1 1
geomTransf Linear 1
element elasticBeamColumn 1 1 2 0.01 2.0e8 1.0e-4 1
timeSeries Linear 1
pattern Plain 1 1 { load 2 10.0 0.0 0.0 }
file mkdir out
recorder Node -file out/disp.out -time -node 2 -dof 1 3 disp
recorder Node -file out/react.out -node 1 -dof 1 3 reaction
recorder Element -file out/force.out -ele 1 force
constraints Transformation
numberer RCM
system BandGeneral
test NormDispIncr 1.0e-12 10
algorithm Newton
integrator LoadControl 0.1
analysis Static
set ok [analyze 10]
puts "ok $ok time [getTime] tip [nodeDisp 2 1] base [nodeReaction 1 1] [nodeReaction 1 3] shear [eleForce 1 1]"
TCL
testfile cant cant.tcl > cant.yaml
"$hysim" check cant.yaml > check.out 2>&1 || fail "check: $(cat check.out)"
grep -q 'runs its own analysis' check.out || fail "check: $(cat check.out)"
"$hysim" run cant.yaml -o run1 > run.out 2> run.err || fail "run: $(cat run.out run.err)"
read -r _ ok _ t _ tip _ rx rm _ v < <(grep '^ok ' run.out)
[ "$ok" = 0 ] || fail "analyze returned '$ok': $(cat run.out)"
near "$t" 1.0 1e-12 || fail "getTime $t after 10 steps of 0.1"
near "$tip" "$(awk 'BEGIN { print 10 * 27 / (3 * 2e8 * 1e-4) }')" 1e-12 || fail "tip $tip"
near "$rx" -10 1e-12 && near "$rm" 30 1e-12 || fail "reactions $rx $rm, expected -10 30"
near "$v" -10 1e-12 || fail "eleForce 1 1 = $v, expected -10 (the element's force on node 1)"
[ "$(wc -l < run1/out/disp.out)" -eq 10 ] || fail "$(wc -l < run1/out/disp.out) rows in disp.out"
[ "$(head -1 run1/out/disp.out)" = "0.1 0.00045 -0.000225 " ] || fail "row 1: '$(head -1 run1/out/disp.out)'"
near "$(last_col run1/out/disp.out 3)" "$(awk 'BEGIN { print -10 * 9 / (2 * 2e8 * 1e-4) }')" 1e-5 ||
    fail "tip rotation $(last_col run1/out/disp.out 3)"
[ "$(tail -1 run1/out/react.out)" = "-10 30 " ] || fail "reactions row '$(tail -1 run1/out/react.out)'"
[ "$(awk '{ print NF }' run1/out/force.out | sort -u)" = 6 ] || fail "force rows: $(tail -1 run1/out/force.out)"
[ ! -e out ] || fail "a recorder wrote beside the test file"
echo "cantilever: tip $tip m (P L^3 / 3EI), reactions $rx $rm, analyze $ok, getTime $t"

# --- the same column on an elastic-perfectly-plastic hinge, DisplacementControl ---
cat > hinge.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 0.0 0.0
node 3 0.0 3.0
fix 1 1 1 1
equalDOF 1 2 1 2
uniaxialMaterial Steel01 1 24.0 12000.0 0.0
element zeroLength 1 1 2 -mat 1 -dir 6
geomTransf Linear 1
element elasticBeamColumn 2 2 3 0.01 2.0e8 1.0e-4 1
timeSeries Linear 1
pattern Plain 1 1 { load 3 1.0 0.0 0.0 }
recorder Node -file push.out -time -precision 17 -node 3 -dof 1 disp
recorder Element -file hinge.out -ele 1 force
constraints Transformation
numberer Plain
system FullGeneral
test NormDispIncr 1.0e-12 20
algorithm Newton
integrator DisplacementControl 3 1 0.001
analysis Static
for {set i 0} {$i < 30} {incr i} {
    if {[analyze 1] != 0} { puts "failed at step $i"; exit }
}
puts "lambda [getTime] u [nodeDisp 3 1]"
TCL
testfile hinge hinge.tcl > hinge.yaml
"$hysim" run hinge.yaml -o run2 > run.out 2> run.err || fail "hinge: $(cat run.out run.err)"
# elastic: P = u / (L^2 / k + L^3 / 3EI); yield at M = P L = 24: u_y = 8 (L^2/k + L^3/3EI)
read -r lam1 u1 < <(awk 'NR == 1 { print $1, $2 }' run2/push.out)
flex=$(awk 'BEGIN { printf "%.17g", 9 / 12000 + 27 / (3 * 2e8 * 1e-4) }')
near "$lam1" "$(awk -v u="$u1" -v f="$flex" 'BEGIN { printf "%.17g", u / f }')" 1e-12 || fail "elastic step: P $lam1 at u $u1"
lam=$(awk '/^lambda/ { print $2 }' run.out)
near "$lam" 8 1e-10 || fail "plateau P $lam, expected My / L = 8"
mh=$(last_col run2/hinge.out 6)
near "$mh" -24 1e-10 || fail "hinge moment $mh on node 2, expected -My = -24 (the column turns clockwise)"
echo "hinge: P $lam1 at u $u1 (elastic), plateau P $lam = My / L, hinge moment $mh"

# --- gravity, loadConst, then a lateral push of a P-Delta column ---
cat > gravity.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 0.0 4.0
fix 1 1 1 1
geomTransf PDelta 1
element elasticBeamColumn 1 1 2 0.02 2.0e8 2.0e-4 1
timeSeries Linear 1
pattern Plain 1 1 { load 2 0.0 -800.0 0.0 }
constraints Plain
numberer Plain
system FullGeneral
test NormDispIncr 1.0e-12 20
algorithm Newton
integrator LoadControl 0.1
analysis Static
analyze 10
set N [eleForce 1 2]
loadConst -time 0.0
puts "after loadConst time [getTime]"
timeSeries Linear 2
pattern Plain 2 2 { load 2 1.0 0.0 0.0 }
integrator DisplacementControl 2 1 0.002
analyze 10
puts "push H [getTime] delta [nodeDisp 2 1] dy [nodeDisp 2 2] M [nodeReaction 1 3] N $N"
TCL
testfile gravity gravity.tcl > gravity.yaml
"$hysim" run gravity.yaml -o run3 > run.out 2> run.err || fail "gravity: $(cat run.out run.err)"
grep -qE '^after loadConst time 0(\.0)?$' run.out || fail "loadConst -time 0.0: $(cat run.out)"
read -r _ _ H _ d _ dy _ M _ N < <(grep '^push ' run.out)
near "$d" 0.02 1e-12 || fail "delta $d after 10 steps of 0.002"
# the base moment balances the lateral load and the gravity load on the deformed column
near "$M" "$(awk -v h="$H" -v d="$d" 'BEGIN { print h * 4 + 800 * d }')" 1e-9 || fail "base moment $M, H $H, delta $d"
# the P-Delta stiffness is lower than the first-order one: H < 3 E I delta / L^3
awk -v h="$H" -v d="$d" 'BEGIN { exit !(h < 3 * 2e8 * 2e-4 * d / 64 && h > 0.5 * 3 * 2e8 * 2e-4 * d / 64) }' ||
    fail "lateral load $H for delta $d"
near "$N" 800 1e-12 || fail "gravity axial force $N"
echo "gravity: N $N, then H $H at delta $d, base moment $M = H L + N delta"

# --- an SDOF under a Trig load (Newmark) and a Path ground motion (HHT) ---
sdof() { # INTEGRATOR LOADS: a mass of 2 on a spring of 800, alphaM 0.4
    cat <<TCL
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 0.0 0.0 -mass 2.0 0.0 0.0
fix 1 1 1 1
fix 2 0 1 1
uniaxialMaterial Elastic 1 800.0
element zeroLength 1 1 2 -mat 1 -dir 1
rayleigh 0.4 0.0 0.0 0.0
$2
recorder Node -file sdof.out -time -precision 16 -node 2 -dof 1 disp
constraints Plain
numberer Plain
system FullGeneral
test NormDispIncr 1.0e-14 10
algorithm Newton
integrator $1
analysis Transient
TCL
}
{
    sdof "Newmark 0.5 0.25" 'timeSeries Trig 1 0.0 10.0 0.35 -factor 30.0
pattern Plain 1 1 { load 2 1.0 0.0 0.0 }'
    echo 'set t 0.0; set n 0'
    echo 'while {$t < 1.0} { set ok [analyze 1 0.01]; if {$ok != 0} { exit }; set t [getTime]; incr n }'
    echo 'puts "steps $n"'
} > trig.tcl
testfile trig trig.tcl > trig.yaml
"$hysim" run trig.yaml -o run4 > run.out 2> run.err || fail "trig: $(cat run.out run.err)"
n=$(awk '/^steps/ { print $2 }' run.out)
[ "$n" -ge 100 ] && [ "$n" -le 101 ] || fail "the getTime loop ran $n steps"
# Newmark's recurrence for m u'' + c u' + k u = p(t): one solve a step (the model is linear)
newmark_awk() { # ALPHA GAMMA BETA LOAD(t) KIND(force|ground)
    awk -v al="$1" -v g="$2" -v b="$3" -v kind="$5" -v n="$n" '
        function p(t) { '"$4"' }
        BEGIN { m = 2; k = 800; c = 0.4 * m; dt = 0.01; u = v = a = 0
          for (s = 1; s <= n; s++) {
            t0 = (s - 1) * dt; vp = (1 - g / b) * v + dt * (1 - 0.5 * g / b) * a; ap = (1 - 0.5 / b) * a - v / (b * dt)
            ua = u; va = (1 - al) * v + al * vp; f = kind == "ground" ? -m * p(t0 + al * dt) : p(t0 + al * dt)
            r = f - k * ua - c * va - m * ap; ke = al * k + al * g / (b * dt) * c + m / (b * dt * dt)
            du = r / ke; u += du; v = vp + g / (b * dt) * du; a = ap + du / (b * dt * dt)
            printf "%.17g %.17g\n", s * dt, u } }'
}
newmark_awk 1 0.5 0.25 'return 30 * sin(2 * atan2(0, -1) * t / 0.35)' force > trig.ref
read -r dmax peak < <(paste -d' ' run4/sdof.out trig.ref | awk '{ d = $2 - $4; if (d < 0) d = -d; if (d > m) m = d
    a = $4 < 0 ? -$4 : $4; if (a > p) p = a; if (($1 - $3) ^ 2 > 1e-20) bad = 1 } END { print (bad ? 1 : m), p }')
awk -v d="$dmax" -v p="$peak" 'BEGIN { exit !(d <= 1e-12 * p && p > 0.01) }' || fail "Trig SDOF differs from Newmark's recurrence by $dmax (peak $peak)"
echo "Trig load, Newmark: $n steps by the getTime loop, largest difference from the recurrence $dmax (peak $peak)"
{
    sdof "HHT 0.9" 'timeSeries Path 2 -dt 0.02 -values {0.0 1.0 3.0 -2.0 -4.0 0.5 2.0 0.0} -factor 1.5
pattern UniformExcitation 2 1 -accel 2'
    echo 'analyze 60 0.01'
} > ground.tcl
n=60
testfile ground ground.tcl > ground.yaml
"$hysim" run ground.yaml -o run5 > run.out 2> run.err || fail "ground: $(cat run.out run.err)"
newmark_awk 0.9 0.6 0.3025 'split("0 1 3 -2 -4 0.5 2 0", w, " "); x = t / 0.02; i = int(x + 1e-12); if (i + 1 >= 8) return 0
    return 1.5 * (w[i + 1] + (w[i + 2] - w[i + 1]) * (x - i))' ground > ground.ref
read -r dmax peak < <(paste -d' ' run5/sdof.out ground.ref | awk '{ d = $2 - $4; if (d < 0) d = -d; if (d > m) m = d
    a = $4 < 0 ? -$4 : $4; if (a > p) p = a } END { print m, p }')
awk -v d="$dmax" -v p="$peak" 'BEGIN { exit !(d <= 1e-10 * p && p > 1e-3) }' || fail "ground SDOF differs from HHT's recurrence by $dmax (peak $peak)"
echo "Path ground motion, HHT 0.9: largest difference from the recurrence $dmax (peak $peak)"

# --- node 0, tcl_precision, display commands, getPID, UniformExcitation -vel0 ---
sed -e 's/^node 1 0.0 0.0$/node 0 0.0 0.0/' -e 's/^fix 1 1 1 1$/fix 0 1 1 1/' \
    -e 's/^element zeroLength 1 1 2/element zeroLength 1 0 2/' \
    -e 's/^timeSeries Trig .*$/timeSeries Path 1 -dt 0.01 -values {0.0 0.0} -prependZero/' \
    -e 's/^pattern Plain 1 1 .*$/pattern UniformExcitation 1 1 -accel 1 -vel0 0.5/' \
    -e 's/^while .*$/display 1 2 3; prp 0 0 1; display 1 2 3; analyze 100 0.01/' \
    -e 's/^puts "steps $n"$/set tcl_precision 5; puts "third [expr 1.0\/3] pid [getPID] np [getNP]"/' trig.tcl > vel0.tcl
grep -q 'node 0' vel0.tcl && grep -q 'vel0 0.5' vel0.tcl || fail "vel0.tcl: $(cat vel0.tcl)"
testfile vel0 vel0.tcl > vel0.yaml
"$hysim" run vel0.yaml -o run7 > run.out 2> run.err || fail "vel0: $(cat run.out run.err)"
grep -q '^third 0.33333 pid 0 np 1$' run.out || fail "tcl_precision 5, getPID, getNP: $(cat run.out)"
[ "$(grep -c 'display ignored' run.err)" -eq 1 ] && [ "$(grep -c 'prp ignored' run.err)" -eq 1 ] ||
    fail "display lines: $(cat run.err)"
n=100
# free vibration from u = 0, v = 0.5, a = 0 (OpenSees sets the velocity, not the acceleration)
awk -v n=100 'BEGIN { m = 2; k = 800; c = 0.8; dt = 0.01; g = 0.5; b = 0.25; u = 0; v = 0.5; a = 0
    for (s = 1; s <= n; s++) { vp = (1 - g / b) * v + dt * (1 - 0.5 * g / b) * a; ap = (1 - 0.5 / b) * a - v / (b * dt)
        r = -k * u - c * vp - m * ap; du = r / (k + g / (b * dt) * c + m / (b * dt * dt))
        u += du; v = vp + g / (b * dt) * du; a = ap + du / (b * dt * dt); printf "%.17g %.17g\n", s * dt, u } }' > vel0.ref
read -r dmax peak < <(paste -d' ' run7/sdof.out vel0.ref | awk '{ d = $2 - $4; if (d < 0) d = -d; if (d > m) m = d
    a = $4 < 0 ? -$4 : $4; if (a > p) p = a } END { print m, p }')
awk -v d="$dmax" -v p="$peak" 'BEGIN { exit !(d <= 1e-12 * p && p > 0.01) }' || fail "-vel0 free vibration differs by $dmax (peak $peak)"
echo "node 0 support, -vel0 0.5: free vibration within $dmax of the recurrence (peak $peak); tcl_precision 5 prints 0.33333; display said once"

# --- open: a record read as ReadRecord.tcl reads one, a converted copy written in the run ---
printf 'HEADER LINE\nNPTS= 8, DT= 0.02\n0.0 1.0 3.0 -2.0\n-4.0 0.5 2.0 0.0\n' > rec.txt
sed -e 's/^timeSeries Path 2 .*$/set in [open rec.txt r]; gets $in; gets $in; set out [open conv\/rec.dat w]\
while {[gets $in line] >= 0} { puts $out $line }; close $in; close $out\
timeSeries Path 2 -dt 0.02 -filePath conv\/rec.dat -factor 1.5/' ground.tcl > openrec.tcl
testfile openrec openrec.tcl > openrec.yaml
"$hysim" run openrec.yaml -o run8 > run.out 2> run.err || fail "open: $(cat run.out run.err)"
[ -f run8/conv/rec.dat ] && [ ! -e conv ] || fail "the converted record is not in the run's folder"
cmp -s run5/sdof.out run8/sdof.out || fail "the record read through open gives another history"
{ testfile w cant.tcl | sed 's/cant.tcl/wr.tcl/'; printf 'ground_motion:\n  synthetic: {seed: 1, pga: 1.0, duration: 1, dt: 0.01}\nanalysis:\n  integrator: {type: newmark}\n  dt: 0.01\n  steps: 10\n'; } > wr.yaml
{ echo 'set f [open out.txt w]'; cat cant.tcl; } > wr.tcl
refused wr.yaml "open for writing with the test file's analysis" "wr.tcl:1: open: not available"
echo "open: a record read with gets and written in the run's folder gives the same history; writing refused with the test file's analysis"

# --- with the test file's analysis: the loop ends, each ignored command said once ---
sed -e 's/^while.*$/while {$t < 1.0} { analyze 1 0.01; set t [getTime]; incr n }/' \
    -e 's/^timeSeries Trig .*$/timeSeries Linear 1/' trig.tcl > loop.tcl
{ testfile loop loop.tcl; printf 'ground_motion:\n  synthetic: {seed: 1, pga: 1.0, duration: 1, dt: 0.01}\n'
  printf 'analysis:\n  integrator: {type: newmark}\n  dt: 0.01\n  steps: 10\n'; } > loop.yaml
timeout 60 "$hysim" check loop.yaml > loop.out 2> loop.err || fail "check with the loop: $(cat loop.out loop.err)"
[ "$(grep -c 'analyze ignored' loop.err)" -eq 1 ] || fail "analyze lines: $(grep -c 'analyze ignored' loop.err)"
[ "$(grep -c 'getTime\|ignored' loop.err)" -le 12 ] || fail "$(wc -l < loop.err) lines: $(head -20 loop.err)"
echo "with the test file's analysis: the getTime loop ends, $(grep -c ignored loop.err) lines for ignored commands"

# --- errors ---
sed -e 's/^integrator LoadControl 0.1$/integrator ArcLength 0.1 1.0/' cant.tcl > bad.tcl
testfile bad bad.tcl > bad.yaml
"$hysim" run bad.yaml -o run6 > out 2>&1 && fail "ArcLength passed"
line=$(grep -n '^integrator' bad.tcl | cut -d: -f1)
grep -q "bad.tcl:$line: integrator: type 'ArcLength' is not supported" out || fail "message: $(cat out)"
{ testfile extra cant.tcl; printf 'ground_motion:\n  synthetic: {seed: 1, pga: 1.0, duration: 1, dt: 0.01}\n'; } > extra.yaml
refused extra.yaml "ground_motion without analysis" "ground_motion: applies to the test file's analysis"
echo "$me: OK"
