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
# element's ctrlDisp / daqDisp / basicForce rows have EEBeamColumn3d's 6 values, localForce 12.
# Then both with geomTransf PDelta (EEBeamColumn3d's B through PDeltaCrdTransf3d: N / L on the
# transverse offsets, N the elastic axial force; the twin's the same) and Corotational (B from
# CorotCrdTransf3d's A by EEBeamColumn3d's linear map): the twin is exact under PDelta, and under
# Corotational in plane motion (X and Z: the free tip rotation turns about local z only, where
# both frames agree; out of plane the experimental element's tip rotations carry no moment and
# the corotated frame's twist, from the two nodes' y axes, differs); with OPENFRESCO_OPENSEES both
# also against OpenFresco 2.8 running the same script.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
work_dir

TRANSF=Linear
YMOTION=-60.0
TOL=1.0e-13
model_head() {
    printf '%s\n' 'model BasicBuilder -ndm 3 -ndf 6' 'node 1 0.0 0.0 0.0' \
        'node 2 0.0 0.0 54.0 -mass 0.08 0.08 0.08 0.0 0.0 0.0' 'fix 1 1 1 1 1 1 1' \
        "geomTransf $TRANSF 1 0 -1 0"
}
model_tail() {
    cat <<TCL
set vals {}
for {set k 0} {\$k < 200} {incr k} { lappend vals [expr {sin(0.0314159 * \$k * 7.0)}] }
timeSeries Path 1 -dt 0.02 -values \$vals -factor 100.0
timeSeries Path 2 -dt 0.02 -values \$vals -factor $YMOTION
timeSeries Path 3 -dt 0.02 -values \$vals -factor 30.0
pattern UniformExcitation 1 1 -accel 1
pattern UniformExcitation 2 2 -accel 2
pattern UniformExcitation 3 3 -accel 3
recorder Node -file Node_Dsp.out -precision 16 -time -node 2 -dof 1 2 3 disp
recorder Element -file Elmt_Frc.out -precision 16 -time -ele 1 forces
system BandGeneral
numberer Plain
constraints Plain
test NormDispIncr $TOL 50
integrator Newmark 0.5 0.25
algorithm Newton
analysis Transient
analyze 150 0.02
TCL
}
# models: exp/src/m.tcl and twin/src/m.tcl in the current folder
models() {
mkdir -p exp/src twin/src
cat > exp/src/m.tcl <<TCL
$(model_head)
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
$(model_tail)
TCL
cat > twin/src/m.tcl <<TCL
$(model_head)
element elasticBeamColumn 1 1 2 [expr {1213.0 * 54.0 / 29000.0}] 29000.0 [expr {1.0e8 * 54.0}] 1.0 [expr {146966.4 / 29000.0}] [expr {146966.4 / 29000.0}] 1
$(model_tail)
TCL
}
# against_twin FOLDER: hysim runs FOLDER/exp and FOLDER/twin (made by models there); the tip and
# the element's forces agree to 1e-9 of each column's peak
against_twin() {
    local m f w
    for m in exp twin; do
        hysim_run "$1/$m" m.tcl || fail "$TRANSF $m: $(tail -3 "$1/$m/err.log")"
    done
    for f in Node_Dsp.out Elmt_Frc.out; do
        w=$(worst "$1/exp/run/$f" "$1/twin/run/$f" | tail -1)
        echo "$TRANSF: $f: experimental vs twin: worst $w of a column's peak"
        awk -v a="$w" 'BEGIN { exit !(a != "rows" && a <= 1e-9) }' || fail "$TRANSF: $f: $w of the peak"
    done
}
models
against_twin "$dir"
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
# PDelta (3-D shaking) and Corotational (in the X-Z plane) against the twin
for c in PDelta:-60.0 Corotational:0.0; do
    TRANSF=${c%:*} YMOTION=${c#*:} TOL=1.0e-13
    [ "$TRANSF" = Corotational ] && TOL=1.0e-12 # OpenFresco's Newton stalls at 1.2e-13 there
    mkdir -p "$dir/$TRANSF" && cd "$dir/$TRANSF" && models
    against_twin "$dir/$TRANSF"
    [ "$TRANSF" = PDelta ] || continue
    w=$(worst "exp/run/Node_Dsp.out" "$dir/exp/run/Node_Dsp.out" | tail -1)
    echo "$TRANSF: Node_Dsp.out: $w of the peak from the Linear run (its geometry's effect)"
    awk -v a="$w" 'BEGIN { exit !(a != "rows" && a > 1e-6) }' || fail "$TRANSF: the transformation changes nothing ($w)"
done
if [ -z "${OPENFRESCO_OPENSEES:-}" ] || [ ! -x "${OPENFRESCO_OPENSEES:-}" ]; then
    echo "$me: SKIP (OpenFresco itself): set OPENFRESCO_OPENSEES to an OpenSees that can loadPackage OpenFresco (docs/openfresco.md)"
    echo "$me: PASS (tip peak $peak in)"
    exit 0
fi
# the same scripts in OpenFresco 2.8 (Linear, PDelta, Corotational in plane, and Corotational
# shaken in 3-D too): every file both wrote, the element's force at its base (node 2's moments
# are 0 in theory and round-off in both). Under Corotational OpenFresco's Newton stalls after a
# few steps (CTestNormDispIncr fails to converge: its tangent, -initStif with CorotCrdTransf3d's
# geometric stiffness, lets the free tip rotations wander) and its analyze stops within a few
# steps: where it stopped and the rows it wrote until then are reported, not asserted
lib=$(dirname "$OPENFRESCO_OPENSEES")
mkdir -p "$dir/Corot3d" && cd "$dir/Corot3d" && TRANSF=Corotational YMOTION=-60.0 TOL=1.0e-12 models
hysim_run "$dir/Corot3d/exp" m.tcl || fail "Corotational 3-D: $(tail -3 "$dir/Corot3d/exp/err.log")"
for c in "$dir" "$dir/PDelta" "$dir/Corotational" "$dir/Corot3d"; do
    label=${c#"$dir"/}
    [ "$c" = "$dir" ] && label=Linear
    mkdir -p "$c/of"
    sed '1a loadPackage OpenFresco' "$c/exp/src/m.tcl" > "$c/of/m.tcl"
    (cd "$c/of" && LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} timeout 600 \
        "$OPENFRESCO_OPENSEES" m.tcl > of.log 2>&1 < /dev/null) 2> /dev/null
    grep -q "OpenFresco -- Open Framework" "$c/of/of.log" || fail "OpenFresco not loaded: $(tail -3 "$c/of/of.log")"
    rows=$(wc -l < "$c/of/Node_Dsp.out")
    if grep -q "analyze failed" "$c/of/of.log"; then
        [ "$c" != "$dir" ] && [ "$c" != "$dir/PDelta" ] && [ "$rows" -ge 2 ] ||
            fail "$label: OpenFresco stopped after $rows steps: $(grep -m1 -A1 'failed to converge' "$c/of/of.log" | paste -sd' ')"
        echo "$label: OpenFresco 2.8 stops after $rows of 150 steps: $(grep -m1 -A1 'failed to converge' "$c/of/of.log" | paste -sd' ' | tr -s ' ')"
    fi
    for r in "$c/exp/run" "$c/of"; do
        for f in Node_Dsp Elmt_ctrlDsp Elmt_basicFrc; do head -n "$rows" "$r/$f.out" > "$r/$f.cut"; done
        cut -d' ' -f1-7 "$r/Elmt_Frc.out" | head -n "$rows" > "$r/Elmt_Base.cut"
    done
    for f in Node_Dsp Elmt_Base Elmt_ctrlDsp Elmt_basicFrc; do
        w=$(worst "$c/exp/run/$f.cut" "$c/of/$f.cut" | tail -1)
        echo "$label: $f.out ($rows steps): hysim vs OpenFresco 2.8: $w of the peak"
        case $c in */Corot*) continue ;; esac # reported: OpenFresco stops there
        awk -v a="$w" 'BEGIN { exit !(a != "rows" && a <= 1e-8) }' || fail "$label: $f: $w of the peak"
    done
done
echo "$me: PASS (tip peak $peak in)"
