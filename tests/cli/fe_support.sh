#!/usr/bin/env bash
# Multi-support excitation of the frame model (ground_motion.multi_support, docs/fe_model.md):
#  - equal acceleration records at both supports of a portal frame (consistent beam mass,
#    stiffness-proportional damping, Newmark) give the uniform excitation's response: total
#    displacement minus the ground's (the record integrated twice by the trapezoidal rule, which is
#    Newmark's average acceleration) equals the relative one to round-off;
#  - the same with a yielding Bouc-Wen two-node link (its top rotation condensed) under one moving
#    support, Newton to 1e-13: the uniform response to 1e-10 of the peak (yield near 5 mm, peak
#    0.19 m);
#  - a run killed at step 100 and resumed from its checkpoint writes the same response.csv;
#  - bad input names FILE:LINE:COL (a free DOF, an integrator that cannot see the supports);
#  - the two-span beam below written as an OpenSees Tcl script (elasticBeamColumn -cMass,
#    pattern MultipleSupport with groundMotion -accel and imposedMotion) and read by hysim
#    (structure.model.opensees, no ground_motion in the test file) responds as the YAML model to
#    1e-12 of the peak; an imposedMotion on a free DOF is refused with SCRIPT:LINE;
#  - with OPENSEES=/path/to/OpenSees, a two-span continuous beam (consistent mass) whose three
#    supports move vertically with different records and the pin also horizontally responds as
#    OpenSees' MultipleSupport pattern (groundMotion -accel, imposedMotion) to 1e-9 of the peak,
#    and with lumped masses and the supports' displacement histories (-disp) too; skipped with a
#    message otherwise.
# Usage: fe_support.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/frame_models.sh"
work_dir
decaying_sine ag.txt 4 2

cat > base.yaml <<YAML
hysim: 1
name: portal
units: {force: kN, length: m, time: s}
structure:
  model:
    mass_type: consistent
    nodes:
$(portal_yaml_nodes)
    elements:
      - {type: elastic_beam, nodes: [1, 3], E: 30e6, A: 0.02, I: 2e-3, rho: 0.5}
      - {type: elastic_beam, nodes: [2, 4], E: 30e6, A: 0.02, I: 2e-3, rho: 0.5}
      - {type: elastic_beam, nodes: [3, 4], E: 30e6, A: 0.03, I: 4e-3, rho: 0.8}
  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}
GROUND
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 300
YAML
sed 's|^GROUND$|ground_motion: {file: ag.txt, format: columns, dt: 0.01}|' base.yaml > uniform.yaml
sed 's|^GROUND$|ground_motion:\n  multi_support:\n    - {node: 1, dir: x, acceleration: {file: ag.txt, format: columns, dt: 0.01}}\n    - {node: 2, dir: x, acceleration: {file: ag.txt, format: columns, dt: 0.01}}|' \
    base.yaml > multi.yaml
"$hysim" run uniform.yaml -o u --quiet 2> err || fail "uniform run: $(cat err)"
"$hysim" run multi.yaml -o m --quiet 2> err || fail "multi-support run: $(cat err)"
ux="$(dof_column uniform.yaml "n3_ux") $(dof_column uniform.yaml "n4_ux")"
[ "$ux" = "1 4" ] || fail "DOF columns of n3_ux, n4_ux: '$ux'"
paste -d, u/response.csv m/response.csv | awk -F, -v ux="$ux" 'BEGIN {
        while ((getline l < "ag.txt") > 0) a[n++] = l
        h = 0.01; v = 0; d = 0; ug[0] = 0
        for (k = 1; k < n; k++) { vn = v + h / 2 * (a[k - 1] + a[k]); d += h / 2 * (v + vn); v = vn; ug[k] = d }
        split(ux, s, " "); for (j in s) isx[s[j] + 1] = 1 }
    NR == 1 { nd = NF / 2 - 1 }
    NR > 1 { k = NR - 2; for (i = 2; i <= nd + 1; i++) { g = isx[i] ? ug[k] : 0
                 e = $i - ($(i + nd + 1) - g); if (e < 0) e = -e; if (e > m) m = e
                 q = $i < 0 ? -$i : $i; if (q > p) p = q } }
    END { printf "equal support motions vs uniform excitation: max |difference| %g m (peak %g m, ground %g m)\n", m, p, ug[300]
          exit !(p > 1e-3 && m <= 1e-11 * p) }' || fail "equal support motions differ from the uniform excitation"

