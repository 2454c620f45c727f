#!/usr/bin/env bash
# OpenSees' integrator NewmarkHSFixedNumIter (NewmarkHSFixedNumIter.cpp of OpenSees 3.8, the
# hybrid-simulation Newmark that OpenFresco's PortalFrame_Local.tcl runs with test FixedNumIter
# 5 and Newton) in the script's own analysis against OpenSees itself, on a script written here:
# a portal frame whose two columns are Steel02 twoNodeLinks (shear at the top) under an elastic
# beam, Rayleigh alphaM, 800 steps of a sine ground motion that yields them. Iteration k of N
# moves the trial displacement to the polynomial (order 1, 2 or 3) through the full Newton
# increment at x = 1, the step's start at 0 and the previous steps' starts at -1, -2, evaluated at
# x = k / N; the commit adds one more increment from the last unbalance to the nodes only. Checks,
# for -polyOrder 1, 2 (the default) and 3: every column of the node and element recorders to
# 1e-8 of its peak; the columns yielded; the three orders end their steps within 1e-6 of each
# other (the last iteration, x = 1, takes the full increment whatever the order: the polynomial
# only steers the iterations in between; they differ by 1e-11 to 1e-9 of the peak, far more than
# hysim differs from OpenSees for each: the comparison tells the orders apart).
# Needs OPENSEES (skipped otherwise). Usage: opensees_newmark_hs.sh hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
need_opensees
work_dir

frame() { # frame POLY: the script with -polyOrder POLY ("" for the default)
    cat <<TCL
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 100.0 0.0
node 3 0.0 50.0 -mass 0.0138 0.0138 0.0
node 4 100.0 50.0 -mass 0.0138 0.0138 0.0
fix 1 1 1 1
fix 2 1 1 1
uniaxialMaterial Steel02 1 1.5 2.8 0.01 18.5 0.925 0.15 0.0 1.0 0.0 1.0
uniaxialMaterial Elastic 2 1000.0
uniaxialMaterial Elastic 3 9000.0
element twoNodeLink 1 1 3 -mat 2 1 3 -dir 1 2 3 -shearDist 1.0
element twoNodeLink 2 2 4 -mat 2 1 3 -dir 1 2 3 -shearDist 1.0
geomTransf Linear 1
element elasticBeamColumn 3 3 4 3.55 29000 22.1 1
timeSeries Sine 1 0.0 8.0 0.5 -factor 200.0
pattern UniformExcitation 2 1 -accel 1
rayleigh 1.2797 0.0 0.0 0.0
recorder Node -file disp.out -precision 16 -time -node 3 4 -dof 1 2 3 disp
recorder Node -file vel.out -precision 16 -time -node 3 4 -dof 1 2 3 vel
recorder Element -file force.out -precision 16 -time -ele 1 2 3 force
system BandGeneral
numberer Plain
constraints Plain
test FixedNumIter 5
integrator NewmarkHSFixedNumIter 0.5 0.25 ${1:+-polyOrder $1}
algorithm Newton
analysis Transient
analyze 800 0.01
TCL
}

for p in 1 "" 3; do
    c=case${p:-2}
    mkdir -p "$c/hs/src" "$c/os"
    frame "$p" > "$c/hs/src/frame.tcl"
    cp "$c/hs/src/frame.tcl" "$c/os/"
    os_testfile hs src/frame.tcl > "$c/hs/f.yaml"
    (cd "$c/hs" && "$hysim" run f.yaml -o run > run.log 2>&1) || fail "hysim $c: $(grep -v warning: "$c/hs/run.log" | head -3)"
    (cd "$c/os" && run_opensees frame.tcl os.log) || fail "OpenSees $c: $(tail -3 "$c/os/os.log")"
    for f in disp vel force; do
        [ "$(wc -l < "$c/hs/run/$f.out")" -eq 800 ] || fail "$c $f.out: $(wc -l < "$c/hs/run/$f.out") rows"
        w=$(worst "$c/hs/run/$f.out" "$c/os/$f.out" | tail -1)
        echo "$me: polyOrder ${p:-2 (default)}: $f.out $w of each column's peak from OpenSees"
        [ "$w" != rows ] && awk -v a="$w" 'BEGIN { exit !(a <= 1e-8) }' || fail "$c $f.out differs from OpenSees by $w"
    done
done
# the columns yielded (shear beyond Fy / E = 0.54); the orders end their steps alike
awk '{ x = $2 < 0 ? -$2 : $2; if (x > m) m = x } END { printf "%.4g\n", m; exit !(m > 2 * 1.5 / 2.8) }' case2/os/disp.out > peak.txt ||
    fail "the columns stayed near elastic (peak drift $(cat peak.txt))"
for a in 1 3; do
    w=$(worst "case$a/hs/run/disp.out" case2/hs/run/disp.out | tail -1)
    echo "$me: polyOrder $a against 2: $w of the peak"
    awk -v a="$w" 'BEGIN { exit !(a <= 1e-6) }' || fail "polyOrder $a ends its steps $w of the peak from polyOrder 2"
done
echo "$me: peak drift $(cat peak.txt) (yield at $(awk 'BEGIN { printf "%.3g", 1.5 / 2.8 }'))"
echo "$me: OK"
