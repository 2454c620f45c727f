#!/bin/bash
# element Truss2 in the script's own analysis (docs/opensees_tcl.md; src/fe/fe_truss.c). A script
# written here: a ConcretewBeta bar 1 -> 2 (ksi, A = 1, L = 1; bint 0.3 at 0.01, bres 0.1 at
# 0.025) whose Truss2 names the crossing chord 3 -> 4, an elastic truss (E A = 400) pulled by a
# constant 6 kip: its strain 0.015. DisplacementControl shortens the bar to -0.0006, then -0.0012;
# the load factor is the bar's force. Theory: from the committed compression the material
# softens by beta(0.015) = 0.3 + (0.1 - 0.3) (0.015 - 0.01) / 0.015 = 0.2333 (theta = 90 degrees:
# et = e_o), so lambda = beta (E0 e + (fpc / ec0^2 - E0 / ec0) e^2) at e = -0.0012; a plain
# truss (the same script with `element truss`) has beta 1. Errors: an unknown auxiliary node
# at its line, -cMass refused. With OPENSEES set, the two load factors equal OpenSees' to the 6
# digits its getTime prints.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

# script ELEMENT-LINE
script() {
    cat <<TCL
set tcl_precision 16
model BasicBuilder -ndm 2 -ndf 2
node 1 0.0 0.0
node 2 1.0 0.0
node 3 0.5 -0.5
node 4 0.5 0.5
fix 1 1 1
fix 2 0 1
fix 3 1 1
fix 4 1 0
uniaxialMaterial ConcretewBeta 10 -5.8 -0.002 -0.058 -0.004 0.0 -1.0 0.3046 0.003 0.0012 0.0 1.0 -beta 0.3 0.01 0.1 0.025 -E 4341.0
uniaxialMaterial Elastic 100 400.0
$1
element truss 3 3 4 1.0 100
timeSeries Linear 1
timeSeries Constant 2
pattern Plain 1 1 { load 2 1.0 0.0 }
pattern Plain 2 2 { load 4 0.0 6.0 }
constraints Plain
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-14 20
algorithm Newton
analysis Static
integrator DisplacementControl 2 1 -0.0006
if {[analyze 1] != 0} { puts "analyze failed"; exit }
puts "step1 [getTime] [nodeDisp 4 2]"
integrator DisplacementControl 2 1 -0.0006
if {[analyze 1] != 0} { puts "analyze failed"; exit }
puts "step2 [getTime] [nodeDisp 2 1]"
TCL
}
testfile() { printf 'hysim: 1\nname: truss2\nunits: {force: kip, length: in, time: s}\nstructure:\n  model: {opensees: %s}\n' "$1"; }

script "element Truss2 1 1 2 3 4 1.0 10" > t2.tcl
script "element truss 1 1 2 1.0 10" > t1.tcl
for s in t1 t2; do
    testfile $s.tcl > $s.yaml
    "$hysim" run $s.yaml -o run_$s > $s.log 2>&1 || fail "$s: $(cat $s.log)"
done
read -r _ lam2 u2 < <(grep '^step2 ' t2.log)
read -r _ _ v4 < <(grep '^step1 ' t2.log)
read -r _ lam1 _ < <(grep '^step2 ' t1.log)
near "$v4" 0.015 1e-12 || fail "node 4 at $v4, expected 6 / 400 (L = 1)"
near "$u2" -0.0012 1e-12 || fail "node 2 at $u2, expected -0.0012"
read -r want1 want2 <<< "$(awk 'BEGIN { e = -0.0012; E0 = 4341; s = E0 * e + (-5.8 / 4e-6 - E0 / -0.002) * e * e
    b = 0.3 + (0.1 - 0.3) * (0.015 - 0.01) / 0.015; printf "%.17g %.17g\n", s, b * s }')"
near "$lam1" "$want1" 1e-10 || fail "truss: load factor $lam1, expected $want1 (beta 1)"
near "$lam2" "$want2" 1e-10 || fail "Truss2: load factor $lam2, expected $want2 (beta 0.2333)"
echo "$me: truss $lam1 (theory $want1), Truss2 $lam2 (theory $want2, beta 0.2333)"

# errors: an unknown auxiliary node, an option Truss2 does not know
script "element Truss2 1 1 2 3 9 1.0 10" > bad1.tcl
script "element Truss2 1 1 2 3 4 1.0 10 -cMass 1" > bad2.tcl
for s in bad1 bad2; do
    testfile $s.tcl > $s.yaml
    "$hysim" run $s.yaml -o run_$s > $s.log 2>&1 && fail "$s ran"
done
grep -q "bad1.tcl:13: element: no node 9" bad1.log || fail "bad1: $(cat bad1.log)"
grep -q "bad2.tcl:13: element: option '-cMass' is not supported by Truss2" bad2.log || fail "bad2: $(cat bad2.log)"

rest_needs_opensees
for s in t1 t2; do
    run_opensees $s.tcl os_$s.log || fail "OpenSees $s: $(tail -5 os_$s.log)"
    read -r _ os _ < <(grep '^step2 ' os_$s.log)
    read -r _ hs _ < <(grep '^step2 ' $s.log)
    near "$hs" "$os" 1e-6 || fail "$s: load factor $hs, OpenSees $os"
    echo "$me: $s: load factor $hs, OpenSees 3.8 $os"
done
echo "$me: OK"