# nonlinear: a mass on a yielding Bouc-Wen link (shear and rotation, the top rotation condensed)
# over a moving support responds as under the uniform excitation (Newton to 1e-13)
decaying_sine agb.txt 8 2
cat > bw.yaml <<'YAML'
hysim: 1
name: bouc_wen_link
units: {force: kN, length: m, time: s}
materials:
  bw: {type: bouc_wen, k0: 2000, alpha: 0.05, n: 2, gamma: 2e4, beta: 2e4}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 0, y: 1, fix: [0, 1, 0], mass: [10, 0, 0]}
    elements:
      - {type: two_node_link, nodes: [1, 2], dirs: [y, rz], materials: [bw, bw]}
  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}
GROUND
analysis:
  integrator: {type: newmark, tol: 1e-13}
  dt: 0.01
  steps: 400
YAML
sed 's|^GROUND$|ground_motion: {file: agb.txt, format: columns, dt: 0.01}|' bw.yaml > bwu.yaml
sed 's|^GROUND$|ground_motion:\n  multi_support:\n    - {node: 1, dir: x, acceleration: {file: agb.txt, format: columns, dt: 0.01}}|' \
    bw.yaml > bwm.yaml
"$hysim" run bwu.yaml -o bu --quiet 2> err || fail "Bouc-Wen link, uniform: $(cat err)"
"$hysim" run bwm.yaml -o bm --quiet 2> err || fail "Bouc-Wen link, multi-support: $(cat err)"
paste -d, bu/response.csv bm/response.csv | awk -F, 'BEGIN {
        while ((getline l < "agb.txt") > 0) a[n++] = l
        h = 0.01; v = 0; d = 0; ug[0] = 0
        for (k = 1; k < n; k++) { vn = v + h / 2 * (a[k - 1] + a[k]); d += h / 2 * (v + vn); v = vn; ug[k] = d } }
    NR > 1 { k = NR - 2; e = $2 - ($4 - ug[k]); if (e < 0) e = -e; if (e > m) m = e
             q = $2 < 0 ? -$2 : $2; if (q > p) p = q }
    END { printf "Bouc-Wen link on a moving support vs uniform excitation: max |difference| %g m (peak %g m)\n", m, p
          exit !(p > 0.05 && m <= 1e-10 * p) }' || fail "the yielding link differs from the uniform excitation"

# killed and resumed from its checkpoint: the supports are placed again from the time
sed 's/  steps: 300/  steps: 300\n  checkpoint_every: 7/' multi.yaml > multi_ck.yaml
"$hysim" run multi_ck.yaml -o full --quiet 2> err || fail "multi-support run: $(cat err)"
HS_TEST_KILL_AT_STEP=100 "$hysim" run multi_ck.yaml -o part --quiet 2> /dev/null
[ $? -eq 137 ] || fail "the killed multi-support run did not stop at step 100"
"$hysim" run --resume part --quiet 2> err || fail "multi-support resume: $(cat err)"
cmp full/response.csv part/response.csv || fail "the resumed multi-support run differs"
echo "multi-support run killed after step 100 and resumed: response.csv identical"

# errors point at the line
sed 's/{node: 2, dir: x, acceleration/{node: 3, dir: x, acceleration/' multi.yaml > bad.yaml
refused bad.yaml "a free DOF with a support motion" "bad.yaml:[0-9]*:[0-9]*: .*support motion of node 3 ux: the DOF is free"
sed 's/type: newmark}/type: exact}/' multi.yaml > bad2.yaml
"$hysim" check bad2.yaml > out 2>&1 && fail "the exact integrator passed with moving supports"
grep -q "bad2.yaml:[0-9]*:[0-9]*: analysis.integrator: 'exact' cannot run the multi-support excitation" out ||
    fail "message: $(cat out)"
