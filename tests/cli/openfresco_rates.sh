#!/bin/bash
# The rate responses of OpenFresco's experimental twoNodeLink and truss (docs/openfresco.md, the
# recorder row; EETwoNodeLink.cpp and EETruss.cpp getResponse, ECSimUniaxialMaterials.cpp):
# ctrlVel and ctrlAccel the basic trial velocities and accelerations of the element's last
# update, daqVel the specimen's getStrainRate() on the driven DOFs (Elastic: its trial rate;
# Steel02: 0), daqAccel 0 (SimUniaxialMaterials measures none). A script written here: a portal
# whose columns are experimental twoNodeLinks (-dir 2, shearDist 1; Elastic 2.8 with eta 0.05 and
# Steel02 specimens) with an experimental truss as a diagonal brace (Elastic 1.5), under an
# elastic beam, 400 steps of a sine ground motion that yields the Steel02 column; every response
# recorded for all three elements; OpenFresco's PortalFrame (expElement beamColumn columns on
# pinned bases, Corotational with Elastic 2.8 eta 0.05, Linear with Steel02; NewmarkHSFixedNumIter)
# for EEBeamColumn2d's rates over its basic system B (ctrlAccel through CorotCrdTransf2d's and
# LinearCrdTransf2d's basic accelerations and B's map); and the frame whose right column is an expElement generic over
# node 4's ux (EEGeneric.cpp: absolute DOFs; Elastic 2.8 with eta 0.02). Checked, in hysim's files by closed forms: the left column's
# shear is node 3's -ux (its local y is global -x), so its ctrlVel and ctrlAccel are node 3's -vx
# and -ax (Newmark converged: the last update is the commit) to 1e-12 of their peaks; daqVel is
# ctrlVel on the Elastic specimens and 0 on the Steel02; daqAccel is 0. With OPENFRESCO_OPENSEES
# (docs/openfresco.md) the same script in OpenFresco 2.8: every file to 1e-8 of each column's
# peak, with Newmark (NormDispIncr 1e-12) and with NewmarkHSFixedNumIter (FixedNumIter 5: the last
# update's accelerations are not the committed ones; without the brace: OpenFresco 2.8's EETruss
# has a zero -initStif, set before its direction cosines, which the fixed iterations show,
# docs/openfresco.md). The generic frame under NewmarkHSFixedNumIter too, its generic element
# given -initStif 0.0 in both programs: OpenFresco 2.8's EEGeneric::setDomain zeroes the
# -initStif that the expElement command set, so its tangent is 0 whatever the script says
# (checked: OpenFresco's files with 2.8 and with 0.0 are the same bytes; docs/openfresco.md);
# and the braced frame under NewmarkHSFixedNumIter, its brace given -initStif 0.0 in both
# (EETruss's -initStif is 0 as well: the same bytes with 1.5).
# There the commit moves the nodes after the last update: the generic element's ctrlDisp,
# ctrlVel and daqDisp are those of its last update (dbCtrl, vbCtrl), not the recorded nodes',
# checked in hysim's own files by Newmark's relations from the last committed step.
# Usage: openfresco_rates.sh hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
work_dir

RESPONSES="ctrlDisp ctrlVel ctrlAccel daqDisp daqVel daqAccel daqForce"
portal() { # portal ROT: the portal's nodes, its bases' rotations fixed (1) or free (0)
    cat <<TCL
model BasicBuilder -ndm 2 -ndf 3
loadPackage OpenFresco
node 1 0.0 0.0
node 2 100.0 0.0
node 3 0.0 50.0 -mass 0.0138 0.0138 0.0
node 4 100.0 50.0 -mass 0.0138 0.0138 0.0
fix 1 1 1 $1
fix 2 1 1 $1
TCL
}
# motion FACTOR ELEMENTS INTEGRATOR TEST: the ground motion, the recorders of ELEMENTS, the analysis
motion() {
    cat <<TCL
timeSeries Sine 1 0.0 8.0 0.5 -factor $1
pattern UniformExcitation 2 1 -accel 1
rayleigh 1.2797 0.0 0.0 0.0
foreach r {$RESPONSES} {
    recorder Element -file \$r.out -precision 16 -time -ele $2 \$r
}
recorder Node -file disp.out -precision 16 -time -node 3 4 -dof 1 2 3 disp
recorder Node -file vel.out -precision 16 -time -node 3 4 -dof 1 vel
recorder Node -file accel.out -precision 16 -time -node 3 4 -dof 1 accel
system BandGeneral
numberer Plain
constraints Plain
test $4
integrator $3
algorithm Newton
analysis Transient
analyze 400 0.01
wipeExp
wipe
TCL
}

