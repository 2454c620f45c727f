#!/bin/bash
# A `record` before the script's first analysis (OpenFresco's scripts do it: the row of the
# unloaded model) writes each element recorder's row as wide as the rows that follow (the
# element's own response size, OpenSees' and OpenFresco's layout), zeros: an experimental
# twoNodeLink's ctrlDisp and daqDisp (one value: its driven direction), a forceBeamColumn's
# basicDeformation (3) and localForce (6), a truss's axial force (1); and a truss's `material
# tangent` (an elastic one's too). Scripts written here: a column with an experimental brace on a
# perfect SimUniaxialMaterials site, pushed by a DisplacementControl history; two bars.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

cat > frame.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 0.0 3.0
node 3 4.0 0.0
fix 1 1 1 1
fix 3 1 1 1
uniaxialMaterial Steel01 1 400000.0 2.0e8 0.02
uniaxialMaterial Elastic 2 50000.0
section Fiber 1 {
    layer straight 1 3 0.0005 -0.2 0.0 0.2 0.0
    fiber 0.0 0.1 0.0004 1
    fiber 0.0 -0.1 0.0004 1
}
geomTransf Linear 1
beamIntegration Lobatto 1 1 4
element forceBeamColumn 1 1 2 1 1
element truss 3 3 2 0.001 1
expControl SimUniaxialMaterials 1 2
expSetup OneActuator 1 -control 1 1 -sizeTrialOut 1 1
expSite LocalSite 1 1
expElement twoNodeLink 2 3 2 -dir 2 -site 1 -initStif 50000.0 -orient -3 4 0 -4 -3 0
timeSeries Linear 1
pattern Plain 1 1 { load 2 1.0 0.0 0.0 }
recorder Element -file ctrl.out -precision 15 -ele 2 ctrlDisp
recorder Element -file daq.out -precision 15 -ele 2 daqDisp
recorder Element -file bdef.out -precision 15 -ele 1 basicDeformation
recorder Element -file local.out -precision 15 -ele 1 localForce
recorder Element -file axial.out -precision 15 -ele 3 axialForce
record
constraints Plain
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-12 25
algorithm Newton
analysis Static
integrator DisplacementControl 2 1 0.001
if {[analyze 5] != 0} { puts "analyze failed"; exit }
puts "done [getTime]"
TCL
printf 'hysim: 1\nname: first\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: frame.tcl}\n' > frame.yaml
"$hysim" run frame.yaml -o run > run.log 2>&1 || fail "run: $(cat run.log)"
grep -q '^done' run.log || fail "the analysis did not end: $(cat run.log)"
for f in ctrl:1 daq:1 bdef:3 local:6 axial:1; do
    file=run/${f%%:*}.out want=${f##*:}
    [ "$(wc -l < "$file")" -eq 6 ] || fail "$file: $(wc -l < "$file") rows, expected 6 (the record, 5 steps)"
    awk -v n="$want" 'NF != n { bad = 1 } NR == 1 { for (j = 1; j <= NF; j++) if ($j != 0) z = 1 }
        NR > 1 { for (j = 1; j <= NF; j++) if ($j != 0) moved = 1 }
        END { exit bad || z || !moved }' "$file" ||
        fail "$file: every row $want values, the first zeros, the others not: $(head -2 "$file")"
done
echo "$me: the first record's rows are as wide as the steps' (1, 1, 3, 6, 1 values), zeros"

# a truss's `material tangent` from the first record on: a Steel01 bar's E0, then b E0 once it
# yields (the bars share the load 200 : 1, so the Steel01 one reaches its 300 at the 4th load step
# of 100, as OpenSees 3.8 records it too), and an elastic bar's E at every row (hysim's elastic
# truss keeps no material object)
cat > truss.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 2
node 1 0 0; node 2 1 0; node 3 0 1
fix 1 1 1; fix 2 0 1; fix 3 1 1
uniaxialMaterial Steel01 1 300.0 2.0e5 0.01
uniaxialMaterial Elastic 2 1000.0
element truss 1 1 2 1.0 1
element truss 2 3 2 1.0 2
timeSeries Linear 1
pattern Plain 1 1 { load 2 1000.0 0.0 }
recorder Element -file tan.out -ele 1 2 material tangent
record
constraints Plain; numberer Plain; system BandGeneral; test NormDispIncr 1e-12 10; algorithm Newton
integrator LoadControl 0.1; analysis Static; analyze 10
TCL
printf 'hysim: 1\nname: truss\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: truss.tcl}\n' > truss.yaml
"$hysim" run truss.yaml -o truss > truss.log 2>&1 || fail "run: $(cat truss.log)"
awk 'NF != 2 || $2 != 1000 { bad = 1 } NR <= 4 && $1 != 200000 { bad = 1 } NR >= 5 && $1 != 2000 { bad = 1 }
    END { exit bad || NR != 11 }' truss/tan.out || fail "material tangent rows: $(cat truss/tan.out)"
echo "$me: material tangent 200000 (E0) in the first record and 3 steps, 2000 (b E0) after yield, 1000 (elastic) throughout"
echo "$me: OK"
