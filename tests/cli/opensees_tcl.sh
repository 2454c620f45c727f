#!/usr/bin/env bash
# OpenSees Tcl models (structure.model.opensees, docs/opensees_tcl.md) from the program:
#  - examples/opensees/frame.yaml: the script's own `eigen` periods equal `hysim modes`; its
#    rayleigh gives 2 % in mode 1; its Path record is the ground motion (PGA = 0.459151 g x 9.81);
#    each of its 10 analysis commands is ignored with one line; it runs 1000 steps and its base
#    connections yield (the peak roof drift differs from the elastic frame's by more than 5 %);
#    killed and resumed it gives the same response.csv, and an edited script cannot be resumed;
#  - the Tcl twin of examples/fe_two_story_frame.yaml responds as the YAML frame, byte for byte
#    (the test file's damping and ground motion win over the script's, one line each says so);
#  - that frame with its first-story column at a perfect virtual lab, attached to a node of the
#    Tcl model by a control point, responds as the all-numerical frame to 1e-12 of the peak;
#  - bad scripts: errors name SCRIPT:LINE and the command;
#  - with OPENSEES=/path/to/OpenSees, frame.tcl unchanged plus an analysis tail runs in OpenSees:
#    the same periods (printed by the script's puts) and the same roof and floor histories to
#    1e-10 of the peak (P-Delta, Steel02 yielding); and each uniaxialMaterial on a zero-length
#    SDOF: the same history to 1e-9 of the peak; a corotTruss pendulum turned by 0.14 rad: the
#    same history to 1e-10 of the peak; skipped with a message otherwise.
# Usage: opensees_tcl.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
examples="$here/../../examples"
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

# --- the example ---
ex="$examples/opensees/frame.yaml"
"$hysim" check "$ex" > check.out 2> check.err || fail "check: $(cat check.out check.err)"
t1=$(awk '/^frame.tcl: T1 =/ { print $4; exit }' check.out)
read -r m1 m2 < <(awk '/^periods \(s\):/ { print $3, $4 }' check.out)
[ -n "$t1" ] && [ "$t1" = "$(printf '%.5f' "$m1")" ] || fail "eigen in the script gave T1 = $t1, hysim modes $m1"
z1=$(awk '/damping \(% of critical\):/ { for (i = 1; i <= NF; i++) if ($i == "critical):") print $(i + 1) }' check.out)
near "$z1" 2 1e-4 || fail "the script's rayleigh gives $z1 % in mode 1, expected 2 %"
pga=$(awk '/^record: PGA/ { print $3 }' check.out)
near "$pga" "$(awk 'BEGIN { print 0.459151 * 9.81 }')" 2e-4 || fail "PGA $pga m/s^2 from the script's Path series"
n_ignored=$(grep -c 'ignored (the test file sets the analysis)' check.err)
n_cmds=$(grep -cE '^(system|numberer|constraints|test|algorithm|integrator|analysis|analyze|loadConst|wipeAnalysis)( |$)' "$examples/opensees/frame.tcl")
[ "$n_ignored" -eq 10 ] && [ "$n_cmds" -eq 10 ] || fail "$n_ignored lines for $n_cmds ignored commands: $(cat check.err)"
line=$(grep -n '^analyze ' "$examples/opensees/frame.tcl" | cut -d: -f1)
[ "$(grep -c "frame.tcl:$line: analyze ignored" check.err)" -eq 1 ] || fail "no line for analyze at frame.tcl:$line: $(cat check.err)"
echo "example: T1 = $t1 s from the script's eigen and hysim modes, zeta1 = $z1 %, PGA $pga m/s^2, $n_ignored analysis commands ignored"
"$hysim" run "$ex" -o ex --quiet 2> err || fail "example run: $(cat err)"
[ "$(wc -l < ex/response.csv)" -eq 1002 ] || fail "example: $(wc -l < ex/response.csv) rows"
mkdir elastic && cp "$examples/opensees/"* elastic/ && sed -i 's/^set My 250.0/set My 1e9/' elastic/frame.tcl
"$hysim" run elastic/frame.yaml -o el --quiet 2> err || fail "elastic run: $(cat err)"
read -r pin pel < <(paste -d, ex/response.csv el/response.csv | awk -F, 'NR > 1 {
    a = $5 < 0 ? -$5 : $5; b = $10 < 0 ? -$10 : $10; if (a > p) p = a; if (b > q) q = b } END { print p, q }')