# frame INTEGRATOR TEST BRACE(0/1) GENERIC(0/1: the right column an expElement generic) [GK: its
# -initStif, 2.8 unless given] [TK: the brace's -initStif, 1.5 unless given]
frame() {
    portal 1
    cat <<TCL
uniaxialMaterial Elastic 1 2.8 0.05
$([ "$4" = 1 ] && echo "uniaxialMaterial Elastic 2 2.8 0.02" ||
    echo "uniaxialMaterial Steel02 2 1.5 2.8 0.01 18.5 0.925 0.15 0.0 1.0 0.0 1.0")
uniaxialMaterial Elastic 3 1.5
expControl SimUniaxialMaterials 1 1
expControl SimUniaxialMaterials 2 2
expControl SimUniaxialMaterials 3 3
expSetup OneActuator 1 -control 1 1 -sizeTrialOut 1 1
expSetup OneActuator 2 -control 2 1 -sizeTrialOut 1 1
expSetup OneActuator 3 -control 3 1 -sizeTrialOut 1 1
expSite LocalSite 1 1
expSite LocalSite 2 2
expSite LocalSite 3 3
expElement twoNodeLink 1 1 3 -dir 2 -site 1 -initStif 2.8 -shearDist 1.0
$([ "$4" = 1 ] && echo "expElement generic 2 -node 4 -dof 1 -site 2 -initStif ${5:-2.8}" ||
    echo "expElement twoNodeLink 2 2 4 -dir 2 -site 2 -initStif 2.8 -shearDist 1.0")
$([ "$3" = 1 ] && echo "expElement truss 3 1 4 -site 3 -initStif ${6:-1.5}")
geomTransf Linear 1
element elasticBeamColumn 4 3 4 3.55 29000 22.1 1
TCL
    motion 200.0 "1 2 $([ "$3" = 1 ] && echo 3)" "$1" "$2"
}

beams() { # OpenFresco's PortalFrame on pinned bases: expElement beamColumn columns hung from
    # their top nodes, Corotational (Elastic 2.8 with eta 0.05) and Linear (Steel02)
    portal 0
    cat <<TCL
uniaxialMaterial Elastic 1 2.8 0.05
uniaxialMaterial Steel02 2 1.5 2.8 0.01 18.5 0.925 0.15 0.0 1.0 0.0 1.0
expControl SimUniaxialMaterials 1 1
expControl SimUniaxialMaterials 2 2
expSetup OneActuator 1 -control 1 2 -sizeTrialOut 3 3
expSetup OneActuator 2 -control 2 2 -sizeTrialOut 3 3
expSite LocalSite 1 1
expSite LocalSite 2 2
geomTransf Corotational 1
geomTransf Linear 2
expElement beamColumn 1 3 1 1 -site 1 -initStif 1310.8 0 0 0 11.2 -280.0 0 -280.0 9333.3333
expElement beamColumn 2 4 2 2 -site 2 -initStif 1310.8 0 0 0 11.2 -280.0 0 -280.0 9333.3333
element elasticBeamColumn 3 3 4 3.55 29000 22.1 1
TCL
    motion 300.0 "1 2" "NewmarkHSFixedNumIter 0.5 0.25" "FixedNumIter 5"
}

# col FILE K: column K (1 = time) of FILE, one a line
col() { awk -v k="$2" '{ print $k }' "$1"; }
# close A B TOL: two one-column files equal within TOL of the first's peak (stdout: the ratio)
close() {
    paste "$1" "$2" | awk -v t="$3" '{ d = $1 - $2; d = d < 0 ? -d : d; x = $1 < 0 ? -$1 : $1
        if (d > m) m = d; if (x > p) p = x } END { r = p > 0 ? m / p : m; printf "%.2g\n", r; exit !(r <= t) }'
}

