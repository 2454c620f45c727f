#!/usr/bin/env bash
# A fiber frame as a lab's script has it: gravity by a static analysis, then eigen and rayleigh,
# then the dynamic analysis (the script's own analysis, docs/opensees_tcl.md):
#  - eigen after the gravity analysis takes the tangent at that state, as OpenSees' eigen does: a
#    cantilever of Concrete01 fibers under an axial load P has omega^2 = 3 Et I / (m L^3), Et the
#    concrete's tangent at the strain P gives (2 fpc / epsc0) sqrt(1 - s), s = P / (A fpc), and
#    I = b h^3 / 12 (1 - 1 / n^2) for n fiber layers;
#  - force- and displacement-based beam-columns take the Rayleigh stiffness factors (as
#    OpenSees' elements do): a portal of elastic-fiber forceBeamColumn members with betaKinit
#    damping has the history of its elasticBeamColumn twin;
#  - a rayleigh command after the gravity analysis damps the dynamic analysis that follows: on a
#    linear model (Linear transformations), the same history as the rayleigh command given
#    before the gravity analysis;
#  - a script that ends with `wipe` after its analysis (as OpenSees' examples do) runs;
#  - with OPENSEES set: bench/opensees/rc_frame_3x3.tcl (3 stories, 3 bays, forceBeamColumn,
#    Concrete02 and Steel02 fibers; gravity, eigen, rayleigh, HHT with Newton at 1/1024 s) run by
#    both programs, its roof's history equal to 1e-8 of its peak over 1024 steps;
#  - the lazy last unbalance (HHT with NormDispIncr: the unbalance after the converging update is
#    not formed, docs/fe_model.md "Fiber state determination"): that frame with a
#    reactionIncludingInertia recorder (which turns it off: every unbalance formed, as OpenSees)
#    has the same roof history to 1e-10 of its peak (6e-13 here), the force-based elements'
#    iterations starting elsewhere at the commit.
# Usage: opensees_rc_frame.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
src=${HS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
work_dir

script_yaml() { # NAME SCRIPT: a test file that names only the script (its own analysis)
    printf 'hysim: 1\nname: %s\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: %s}\n' "$1" "$2"
}

# 1. eigen after gravity: a 3 m cantilever, 0.3 x 0.4 m of Concrete01 in 10 layers, P = 0.5 A fpc
cat > cant.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 0 3.0
fix 1 1 1 1
mass 2 20.0 0.0 0.0
uniaxialMaterial Concrete01 1 -30000.0 -0.002 -6000.0 -0.01
section Fiber 1 { patch rect 1 10 1 -0.2 -0.15 0.2 0.15 }
geomTransf Linear 1
beamIntegration Lobatto 1 1 5
element forceBeamColumn 1 1 2 1 1
timeSeries Linear 1
pattern Plain 1 1 { load 2 0.0 -1800.0 0.0 }
system FullGeneral; numberer Plain; constraints Plain
test NormDispIncr 1.0e-12 20; algorithm Newton
integrator LoadControl 0.1; analysis Static
if {[analyze 10] != 0} { exit 1 }
loadConst -time 0.0
puts "omega2 [lindex [eigen 1] 0]"
TCL
script_yaml cant cant.tcl > cant.yaml
"$hysim" run cant.yaml -o cant > cant.log 2>&1 || fail "the cantilever's script: $(tail -3 cant.log)"
got=$(awk '$1 == "omega2" { print $2 }' cant.log)
want=$(awk 'BEGIN { fpc = 30000; e0 = 0.002; A = 0.12; s = 1800 / (A * fpc)
    Et = 2 * fpc / e0 * sqrt(1 - s); I = 0.3 * 0.4 ^ 3 / 12 * (1 - 1 / 100)
    printf "%.15g", 3 * Et * I / (20 * 27) }')
[ -n "$got" ] && near "$got" "$want" 1e-9 ||
    fail "eigen after gravity: omega^2 $got, the tangent's closed form $want"
echo "eigen after gravity: omega^2 $got (closed form $want)"

# 2. and 3. a portal: forceBeamColumn of elastic fibers against elasticBeamColumn, betaKinit
# damping; and the rayleigh command before or after a gravity analysis
portal() { # ELEMENTS RAYLEIGH-BEFORE RAYLEIGH-AFTER RECORDER
    cat <<TCL
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 6 0; node 3 0 3.5; node 4 6 3.5
fix 1 1 1 1; fix 2 1 1 1
mass 3 30.0 30.0 0.0; mass 4 30.0 30.0 0.0
geomTransf Linear 1
uniaxialMaterial Elastic 1 3.0e7
section Fiber 1 { patch rect 1 10 1 -0.25 -0.15 0.25 0.15 }
$1
$2
timeSeries Linear 1
pattern Plain 1 1 { load 3 0.0 -300.0 0.0; load 4 0.0 -300.0 0.0 }
system FullGeneral; numberer Plain; constraints Plain
test NormDispIncr 1.0e-12 20; algorithm Newton
integrator LoadControl 0.1; analysis Static
if {[analyze 10] != 0} { exit 1 }
loadConst -time 0.0
wipeAnalysis
$3
timeSeries Path 2 -dt 0.01 -filePath pulse.txt -factor 9.81
pattern UniformExcitation 2 1 -accel 2
recorder Node -file $4 -time -precision 16 -node 3 4 -dof 1 disp
system FullGeneral; numberer Plain; constraints Plain
test NormDispIncr 1.0e-12 20; algorithm Newton
integrator Newmark 0.5 0.25; analysis Transient
if {[analyze 300 0.01] != 0} { exit 1 }
wipe
TCL
}
sine_pulse pulse.txt 0.3 2.0 1.0
ei=$(awk 'BEGIN { printf "%.17g", 0.3 * 0.5 ^ 3 / 12 * (1 - 1 / 100) }')
fbc="beamIntegration Lobatto 1 1 5
element forceBeamColumn 1 1 3 1 1
element forceBeamColumn 2 2 4 1 1
element forceBeamColumn 3 3 4 1 1"
ebc="element elasticBeamColumn 1 1 3 0.15 3.0e7 $ei 1
element elasticBeamColumn 2 2 4 0.15 3.0e7 $ei 1
element elasticBeamColumn 3 3 4 0.15 3.0e7 $ei 1"
damp="rayleigh 0.0 0.0 0.004 0.0"
portal "$fbc" "" "$damp" fbc.out > fbc.tcl
portal "$ebc" "" "$damp" ebc.out > ebc.tcl
portal "$ebc" "$damp" "" early.out > early.tcl
portal "$ebc" "" "" none.out > none.tcl
for k in fbc ebc early none; do
    script_yaml "$k" "$k.tcl" > "$k.yaml"
    "$hysim" run "$k.yaml" -o "$k" > "$k.log" 2>&1 || fail "the $k portal: $(tail -3 "$k.log")"
done
pair() { paste -d' ' "$1" "$2" | awk '{ for (j = 2; j <= 3; j++) { d = $j - $(j + 3); if (d < 0) d = -d
    if (d > m) m = d; a = $j < 0 ? -$j : $j; if (a > p) p = a } } END { printf "%.3g %.6g", m, p }'; }