awk -v a="$pin" -v b="$pel" 'BEGIN { exit !(a > 1.05 * b) }' || fail "the connections did not yield: roof $pin m, elastic $pel m"
echo "example: peak roof displacement $pin m (elastic connections: $pel m)"
# killed after step 300 and resumed from its checkpoint: the same response.csv, byte for byte;
# an edited script (an input of the run, hashed) cannot be resumed
mkdir resume && cp "$examples/opensees/"* resume/ &&
    sed -i 's/^  initial_acceleration: zero$/  initial_acceleration: zero\n  checkpoint_every: 7/' resume/frame.yaml
grep -q 'checkpoint_every: 7' resume/frame.yaml || fail "resume/frame.yaml: $(cat resume/frame.yaml)"
HS_TEST_KILL_AT_STEP=300 "$hysim" run resume/frame.yaml -o part --quiet > /dev/null 2>&1
[ $? -eq 137 ] || fail "the killed run did not stop at step 300"
"$hysim" run --resume part --quiet > /dev/null 2> err || fail "resume: $(cat err)"
cmp ex/response.csv part/response.csv || fail "the resumed Tcl-model run differs"
HS_TEST_KILL_AT_STEP=300 "$hysim" run resume/frame.yaml -o part2 --quiet > /dev/null 2>&1
echo 'set edited 1' >> resume/frame.tcl
"$hysim" run --resume part2 --quiet > /dev/null 2> err && fail "a run resumed with an edited script"
grep -q 'content hash differs' err || fail "resume with an edited script: $(cat err)"
echo "example: killed after step 300 and resumed: response.csv identical; an edited script is refused"

# --- the Tcl twin of fe_two_story_frame.yaml ---
cat > twin.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 6 0
fix 1 1 1 1; fix 2 1 1 1
foreach {tag x y} {3 0 3.2 4 6 3.2 5 0 6.4 6 6 6.4} {
    node $tag $x $y -mass 25 0 0
    fix $tag 0 0 1
}
geomTransf Linear 1
set k 0
foreach {i j} {1 3 2 4 3 5 4 6} { element elasticBeamColumn [incr k] $i $j 0.01 200e6 1e-4 1 }
equalDOF 3 4 1
equalDOF 5 6 1
rayleigh 0.1 0.001 0 0
timeSeries Path 1 -dt 0.01 -filePath rec.txt -factor 9.81
pattern UniformExcitation 1 1 -accel 1
TCL
printf '0\n0.1\n0\n' > rec.txt
sed -e 's|^  model:$|  model: {opensees: twin.tcl}\n  xmodel:|' "$examples/fe_two_story_frame.yaml" |
    awk '/^  xmodel:/ { skip = 1; next } skip && /^  damping:/ { skip = 0 } !skip' |
    sed 's/\[col1_left, col1_right\]/[ele1, ele2]/' > twin.yaml # Tcl elements are named ele<tag>
grep -q 'opensees: twin.tcl' twin.yaml || fail "twin.yaml: $(cat twin.yaml)"
"$hysim" run "$examples/fe_two_story_frame.yaml" -o yaml --quiet 2> err || fail "yaml run: $(cat err)"
"$hysim" run twin.yaml -o twin --quiet 2> err || fail "twin run: $(cat err)"
grep -q 'twin.tcl:13: rayleigh ignored (the test file.s structure.damping is used)' err ||
    fail "no line for the script's rayleigh: $(cat err)"
