#!/bin/bash
# modalDamping in a script's own analysis (docs/opensees_tcl.md; src/opensees/opensees_tcl_modal.c)
# against theory, on a two-mass chain written here (masses 1, springs k = 100: omega^2 =
# k (3 -+ sqrt 5) / 2, mode shapes (1, r) with r = (1 +- sqrt 5) / 2). The chain is pushed
# statically into one mode's shape (loads K phi = omega^2 M phi, LoadControl), the loads are
# removed and a Newmark (1/2, 1/4) transient lets it go: a mode damped with zeta decays freely as
# x(t) = e^(-zeta omega t) (cos omega_d t + (zeta omega + v0) / omega_d sin omega_d t), omega_d =
# omega sqrt(1 - zeta^2), the other mass following at r x(t). v0 = dt omega^2 / 2: Newmark starts
# from the static state's committed acceleration 0, not -omega^2, so its first velocity is that
# much higher (OpenSees' too). Checked to 1.5e-4 of the initial displacement over 2 s (dt 0.5 ms:
# Newmark's period error, omega t (omega dt)^2 / 12, is below 2e-4):
#  - `modalDamping 0.02 0.05`: mode 1 decays at 0.02, mode 2 at 0.05 (a factor per mode);
#  - `modalDamping 0.03` after an `eigen` given before the first analyze: mode 2 at 0.03 (one
#    factor for every mode; the modes of that eigen);
#  - `modalDampingQ 0.04`: mode 1 at 0.04 (the force without the tangent's term: Newton
#    iterates to the test's 1e-12);
#  - `modalDamping` before any `eigen`: refused at its line (OpenSees 3.8 refuses it too);
#  - with OPENSEES set, OpenSees 3.8 on the same scripts: 1e-9 of the peak; and with `integrator
#    HHT 0.8` (the force from the velocity at t + dt, HHT's getVel; no tangent term).
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

k=100.0
dt=0.0005
steps=4000
# chain MODE EIGEN_FIRST FACTORS [CMD]: the script pushing the chain into MODE (1, 2), `eigen`
# before the static analysis (EIGEN_FIRST 1) or after it, then `CMD FACTORS` (modalDamping)
chain() {
    local w2 r
    w2=$(awk -v k=$k -v i="$1" 'BEGIN { print k * (3 + (i == 1 ? -1 : 1) * sqrt(5)) / 2 }')
    r=$(awk -v i="$1" 'BEGIN { print (1 + (i == 1 ? 1 : -1) * sqrt(5)) / 2 }')
    cat << TCL
wipe
model basic -ndm 1 -ndf 1
node 1 0.0
node 2 0.0 -mass 1.0
node 3 0.0 -mass 1.0
fix 1 1
uniaxialMaterial Elastic 1 $k
element zeroLength 1 1 2 -mat 1 -dir 1
element zeroLength 2 2 3 -mat 1 -dir 1
timeSeries Linear 1
pattern Plain 1 1 { load 2 $w2; load 3 [expr $w2 * $r] }
$([ "$2" = 1 ] && echo "set lambda [eigen -fullGenLapack 2]; ${4:-modalDamping} $3")
system FullGeneral
test NormDispIncr 1.0e-12 10
algorithm Newton
integrator LoadControl 1.0
analysis Static
analyze 1
loadConst -time 0.0
remove loadPattern 1
integrator Newmark 0.5 0.25
analysis Transient
$([ "$2" = 1 ] || echo "set lambda [eigen -fullGenLapack 2]; ${4:-modalDamping} $3")
file mkdir out
recorder Node -file out/d.out -time -precision 16 -node 2 3 -dof 1 disp
analyze $steps $dt
TCL
}
# check NAME MODE ZETA: the run's displacements against the free decay of MODE at ZETA
check() {
    local worst
    worst=$(awk -v k=$k -v i="$2" -v z="$3" '
        BEGIN { w = sqrt(k * (3 + (i == 1 ? -1 : 1) * sqrt(5)) / 2); r = (1 + (i == 1 ? 1 : -1) * sqrt(5)) / 2
                wd = w * sqrt(1 - z * z); v0 = '$dt' * w * w / 2 }
        { t = $1; x = exp(-z * w * t) * (cos(wd * t) + (z * w + v0) / wd * sin(wd * t))
          d = $2 - x; if (d < 0) d = -d; if (d > m) m = d
          d = $3 - r * x; if (d < 0) d = -d; if (d > m) m = d; n++ }
        END { print n == '$steps' ? m : "rows " n }' "$1/out/d.out")
    awk -v d="$worst" 'BEGIN { exit !(d + 0 == d && d <= 1.5e-4) }' ||
        fail "$1: mode $2 at zeta $3: largest difference from the free decay $worst"
    echo "$me: $1: mode $2 decays at zeta $3: largest difference from theory $worst (of 1)"
}
chain 1 0 "0.02 0.05" > m1.tcl
chain 2 0 "0.02 0.05" > m2.tcl
chain 2 1 "0.03" > m3.tcl
chain 1 0 "0.04" modalDampingQ > m4.tcl
# HHT 0.8 (its own numerical damping: compared with OpenSees only)
chain 2 0 "0.02 0.05" | sed 's/^integrator Newmark 0.5 0.25$/integrator HHT 0.8/' > m5.tcl
grep -q '^integrator HHT 0.8$' m5.tcl || fail "m5.tcl has no HHT"
for c in m1 m2 m3 m4 m5; do
    os_testfile $c $c.tcl > $c.yaml
    "$hysim" run $c.yaml -o $c > $c.log 2>&1 || fail "$c: $(cat $c.log)"
done
check m1 1 0.02
check m2 2 0.05
check m3 2 0.03
check m4 1 0.04
# a wrong factor would show: mode 1 of m1 at 0.05 is far from the run
awk -v k=$k 'BEGIN { w = sqrt(k * (3 - sqrt(5)) / 2) } END { x = exp(-0.05 * w * $1); if ($2 - x < 0.05) exit 1 }' m1/out/d.out ||
    fail "m1: mode 1 decays as fast as zeta 0.05"

# modalDamping before eigen: refused at its line
sed "s/^set lambda \[eigen -fullGenLapack 2\]; //" m3.tcl > noeig.tcl
os_testfile noeig noeig.tcl > noeig.yaml
"$hysim" run noeig.yaml -o noeig > noeig.out 2>&1 && fail "modalDamping without eigen ran"
grep -q "noeig.tcl:12: modalDamping: no modes: give 'eigen N' first" noeig.out || fail "no eigen: $(cat noeig.out)"

rest_needs_opensees
for c in m1 m2 m3 m4 m5; do
    mkdir -p os/$c && cp $c.tcl os/$c/ && (cd os/$c && run_opensees $c.tcl os.log) || fail "OpenSees $c: $(tail -5 os/$c/os.log)"
    worst=$(paste -d' ' $c/out/d.out os/$c/out/d.out | awk '$1 == $4 { for (j = 2; j <= 3; j++) { d = $j - $(j + 3); if (d < 0) d = -d; if (d > m) m = d }; n++ }
        END { print n == NR && n == '$steps' ? m + 0 : "rows" }')
    awk -v d="$worst" 'BEGIN { exit !(d != "rows" && d <= 1e-9) }' || fail "$c differs from OpenSees by $worst"
    echo "$me: $c: OpenSees 3.8 on the same script: largest difference $worst (of 1)"
done
echo "$me: OK"