read -r d p <<< "$(pair fbc/fbc.out ebc/ebc.out)"
awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 0 && d <= 1e-9 * p) }' ||
    fail "elastic-fiber forceBeamColumn portal with betaKinit differs from its elasticBeamColumn twin by $d (peak $p)"
echo "forceBeamColumn with betaKinit: the elasticBeamColumn twin's history to $d (peak $p)"
read -r d p <<< "$(pair early/early.out ebc/ebc.out)"
awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 0 && d <= 1e-9 * p) }' ||
    fail "rayleigh after the gravity analysis: differs from rayleigh before it by $d (peak $p)"
read -r d0 p0 <<< "$(pair none/none.out ebc/ebc.out)"
awk -v d="$d0" -v p="$p0" 'BEGIN { exit !(d > 1e-3 * p) }' ||
    fail "the damping changes the history by $d0 only (peak $p0): the test proves nothing"
echo "rayleigh after gravity: the history of rayleigh before it to $d (undamped differs by $d0)"

# 4. the RC frame: the lazy last unbalance against every unbalance formed, then OpenSees
cp "$src"/bench/opensees/rc_frame_3x3.tcl "$src"/examples/opensees/ground_accel_g.txt .
rc_script() { # EXTRA_RECORDER: the frame's script with its dynamic analysis
    { cat rc_frame_3x3.tcl; cat <<TCL
recorder Node -file roof.out -time -precision 16 -node 31 32 33 34 -dof 1 disp
$1
constraints Plain; numberer RCM; system BandGeneral
test NormDispIncr 1.0e-10 20; algorithm Newton
integrator HHT 0.9; analysis Transient
if {[analyze 1024 [expr {1.0 / 1024.0}]] != 0} { exit 3 }
TCL
    }
}
rc_script "" > rc.tcl
rc_script "recorder Node -file base.out -node 1 -dof 1 reactionIncludingInertia" > full.tcl
roof_diff() { paste -d' ' "$1" "$2" | awk '{ for (j = 2; j <= 5; j++) { d = $j - $(j + 5)
    if (d < 0) d = -d; if (d > m) m = d; a = $j < 0 ? -$j : $j; if (a > p) p = a } } END { printf "%.3g %.6g", m, p }'; }
for k in rc full; do
    script_yaml "$k" "$k.tcl" > "$k.yaml"
    "$hysim" run "$k.yaml" -o "$k" > "$k.log" 2>&1 || fail "hysim on the RC frame ($k): $(tail -3 "$k.log")"
done
[ "$(wc -l < full/base.out)" -eq 1024 ] || fail "the reactionIncludingInertia recorder wrote $(wc -l < full/base.out) rows, not 1024"
read -r d p <<< "$(roof_diff full/roof.out rc/roof.out)"
awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 1e-3 && d <= 1e-10 * p) }' ||
    fail "the lazy last unbalance changes the RC frame's roof by $d (peak $p)"
echo "RC frame, the lazy last unbalance: the roof history of every unbalance formed to $d (peak $p)"
rest_needs_opensees
run_opensees rc.tcl os.log 600 || fail "OpenSees on the RC frame: $(tail -3 os.log)"
read -r d p <<< "$(roof_diff roof.out rc/roof.out)"
[ "$(wc -l < rc/roof.out)" -eq 1024 ] || fail "hysim's roof.out has $(wc -l < rc/roof.out) rows, not 1024"
awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 0 && d <= 1e-8 * p) }' ||
    fail "the RC frame differs from OpenSees by $d (peak $p)"
echo "RC frame (forceBeamColumn, Concrete02, Steel02; gravity, eigen, rayleigh, HHT): OpenSees' roof history to $d (peak $p)"
echo "$me: OK"