run_case() { # run_case NAME INTEGRATOR TEST BRACE GENERIC [GK [TK]]
    mkdir -p "$1/hs/src" "$1/of"
    if [ "$2" = beams ]; then beams; else frame "$2" "$3" "$4" "$5" "${6:-}" "${7:-}"; fi > "$1/hs/src/frame.tcl"
    cp "$1/hs/src/frame.tcl" "$1/of/"
    os_testfile hs src/frame.tcl > "$1/hs/f.yaml"
    (cd "$1/hs" && "$hysim" run f.yaml -o run > run.log 2>&1) || fail "hysim $1: $(grep -v warning: "$1/hs/run.log" | head -3)"
    local r f
    for r in $RESPONSES; do
        [ "$(wc -l < "$1/hs/run/$r.out")" -eq 400 ] || fail "$1 $r.out: $(wc -l < "$1/hs/run/$r.out") rows"
    done
    if [ -n "${OPENFRESCO_OPENSEES:-}" ]; then
        (cd "$1/of" && LD_LIBRARY_PATH=$(dirname "$OPENFRESCO_OPENSEES")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
            timeout 300 "$OPENFRESCO_OPENSEES" frame.tcl > of.log 2>&1 < /dev/null) ||
            fail "OpenFresco $1: $(tail -3 "$1/of/of.log")"
        for f in $RESPONSES disp; do
            w=$(worst "$1/hs/run/$f.out" "$1/of/$f.out" | tail -1)
            echo "$me: $1: $f.out $w of each column's peak from OpenFresco 2.8"
            [ "$w" != rows ] && awk -v a="$w" 'BEGIN { exit !(a <= 1e-8) }' || fail "$1 $f.out differs from OpenFresco by $w"
        done
    fi
}

[ -n "${OPENFRESCO_OPENSEES:-}" ] ||
    echo "$me: SKIP (the comparison with OpenFresco itself): set OPENFRESCO_OPENSEES to an OpenSees that can loadPackage OpenFresco (docs/openfresco.md)"
run_case newmark "Newmark 0.5 0.25" "NormDispIncr 1e-12 25" 1 0
run_case hs "NewmarkHSFixedNumIter 0.5 0.25" "FixedNumIter 5" 0 0
run_case generic "Newmark 0.5 0.25" "NormDispIncr 1e-12 25" 1 1
run_case beams beams
run_case hsgeneric "NewmarkHSFixedNumIter 0.5 0.25" "FixedNumIter 5" 0 1 0.0
run_case hsbrace "NewmarkHSFixedNumIter 0.5 0.25" "FixedNumIter 5" 1 0 2.8 0.0
# ignored NAME WHAT FRAME-ARGS..: OpenFresco 2.8 on the frame with the script's own -initStif
# writes the same bytes as case NAME (its element's -initStif 0.0): its tangent is 0 either way
ignored() {
    local f name=$1 what=$2
    shift 2
    mkdir -p "$name/asked"
    frame "$@" > "$name/asked/frame.tcl"
    (cd "$name/asked" && LD_LIBRARY_PATH=$(dirname "$OPENFRESCO_OPENSEES")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
        timeout 300 "$OPENFRESCO_OPENSEES" frame.tcl > of.log 2>&1 < /dev/null) ||
        fail "OpenFresco $name with the $what's own -initStif: $(tail -3 "$name/asked/of.log")"
    for f in $RESPONSES disp; do
        cmp -s "$name/of/$f.out" "$name/asked/$f.out" ||
            fail "OpenFresco's $name frame differs in $f.out with the $what's -initStif: its tangent is not 0 (docs/openfresco.md)"
    done
    echo "$me: $name: OpenFresco 2.8 writes the same files with the $what's -initStif as with 0.0"
}
if [ -n "${OPENFRESCO_OPENSEES:-}" ]; then
    ignored hsgeneric "generic element" "NewmarkHSFixedNumIter 0.5 0.25" "FixedNumIter 5" 0 1 2.8
    ignored hsbrace "truss brace" "NewmarkHSFixedNumIter 0.5 0.25" "FixedNumIter 5" 1 0 2.8 1.5
fi

# closed forms in hysim's own files (Newmark: the last update is the commit)
h=newmark/hs/run
col "$h/vel.out" 2 | awk '{ printf "%.17g\n", -$1 }' > vx.txt
col "$h/accel.out" 2 | awk '{ printf "%.17g\n", -$1 }' > ax.txt
w=$(close vx.txt <(col "$h/ctrlVel.out" 2) 1e-12) || fail "ctrlVel of the left column is not node 3's -vx: $w"
echo "$me: ctrlVel of the left column = node 3's -vx to $w of the peak"
w=$(close ax.txt <(col "$h/ctrlAccel.out" 2) 1e-12) || fail "ctrlAccel of the left column is not node 3's -ax: $w"
echo "$me: ctrlAccel of the left column = node 3's -ax to $w of the peak"
for k in 2 4; do # the Elastic specimens (the left column, the brace): daqVel = ctrlVel
    w=$(close <(col "$h/ctrlVel.out" $k) <(col "$h/daqVel.out" $k) 1e-15) || fail "daqVel column $k is not ctrlVel: $w"