sed 's/damping: .*/damping: {modal: {ratios: [0.02, 0.02, 0.02, 0.02, 0.02, 0.02]}}/' multi.yaml > bad3.yaml
"$hysim" run bad3.yaml -o b3 --quiet > out 2>&1 && fail "modal damping passed with moving supports"
grep -q "multi-support excitation needs Rayleigh, stiffness-proportional or no damping" out ||
    fail "message: $(cat out)"

# a two-span continuous beam, its supports moving differently, against OpenSees
decaying_sine a1.txt 2 1.5
decaying_sine a5.txt 3 2.5
decaying_sine a9.txt -2 1
decaying_sine ax.txt 1.5 3
{
    printf 'hysim: 1\nname: two_span\nunits: {force: kN, length: m, time: s}\nstructure:\n  model:\n'
    printf '    mass_type: consistent\n    nodes:\n'
    for k in 1 2 3 4 5 6 7 8 9; do
        case $k in 1) f="fix: [1, 1, 0]" ;; 5 | 9) f="fix: [0, 1, 0]" ;; *) f="mass: [2, 2, 0]" ;; esac
        echo "      - {id: $k, x: $(awk -v k=$k 'BEGIN { print (k - 1) * 1.25 }'), y: 0, $f}"
    done
    echo "    elements:"
    for k in 1 2 3 4 5 6 7 8; do
        echo "      - {type: elastic_beam, nodes: [$k, $((k + 1))], E: 30e6, A: 0.05, I: 1e-3, rho: 1.5}"
    done
    cat <<'YAML'
  damping: {none: true}
ground_motion:
  multi_support:
    - {node: 1, dir: y, acceleration: {file: a1.txt, format: columns, dt: 0.01}}
    - {node: 5, dir: y, acceleration: {file: a5.txt, format: columns, dt: 0.01}}
    - {node: 9, dir: y, acceleration: {file: a9.txt, format: columns, dt: 0.01}}
    - {node: 1, dir: x, acceleration: {file: ax.txt, format: columns, dt: 0.01}}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 300
YAML
} > beam.yaml
"$hysim" run beam.yaml -o beam --quiet 2> err || fail "two-span beam: $(cat err)"
{
    echo "model BasicBuilder -ndm 2 -ndf 3"
    for k in 1 2 3 4 5 6 7 8 9; do echo "node $k [expr ($k - 1) * 1.25] 0"; done
    echo "fix 1 1 1 0; fix 5 0 1 0; fix 9 0 1 0"
    for k in 2 3 4 6 7 8; do echo "mass $k 2 2 0"; done
    echo "geomTransf Linear 1"
    for k in 1 2 3 4 5 6 7 8; do
        echo "element elasticBeamColumn $k $k $((k + 1)) 0.05 30e6 1e-3 1 -mass 1.5 -cMass"
    done
    cat <<'TCL'
timeSeries Path 11 -dt 0.01 -filePath a1.txt
timeSeries Path 15 -dt 0.01 -filePath a5.txt
timeSeries Path 19 -dt 0.01 -filePath a9.txt
timeSeries Path 12 -dt 0.01 -filePath ax.txt
pattern MultipleSupport 1 {
  groundMotion 1 Plain -accel 11
  groundMotion 5 Plain -accel 15
  groundMotion 9 Plain -accel 19
  groundMotion 2 Plain -accel 12
  imposedMotion 1 2 1
  imposedMotion 5 2 5
  imposedMotion 9 2 9
  imposedMotion 1 1 2
}
recorder Node -file os.out -time -precision 16 -node 3 7 -dof 1 2 disp
TCL
    tcl_newmark 300 Transformation
} > beam.tcl
# the same beam as hysim's model from the OpenSees script (structure.model.opensees: -cMass,
# pattern MultipleSupport with groundMotion -accel and imposedMotion): the YAML's response
awk '/^  model:$/ { print "  model: {opensees: beam.tcl}"; skip = 1; next }
     /^ground_motion:$/ { skip = 2; next }
     skip == 1 && /^  [a-z]/ { skip = 0 } skip == 2 && /^[a-z]/ { skip = 0 } !skip' beam.yaml > beam_tcl.yaml
