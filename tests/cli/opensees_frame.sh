#!/usr/bin/env bash
# A P-Delta portal frame (docs/fe_model.md) against a real OpenSees: two 3.5 m columns with gravity
# compression 2000 kN each (OpenSees: a static gravity step, then loadConst; hysim:
# axial_compression), a flexible beam, 20 t at each top node in x (vertical DOFs and rotations
# massless: hysim condenses them, OpenSees carries them with zero mass), undamped, Newmark average
# acceleration with Newton, a 2 Hz sine pulse of the ground for 2 s then free vibration, both
# starting from zero acceleration. The periods (eigen after gravity) and the displacement
# histories of both top nodes must agree: the histories to 1e-6 of the peak. Then the same frame
# with corotational members, no gravity, and a 200 m/s^2 pulse (drift about 11 degrees): the
# histories agree to 1e-6 of the peak.
# Needs OPENSEES=/path/to/OpenSees (skipped otherwise). Usage: opensees_frame.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/frame_models.sh"
need_opensees
work_dir
steps=500
sine_pulse rec.txt 3 2 2
{
    portal_tcl PDelta Linear
    cat <<TCL
timeSeries Linear 1
pattern Plain 1 1 { load 3 0 -2000 0; load 4 0 -2000 0 }
$(tcl_gravity Plain)
set lam [eigen -fullGenLapack 2]
foreach l \$lam { puts [format "period %.10g" [expr 2*acos(-1)/sqrt(\$l)]] }
wipeAnalysis
timeSeries Path 2 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 2 1 -accel 2
recorder Node -file os.out -time -precision 16 -node 3 4 -dof 1 disp
$(tcl_newmark $steps Plain)
TCL
} > frame.tcl
run_opensees frame.tcl opensees.log || fail "OpenSees failed"
cat > frame.yaml <<YAML
hysim: 1
name: opensees-frame
units: {force: kN, length: m, time: s}
structure:
  model:
    nodes:
$(portal_yaml_nodes)
    elements:
      - {type: elastic_beam, nodes: [1, 3], E: 30e6, A: 0.02, I: 2e-3, transf: pdelta,
         axial_compression: 2000}
      - {type: elastic_beam, nodes: [2, 4], E: 30e6, A: 0.02, I: 2e-3, transf: pdelta,
         axial_compression: 2000}
      - {type: elastic_beam, nodes: [3, 4], E: 30e6, A: 0.03, I: 4e-3}
  damping: {none: true}
ground_motion: {file: rec.txt, format: columns, dt: 0.01}
$(newmark_analysis $steps)
YAML
"$hysim" modes frame.yaml > modes.log 2>&1 || fail "hysim modes"
read -r h1 h2 <<< "$(periods modes.log)"
read -r o1 o2 <<< "$(script_periods opensees.log)"
for k in 1 2; do
    eval "h=\$h$k o=\$o$k"
    near "$h" "$o" 1e-4 || fail "period $k: hysim $h s, OpenSees $o s"
done
echo "opensees_frame.sh: periods with P-Delta: hysim $h1, $h2 s; OpenSees $o1, $o2 s"
"$hysim" run frame.yaml -o run --quiet > run.log 2>&1 || fail "hysim run exited $?"
read -r d p rows bad <<< "$(vs_opensees run/response.csv os.out)"
[ "$rows" -eq "$steps" ] || fail "$rows rows against OpenSees, expected $steps"
[ "$bad" -eq 0 ] || fail "the times of hysim's and OpenSees' records differ"
echo "opensees_frame.sh: largest difference from OpenSees $d m (peak $p m)"
awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 1e-3 && d <= 1e-6 * p) }' ||
    fail "the histories differ by $d m (peak $p m)"

# large displacements: corotational
sine_pulse big.txt 200 2 2
sed -e '/^timeSeries Linear/,/^loadConst/d' -e '/^set lam/,/^wipeAnalysis/d' \
    -e 's/^geomTransf PDelta 1/geomTransf Corotational 1/' -e 's/^geomTransf Linear 2/geomTransf Corotational 2/' \
    -e 's/rec.txt/big.txt/' -e 's/os.out/cr.out/' frame.tcl > cr.tcl
run_opensees cr.tcl cr_opensees.log || fail "OpenSees (corotational) failed"
sed -e 's/transf: pdelta,/transf: corotational,/' -e 's/axial_compression: 2000/axial_compression: 0/' \
    -e 's/I: 4e-3}/I: 4e-3, transf: corotational}/' -e 's/rec.txt/big.txt/' frame.yaml > cr.yaml
[ "$(grep -c corotational cr.yaml)" -eq 3 ] || fail "cr.yaml: $(cat cr.yaml)"
"$hysim" run cr.yaml -o cr --quiet > cr.log 2>&1 || fail "hysim run (corotational) exited $?"
read -r d p rows bad <<< "$(vs_opensees cr/response.csv cr.out)"
[ "$rows" -eq "$steps" ] || fail "corotational: $rows rows against OpenSees, expected $steps"
[ "$bad" -eq 0 ] || fail "corotational: the times differ"
echo "opensees_frame.sh: corotational: largest difference from OpenSees $d m (peak $p m)"
awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 0.3 && d <= 1e-6 * p) }' ||
    fail "corotational histories differ by $d m (peak $p m)"
echo "opensees_frame.sh: OK"
