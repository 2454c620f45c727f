#!/bin/bash
# element CoupledZeroLength in a script's own analysis (docs/opensees_tcl.md; OpenSees'
# SRC/element/zeroLength/CoupledZeroLength.cpp): one ElasticBilin material (E1 1000, E2 10000
# beyond r = 0.1) on the resultant of ux and uy between two coincident nodes, written here.
#  - Loaded along (0.6, 0.8) to |P| = 120 by LoadControl 0.1: the displacement is r (0.6, 0.8)
#    with r the material's strain at |F| = 120 lambda (|F| / 1000 below 100, 0.1 + (|F| - 100) /
#    10000 above), to 1e-12 of the peak.
#  - `remove loadPattern 1` and a new `pattern Plain 1` along -x (the tag of a removed pattern
#    names a new one, as in OpenSees): u = (-r, 0), the strain negative by OpenSees' sign rule.
#  - A `recorder Node` of a node that does not exist (4) writes the time alone, as OpenSees'.
#  - With OPENSEES set, OpenSees 3.8 on the same script: 1e-12 of the peak.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

cat > czl.tcl << 'TCL'
model basic -ndm 2 -ndf 2
node 1 0.0 0.0
node 2 0.0 0.0
fix 1 1 1
uniaxialMaterial ElasticBilin 1 1000.0 10000.0 0.1
element CoupledZeroLength 1 1 2 1 2 1
recorder Node -file d.out -time -precision 16 -node 2 -dof 1 2 disp
recorder Node -file none.out -time -node 4 -dof 1 disp
constraints Plain
numberer Plain
system BandGeneral
test NormDispIncr 1e-12 20
algorithm Newton
integrator LoadControl 0.1
analysis Static
timeSeries Linear 1
pattern Plain 1 1 { load 2 72.0 96.0 }
set ok [analyze 10]
remove loadPattern 1
loadConst -time 0.0
pattern Plain 1 1 { load 2 -120.0 0.0 }
incr ok [analyze 10]
puts "ok $ok"
TCL
printf 'hysim: 1\nname: czl\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: czl.tcl}\n' > czl.yaml
"$hysim" run czl.yaml -o run > run.log 2>&1 || fail "hysim run: $(cat run.log)"
grep -q '^ok 0$' run.log || fail "analyze: $(cat run.log)"
grep -q 'no node 4: left out of none.out' run.log || fail "no line for the missing node: $(cat run.log)"
# rows 1-10: along (0.6, 0.8); rows 11-20: along -x; each lambda = 0.1 k of |F| = 120
read -r d n < <(awk '{ k = NR <= 10 ? NR : NR - 10; f = 12 * k; r = f <= 100 ? f / 1000 : 0.1 + (f - 100) / 10000
    ux = NR <= 10 ? 0.6 * r : -r; uy = NR <= 10 ? 0.8 * r : 0
    a = $2 - ux; b = $3 - uy; a = a < 0 ? -a : a; b = b < 0 ? -b : b; if (a > d) d = a; if (b > d) d = b
    t = $1 - 0.1 * k; t = t < 0 ? -t : t; if (t > 1e-12) d = 1 }
    END { print d + 0, NR }' run/d.out)
[ "$n" -eq 20 ] || fail "$n rows in d.out, expected 20"
awk -v d="$d" 'BEGIN { exit !(d <= 1e-12 * 0.102) }' || fail "displacements off the closed form by $d"
echo "$me: radial ElasticBilin along (0.6, 0.8) then -x: closed form to $d (peak 0.102)"
awk 'NF != 1 { exit 1 } END { exit NR != 20 }' run/none.out || fail "none.out: $(head -3 run/none.out)"
echo "$me: the recorder of a missing node writes the time alone (20 rows)"

rest_needs_opensees
mkdir os && cp czl.tcl os/ && (cd os && run_opensees czl.tcl os.log) || fail "OpenSees: $(tail -5 os/os.log)"
read -r d n < <(paste -d' ' run/d.out os/d.out | awk '{ for (i = 1; i <= 3; i++) { a = $i - $(i + 3)
    a = a < 0 ? -a : a; if (a > d) d = a } n++ } END { print d + 0, n }')
[ "$n" -eq 20 ] && awk -v d="$d" 'BEGIN { exit !(d <= 1e-12 * 0.102) }' || fail "OpenSees differs by $d ($n rows)"
cmp -s <(awk '{ print $1 + 0 }' run/none.out) <(awk '{ print $1 + 0 }' os/none.out) || fail "none.out differs from OpenSees'"
echo "$me: OpenSees 3.8: largest difference $d (peak 0.102); none.out the same times"
echo "$me: OK"