"$hysim" run beam_tcl.yaml -o beamt --quiet 2> err || fail "two-span beam from beam.tcl: $(cat err)"
tail -n +2 beam/response.csv | tr ',' ' ' > a.txt
tail -n +2 beamt/response.csv | tr ',' ' ' | paste -d' ' a.txt - | awk '
    { n = NF / 2; for (j = 1; j <= n; j++) { d = $j - $(j + n); if (d < 0) d = -d; if (d > m) m = d
                                           a = $j < 0 ? -$j : $j; if (a > p) p = a } }
    END { printf "two-span beam from the Tcl script (MultipleSupport): max |difference| %g (peak %g, %d rows)\n", m, p, NR
          exit !(NR == 301 && p > 1e-3 && m <= 1e-12 * p) }' || fail "beam.tcl differs from beam.yaml"
sed 's/imposedMotion 9 2 9/imposedMotion 8 2 9/' beam.tcl > badm.tcl
sed 's/opensees: beam.tcl/opensees: badm.tcl/' beam_tcl.yaml > badm.yaml
refused badm.yaml "an imposedMotion on a free DOF" "badm.tcl:[0-9]*: imposedMotion: node 8 dof 2 is free; an imposed motion drives a fixed DOF"
if have_opensees; then
    run_opensees beam.tcl os.log 120 || fail "OpenSees: $(tail -5 os.log)"
    cols="$(dof_column beam.yaml "n3_ux") $(dof_column beam.yaml "n3_uy") $(dof_column beam.yaml "n7_ux") $(dof_column beam.yaml "n7_uy")"
    within_opensees "two-span beam vs OpenSees MultipleSupport" beam/response.csv os.out 1e-9 1e-3 300 "$cols" ||
        fail "the two-span beam differs from OpenSees"
    # the same beam, lumped node masses, its supports given as displacement histories (-disp)
    for spec in "d1 1.5 0.02" "d5 2.5 0.03" "d9 1 -0.02"; do
        set -- $spec
        awk -v f="$2" -v A="$3" 'BEGIN { for (k = 0; k <= 400; k++) { t = k * 0.01
            printf "%.17g\n", t <= 2 ? A * (1 - cos(2 * atan2(0, -1) * f * t)) * (1 - t / 2) : 0 } }' > "$1.txt"
    done
    sed 's/ -mass 1.5 -cMass//; s/-accel 1\([159]\)/-disp 1\1/; s/a\([159]\).txt/d\1.txt/
         s/os.out/osd.out/; /imposedMotion 1 1 2/d; /groundMotion 2 /d; /timeSeries Path 12/d' \
        beam.tcl > beamd.tcl
    sed 's/, rho: 1.5//; s/mass_type: consistent/mass_type: lumped/; /dir: x, acceleration/d
         s/acceleration: {file: a\([159]\).txt/displacement: {file: d\1.txt/' beam.yaml > beamd.yaml
    run_opensees beamd.tcl osd.log 120 || fail "OpenSees (-disp): $(tail -5 osd.log)"
    "$hysim" run beamd.yaml -o beamd --quiet 2> err || fail "two-span beam (displacements): $(cat err)"
    cols="$(dof_column beamd.yaml "n3_ux") $(dof_column beamd.yaml "n3_uy") $(dof_column beamd.yaml "n7_ux") $(dof_column beamd.yaml "n7_uy")"
    within_opensees "two-span beam, support displacements vs OpenSees -disp" beamd/response.csv osd.out 1e-9 1e-3 300 "$cols" ||
        fail "the two-span beam with displacement histories differs from OpenSees"
else
    echo "two-span beam vs OpenSees: skipped (set OPENSEES=/path/to/OpenSees to compare)"
fi
echo "fe_support.sh: ok"