done
awk '{ if ($3 != 0) exit 1 }' "$h/daqVel.out" || fail "the Steel02 column's daqVel is not 0"
awk '{ for (k = 2; k <= NF; k++) if ($k != 0) exit 1 }' "$h/daqAccel.out" || fail "daqAccel is not 0"
awk '{ x = $3 < 0 ? -$3 : $3; if (x > m) m = x } END { exit !(m > 1.0) }' "$h/ctrlVel.out" ||
    fail "the Steel02 column hardly moves"
echo "$me: daqVel = ctrlVel on the Elastic specimens, 0 on the Steel02 one; daqAccel 0"
# the generic element over node 4's ux: its absolute velocity and acceleration, daqVel = ctrlVel
h=generic/hs/run
w=$(close <(col "$h/vel.out" 3) <(col "$h/ctrlVel.out" 3) 1e-12) || fail "the generic element's ctrlVel is not node 4's vx: $w"
w=$(close <(col "$h/accel.out" 3) <(col "$h/ctrlAccel.out" 3) 1e-12) || fail "the generic element's ctrlAccel is not node 4's ax: $w"
w=$(close <(col "$h/ctrlVel.out" 3) <(col "$h/daqVel.out" 3) 1e-15) || fail "the generic element's daqVel is not its ctrlVel: $w"
awk '{ for (k = 2; k <= NF; k++) if ($k != 0) exit 1 }' "$h/daqAccel.out" || fail "the generic element's daqAccel is not 0"
echo "$me: the generic element over node 4's ux: ctrlVel, ctrlAccel its vx, ax; daqVel = ctrlVel; daqAccel 0"
# under NewmarkHSFixedNumIter: the last update of step n + 1 is Newmark's (gamma 1/2, beta 1/4)
# from the committed step n (the recorded nodes, rest before the first), db its ctrlDisp:
# vb = -v_n + 2 / dt (db - u_n), ab = -a_n - 4 / dt v_n + 4 / dt^2 (db - u_n), to 1e-9 of their
# peaks; and db is not the moved node's u_{n+1} (the commit's last solve moves it)
h=hsgeneric/hs/run
paste <(col "$h/disp.out" 5) <(col "$h/vel.out" 3) <(col "$h/accel.out" 3) <(col "$h/ctrlDisp.out" 3) |
    awk '{ printf "%.17g %.17g\n", -v + 200.0 * ($4 - u), -a - 400.0 * v + 40000.0 * ($4 - u); u = $1; v = $2; a = $3 }' > newmark.txt
w=$(close <(col newmark.txt 1) <(col "$h/ctrlVel.out" 3) 1e-9) || fail "NewmarkHSFixedNumIter: the generic element's ctrlVel is not its last update's: $w"
echo "$me: hsgeneric: ctrlVel = Newmark's velocity of ctrlDisp from the last commit to $w of the peak"
w=$(close <(col newmark.txt 2) <(col "$h/ctrlAccel.out" 3) 1e-9) || fail "NewmarkHSFixedNumIter: the generic element's ctrlAccel is not Newmark's of its ctrlDisp: $w"
echo "$me: hsgeneric: ctrlAccel = Newmark's acceleration of ctrlDisp from the last commit to $w of the peak"
w=$(close <(col "$h/ctrlDisp.out" 3) <(col "$h/daqDisp.out" 3) 1e-15) || fail "the generic element's daqDisp is not its ctrlDisp: $w"
w=$(close <(col "$h/disp.out" 5) <(col "$h/ctrlDisp.out" 3) 1) || true
awk -v w="$w" 'BEGIN { exit !(w > 1e-4) }' || fail "the generic element's ctrlDisp is the moved node's ($w of the peak): not a test of the last update"
echo "$me: hsgeneric: daqDisp = ctrlDisp; ctrlDisp differs from the moved node 4's ux by $w of the peak"
echo "$me: OK"