grep -q 'twin.tcl:15: pattern UniformExcitation ignored (the test file.s ground_motion is used)' err ||
    fail "no line for the script's ground motion: $(cat err)"
cmp yaml/response.csv twin/response.csv || fail "the Tcl frame responds differently from the YAML frame"
echo "Tcl twin of fe_two_story_frame.yaml: response.csv identical ($(wc -l < twin/response.csv) rows)"

# --- its first-story left column at a perfect virtual lab, on the Tcl model's node 3 ---
sed -e 's/^set k 0$/set k 1/' -e 's/^foreach {i j} {1 3 2 4 3 5 4 6}/foreach {i j} {2 4 3 5 4 6}/' \
    -e 's/^    fix $tag 0 0 1$/    fix $tag 0 [expr {$tag == 3}] 1/' twin.tcl > hyb.tcl
sed -e 's|^  model:$|  model: {opensees: hyb.tcl}\n  xmodel:|' "$examples/fe_two_story_frame_hybrid.yaml" |
    awk '/^  xmodel:/ { skip = 1; next } skip && /^  damping:/ { skip = 0 } !skip' > hyb.yaml
"$hysim" run hyb.yaml -o hyb --quiet 2> err || fail "hybrid run on the Tcl model: $(cat err)"
read -r d p <<< "$(response_diff twin/response.csv hyb/response.csv)"
awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 1e-3 && d <= 1e-12 * p) }' ||
    fail "the hybrid Tcl frame differs from the numerical one by $d m (peak $p m)"
echo "hybrid on the Tcl model's node 3: max |difference| $d m, peak $p m"

# --- errors name the script's line ---
printf 'model BasicBuilder -ndm 2 -ndf 3\nnode 1 0 0\nproc p {} {\n    node 2 0 3 -mass 1 0 0 -disp 1\n}\np\n' > bad.tcl
sed 's/twin.tcl/bad.tcl/' twin.yaml > bad.yaml
refused bad.yaml "a bad script" "bad.yaml:[0-9]*:[0-9]*: structure.model.opensees: .*bad.tcl:4: node: option '-disp' is not supported by hysim"
echo "errors: $(head -1 out)"

# --- against OpenSees ---
rest_needs_opensees
mkdir os && cp "$examples/opensees/"* os/ && cd os || exit 1
cat > run.tcl <<'TCL'
source frame.tcl
recorder Node -file os.out -time -precision 16 -node 13 14 23 24 -dof 1 disp
system BandGeneral
numberer RCM
constraints Transformation
test NormDispIncr 1.0e-12 50
algorithm Newton
integrator Newmark 0.5 0.25
analysis Transient
analyze 1000 0.01
wipe
TCL
run_opensees run.tcl os.log || fail "OpenSees: $(tail -5 os.log)"
ot1=$(awk '/^frame.tcl: T1 =/ { print $4; exit }' os.log)
[ "$ot1" = "$t1" ] || fail "OpenSees' eigen T1 = $ot1 s, hysim's $t1 s"
grep -q '^DOFs: 1 = n13_ux, 2 = n14_ux, 3 = n23_ux, 4 = n24_ux' <("$hysim" modes frame.yaml 2> /dev/null) ||
    fail "hysim's DOFs are not nodes 13, 14, 23, 24 in x"
[ "$(wc -l < os.out)" -eq 1000 ] || fail "OpenSees recorded $(wc -l < os.out) steps"
read -r d p _ bad <<< "$(vs_opensees ../ex/response.csv os.out)"
[ "$bad" -eq 0 ] || fail "the times of hysim's and OpenSees' records differ"
# both stop Newton at a displacement increment of 1e-12 m: on a yielding frame that leaves each
# program's history a few 1e-12 m from the exact one (measured 1.1e-11 m of 0.038 m)
awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 0.03 && d <= 1e-9 * p) }' ||
    fail "hysim and OpenSees differ by $d m (peak $p m)"
echo "frame.tcl in OpenSees: T1 = $ot1 s; histories differ by $d m (peak $p m)"

