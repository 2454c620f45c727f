#!/bin/bash
# eigen before any `analysis` command, in a script's own analysis (docs/opensees_tcl.md): OpenSees
# 3.8's eigen makes the transient analysis of its defaults when there is none (Newmark 0.5 0.25,
# Newton, NormUnbalance 1e-6 25; SRC/tcl/commands.cpp, eigenAnalysis), and a later
# `analyze N dt` runs it (OpenSees' verification/mdofModal.tcl does, after a wipe). Checked on an
# SDOF written here, m u'' + k u = P t:
#  - eigen's value k / m, analyze's 0;
#  - the displacements equal Newmark's average-acceleration recurrence (awk) to 1e-12 of the peak,
#    and, to the bit, the same script with those defaults written out;
#  - with OPENSEES set, OpenSees on the same script: 1e-12 of the peak.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

m=2.0
k=800.0
P=50.0
dt=0.01
steps=300
# sdof EXTRA_BEFORE_ANALYZE: the SDOF script, with EXTRA between eigen and analyze
sdof() {
    cat << TCL
wipe
model basic -ndm 1 -ndf 1
node 1 0.0
node 2 0.0 -mass $m
fix 1 1
uniaxialMaterial Elastic 1 $k
element zeroLength 1 1 2 -mat 1 -dir 1
timeSeries Linear 1
pattern Plain 1 1 { load 2 $P }
file mkdir out
recorder Node -file out/d.out -time -precision 16 -node 2 -dof 1 disp
set lambda [eigen -fullGenLapack 1]
$1
set ok [analyze $steps $dt]
puts "lambda \$lambda ok \$ok"
TCL
}
sdof "" > sdof.tcl
sdof "test NormUnbalance 1.0e-6 25
algorithm Newton
integrator Newmark 0.5 0.25
analysis Transient" > written.tcl
os_testfile sdof sdof.tcl > sdof.yaml
os_testfile written written.tcl > written.yaml
"$hysim" run sdof.yaml -o run1 > run1.out 2> run1.err || fail "run: $(cat run1.out run1.err)"
read -r _ lambda _ ok < <(grep '^lambda ' run1.out)
[ "$ok" = 0 ] || fail "analyze returned '$ok'"
near "$lambda" "$(awk -v k=$k -v m=$m 'BEGIN { print k / m }')" 1e-12 || fail "eigen $lambda, expected k / m"
[ "$(wc -l < run1/out/d.out)" -eq "$steps" ] || fail "$(wc -l < run1/out/d.out) rows, expected $steps"
# Newmark (gamma 1/2, beta 1/4) from rest, p(t) = P t
read -r dmax peak < <(awk -v m=$m -v k=$k -v P=$P -v dt=$dt '
    BEGIN { u = 0; v = 0; a = 0; keff = k + 4 * m / (dt * dt) }
    { t = $1; pe = P * t + m * (4 / (dt * dt) * u + 4 / dt * v + a); u1 = pe / keff
      a1 = 4 / (dt * dt) * (u1 - u) - 4 / dt * v - a; v = v + dt / 2 * (a + a1); a = a1; u = u1
      d = $2 - u; if (d < 0) d = -d; if (d > dm) dm = d; au = u < 0 ? -u : u; if (au > pk) pk = au }
    END { print dm + 0, pk }' run1/out/d.out)
awk -v d="$dmax" -v p="$peak" 'BEGIN { exit !(d <= 1e-12 * p && p > 0.05) }' ||
    fail "eigen's default analysis differs from Newmark's recurrence by $dmax (peak $peak)"
echo "$me: eigen's default transient analysis: k/m $lambda, largest difference from Newmark's recurrence $dmax (peak $peak)"
"$hysim" run written.yaml -o run2 > run2.out 2> run2.err || fail "run written: $(cat run2.out run2.err)"
cmp -s run1/out/d.out run2/out/d.out || fail "the defaults written out give another response"

rest_needs_opensees
mkdir os && cp sdof.tcl os/ && (cd os && run_opensees sdof.tcl os.log) || fail "OpenSees: $(tail -5 os/os.log)"
read -r dmax peak < <(paste -d' ' run1/out/d.out os/out/d.out | awk '$1 == $3 { d = $2 - $4; if (d < 0) d = -d; if (d > dm) dm = d
    a = $4 < 0 ? -$4 : $4; if (a > pk) pk = a; n++ } END { print (n == NR ? dm + 0 : "rows"), pk }')
awk -v d="$dmax" -v p="$peak" 'BEGIN { exit !(d != "rows" && d <= 1e-12 * p && p > 0.05) }' ||
    fail "differs from OpenSees by $dmax (peak $peak)"
echo "$me: OpenSees 3.8 on the same script: largest difference $dmax (peak $peak)"
echo "$me: OK"
