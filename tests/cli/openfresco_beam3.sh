#!/bin/bash
# OpenFresco's 3-D experimental beam-column (expElement beamColumn in -ndm 3 -ndf 6,
# EEBeamColumn3d, geomTransf Linear; src/fe/fe_link_beam3.c) against its numerical twin in hysim.
# OpenFresco's Cantilever3D column (L = 54 along Z, vecxz (0, -1, 0), its -initStif: the
# cantilever stiffness of EI = 146966.4, EA / L = 1213, GJ / L = 1e8), its setup driving B's shears
# (NoTransformation -dof 2 4, factors -1 and 1 as shipped) on Elastic specimens of 3 EI / L^3 =
# 2.8, the tip's rotations free and massless; the twin an elasticBeamColumn of that EI, EA and
# GJ, whose free tip makes its lateral stiffness 12 EI / L^3 - (6 EI / L^2)^2 / (4 EI / L) =
# 3 EI / L^3 as well, and whose axial stiffness is the experimental element's elastic axial
# force (kb00 db0: the test measures none). Both shaken in X, Y and Z (Newmark, Newton); the tip's
# displacements and the element's global forces agree to 1e-9 of each column's peak; the
# element's ctrlDisp / daqDisp / basicForce rows have EEBeamColumn3d's 6 values, localForce 12;
# geomTransf PDelta is refused at the element's line.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
work_dir

head='model BasicBuilder -ndm 3 -ndf 6
node 1 0.0 0.0 0.0
node 2 0.0 0.0 54.0 -mass 0.08 0.08 0.08 0.0 0.0 0.0
fix 1 1 1 1 1 1 1
geomTransf Linear 1 0 -1 0'
tail='set vals {}
for {set k 0} {$k < 200} {incr k} { lappend vals [expr {sin(0.0314159 * $k * 7.0)}] }
timeSeries Path 1 -dt 0.02 -values $vals -factor 100.0
timeSeries Path 2 -dt 0.02 -values $vals -factor -60.0
timeSeries Path 3 -dt 0.02 -values $vals -factor 30.0
pattern UniformExcitation 1 1 -accel 1
pattern UniformExcitation 2 2 -accel 2
pattern UniformExcitation 3 3 -accel 3
recorder Node -file Node_Dsp.out -precision 16 -time -node 2 -dof 1 2 3 disp
recorder Element -file Elmt_Frc.out -precision 16 -time -ele 1 forces
system BandGeneral
numberer Plain
constraints Plain
test NormDispIncr 1.0e-13 50
integrator Newmark 0.5 0.25
algorithm Newton
analysis Transient
analyze 150 0.02'
mkdir -p exp/src twin/src
cat > exp/src/m.tcl <<TCL
$head
uniaxialMaterial Elastic 1 2.8
uniaxialMaterial Elastic 2 2.8
expControl SimUniaxialMaterials 1 1 2
expSetup NoTransformation 1 -control 1 -dof 2 4 -sizeTrialOut 6 6 -ctrlDispFact -1.0 1.0 -daqDispFact -1.0 1.0 -daqForceFact -1.0 1.0
expSite LocalSite 1 1
expElement beamColumn 1 1 2 1 -site 1 -initStif 1213 0 0 0 0 0  0 11.2 -302.4 0 0 0  0 -302.4 10886.4 0 0 0  0 0 0 11.2 302.4 0  0 0 0 302.4 10886.4 0  0 0 0 0 0 1E8
recorder Element -file Elmt_ctrlDsp.out -precision 16 -time -ele 1 ctrlDisp
recorder Element -file Elmt_daqDsp.out -precision 16 -time -ele 1 daqDisp
recorder Element -file Elmt_basicFrc.out -precision 16 -time -ele 1 basicForce
recorder Element -file Elmt_localFrc.out -precision 16 -time -ele 1 localForce
$tail
TCL
cat > twin/src/m.tcl <<TCL
$head
element elasticBeamColumn 1 1 2 [expr {1213.0 * 54.0 / 29000.0}] 29000.0 [expr {1.0e8 * 54.0}] 1.0 [expr {146966.4 / 29000.0}] [expr {146966.4 / 29000.0}] 1
$tail
TCL
for m in exp twin; do
    hysim_run "$dir/$m" m.tcl || fail "$m: $(tail -3 "$dir/$m/err.log")"
done
for f in Node_Dsp.out Elmt_Frc.out; do
    w=$(worst "exp/run/$f" "twin/run/$f" | tail -1)
    echo "$f: experimental vs twin: worst $w of a column's peak"
    awk -v a="$w" 'BEGIN { exit !(a != "rows" && a <= 1e-9) }' || fail "$f: $w of the peak"
done
peak=$(awk 'function a(x) { return x < 0 ? -x : x } { for (j = 2; j <= 3; j++) if (a($j) > p) p = a($j) } END { print p }' exp/run/Node_Dsp.out)
awk -v p="$peak" 'BEGIN { exit !(p > 1.0) }' || fail "the tip barely moved (peak $peak)"
for f in ctrlDsp:7 daqDsp:7 basicFrc:7 localFrc:13; do
    n=$(awk '{ print NF; exit }' "exp/run/Elmt_${f%:*}.out")
    [ "$n" = "${f#*:}" ] || fail "Elmt_${f%:*}.out: $n columns, EEBeamColumn3d's ${f#*:} (time + values)"
done
# basicForce: [kb00 db0, 2.8 db1, 0, 2.8 db3, 0, kb55 db5] from ctrlDisp's db
w=$(paste exp/run/Elmt_ctrlDsp.out exp/run/Elmt_basicFrc.out | awk '
    function a(x) { return x < 0 ? -x : x }
    { q[1] = 1213 * $2; q[2] = 2.8 * $3; q[3] = 0; q[4] = 2.8 * $5; q[5] = 0; q[6] = 1e8 * $7
      for (j = 1; j <= 6; j++) { d = a($(8 + j) - q[j]); if (d > m) m = d; if (a(q[j]) > p) p = a(q[j]) } }
    END { print m / p }')
awk -v a="$w" 'BEGIN { exit !(a <= 1e-9) }' || fail "basicForce vs kb db: $w of the peak"
echo "basicForce = [kb00 db0, 2.8 db1, 0, 2.8 db3, 0, kb55 db5]: worst $w of the peak"
# PDelta and Corotational are refused at their line, with the reason
mkdir -p pd/src
sed 's/^geomTransf Linear/geomTransf PDelta/' exp/src/m.tcl > pd/src/m.tcl
hysim_run "$dir/pd" m.tcl && fail "a 3-D experimental beamColumn under PDelta ran"
line=$(grep -n '^expElement' pd/src/m.tcl | cut -d: -f1)
grep -q "src/m.tcl:$line: expElement: geomTransf 1: hysim's 3-D experimental beamColumn takes a Linear transformation" pd/err.log ||
    fail "PDelta: not refused at line $line: $(tail -2 pd/err.log)"
echo "$me: PASS (tip peak $peak in)"