# each uniaxialMaterial on a zero-length SDOF (10 t, in parallel with an Elastic 2000 kN/m),
# a 1.5 Hz, 6 m/s^2 ground pulse for 3 s: the same history in both to 1e-9 of the peak
cd .. && mkdir mats && cd mats || exit 1
sine_pulse rec.txt 6 1.5 3
cat > run.tcl <<'TCL'
source m.tcl
recorder Node -file os.out -time -precision 16 -node 2 -dof 1 disp
system FullGeneral
numberer Plain
constraints Plain
test NormDispIncr 1.0e-12 50
algorithm Newton
integrator Newmark 0.5 0.25
analysis Transient
analyze 500 0.01
TCL
cat > m.yaml <<'YAML'
hysim: 1
name: m
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: m.tcl}
analysis: {integrator: {type: newmark}, dt: 0.01, steps: 500, initial_acceleration: zero}
YAML
while read -r mat; do
    cat > m.tcl <<TCL
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 0 0 -mass 10 0 0
fix 1 1 1 1; fix 2 0 1 1
uniaxialMaterial Elastic 1 2000.0
uniaxialMaterial $mat
element zeroLength 1 1 2 -mat 1 2 -dir 1 1
timeSeries Path 1 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 1 1 -accel 1
TCL
    rm -rf run os.out
    run_opensees run.tcl os.log 120 || fail "OpenSees, $mat: $(tail -3 os.log)"
    "$hysim" run m.yaml -o run --quiet 2> err || fail "hysim, $mat: $(tail -2 err)"
    read -r d p _ <<< "$(vs_opensees run/response.csv os.out)"
    awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 0.01 && d <= 1e-9 * p) }' ||
        fail "uniaxialMaterial $mat: hysim and OpenSees differ by $d m (peak $p m)"
    echo "uniaxialMaterial $mat: differs from OpenSees by $d m (peak $p m)"
done <<'MATS'
Elastic 2 3000.0
Steel01 2 100.0 5000.0 0.05
Steel01 2 100.0 5000.0 0.05 0.02 2.0 0.01 3.0
Steel02 2 100.0 5000.0 0.05
Steel02 2 100.0 5000.0 0.05 18.0 0.9 0.2 0.01 1.5 0.02 2.0 20.0
BoucWen 2 0.05 5000.0 2.0 0.4 0.6 1.0 0.1 0.05 0.05
ElasticPPGap 2 8000.0 80.0 0.01
ElasticPPGap 2 8000.0 -80.0 -0.01 0.05 damage
Viscous 2 50.0 1.0
MATS

# a corotTruss pendulum (3 m, 5 t at its top in x and y, a 800 kN/m zero-length spring in x):
# a 40 m/s^2 ground pulse turns it by 0.14 rad; both programs give the same x and y histories
sine_pulse rec.txt 40 1 3
cat > m.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 2
node 1 0 0; node 2 0 0; node 3 0 3.0 -mass 5 5
fix 1 1 1; fix 2 1 1
uniaxialMaterial Elastic 1 2.0e8
uniaxialMaterial Elastic 2 800.0
element corotTruss 1 2 3 0.001 1
element zeroLength 2 1 3 -mat 2 -dir 1
timeSeries Path 1 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 1 1 -accel 1
TCL
sed -i 's/-node 2 -dof 1 disp/-node 3 -dof 1 2 disp/' run.tcl
rm -rf run os.out
run_opensees run.tcl os.log 120 || fail "OpenSees, corotTruss: $(tail -3 os.log)"
"$hysim" run m.yaml -o run --quiet 2> err || fail "hysim, corotTruss: $(tail -2 err)"
read -r d p _ <<< "$(vs_opensees run/response.csv os.out)"
awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 0.3 && d <= 1e-10 * p) }' ||
    fail "corotTruss: hysim and OpenSees differ by $d m (peak $p m)"
echo "corotTruss pendulum: differs from OpenSees by $d m (peak $p m)"
echo "opensees_tcl.sh: OK"
