#!/usr/bin/env bash
# 3-D OpenSees Tcl models (docs/opensees_tcl.md "3-D models") from the program:
#  - examples/opensees/floor3d.yaml (floor3d.tcl: 3-D beams with vecxz, PDelta columns under its
#    gravity pattern, a truss brace, rigidDiaphragm with an eccentric mass) checks and runs 1000
#    steps;
#  - its twin without the gravity pattern responds as examples/fe_3d_floor.yaml with
#    axial_compression 0, byte for byte (response.csv);
#  - with OPENSEES=/path/to/OpenSees, floor3d.tcl unchanged plus an analysis tail (gravity step,
#    loadConst, eigen) runs in OpenSees and in hysim (whose eigen holds the loads the script's
#    analyze applied): the same three periods to 1e-4 (hysim's gravity solve is linear; OpenSees'
#    includes the P-Delta sway, which moves the column forces by up to 4e-4 and the periods by
#    1e-5), and to 1e-10 without the gravity pattern; the gravity-free script with a ground
#    motion (pattern UniformExcitation in y) and a Newmark tail: node 100's ux, uy, rz histories
#    agree to 1e-9 of their peaks (P-Delta columns: both programs' Newton tolerances). Skipped
#    with a message otherwise.
# Usage: opensees_tcl3d.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
examples="$here/../../examples"
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

# --- the example ---
ex="$examples/opensees/floor3d.yaml"
"$hysim" modes "$ex" > modes.out 2> modes.err || fail "modes: $(cat modes.out modes.err)"
grep -q '^DOFs: 1 = n100_ux, 2 = n100_uy, 3 = n100_rz (12 massless DOFs condensed)' modes.out ||
    fail "example: not the floor's three DOFs: $(cat modes.out)"
"$hysim" run "$ex" -o ex --quiet 2> err || fail "example run: $(cat err)"
[ "$(wc -l < ex/response.csv)" -eq 1002 ] || fail "example: $(wc -l < ex/response.csv) rows"
peak=$(awk -F, 'NR > 1 { a = $3 < 0 ? -$3 : $3; if (a > p) p = a } END { print p + 0 }' ex/response.csv)
awk -v p="$peak" 'BEGIN { exit !(p > 1e-4 && p < 1) }' || fail "example: peak uy $peak m"
echo "example: periods $(awk '$1 ~ /^[0-9]$/ { printf "%s ", $2 }' modes.out)s, peak uy of the floor $peak m"

# --- the gravity-free twin against the YAML frame, byte for byte ---
sed '/^timeSeries Linear 1/,$d' "$examples/opensees/floor3d.tcl" > twin.tcl
grep -q '^pattern' twin.tcl && fail "twin.tcl still has a pattern"
sed -e 's#opensees: floor3d.tcl#opensees: twin.tcl#' -e '/^output:/,$d' -e 's/steps: 1000/steps: 300/' "$ex" > twin.yaml
sed -e 's/axial_compression: 500/axial_compression: 0/' -e 's/steps: 1000/steps: 300/' \
    "$examples/fe_3d_floor.yaml" > yaml.yaml
"$hysim" run twin.yaml -o tw --quiet 2> err || fail "twin run: $(cat err)"
"$hysim" run yaml.yaml -o ya --quiet 2> err || fail "YAML run: $(cat err)"
[ "$(wc -l < tw/response.csv)" -eq 302 ] || fail "twin: $(wc -l < tw/response.csv) rows"
cmp -s tw/response.csv ya/response.csv || fail "the Tcl twin's response.csv differs from the YAML frame's: $(diff tw/response.csv ya/response.csv | head -4)"
echo "twin: the Tcl floor and examples/fe_3d_floor.yaml (no gravity) give the same response.csv, byte for byte"

# --- against OpenSees ---
rest_needs_opensees
{
    cat "$examples/opensees/floor3d.tcl"
    tcl_gravity Transformation
    cat <<'TCL'
set lam [eigen -fullGenLapack 3]
foreach l $lam { puts [format "period %.12g" [expr {2 * acos(-1) / sqrt($l)}]] }
TCL
} > eig.tcl
run_opensees eig.tcl os_eig.log || fail "OpenSees (gravity, eigen): $(tail -5 os_eig.log)"
sed -e 's#opensees: floor3d.tcl#opensees: eig.tcl#' -e '/^output:/,$d' "$ex" > eig.yaml
"$hysim" check eig.yaml > hs_eig.log 2> hs_eig.err || fail "hysim check (eigen): $(cat hs_eig.log hs_eig.err)"
read -r -a op <<< "$(script_periods os_eig.log)"
read -r -a hp <<< "$(script_periods hs_eig.log)"
[ "${#op[@]}" -eq 3 ] && [ "${#hp[@]}" -eq 3 ] || fail "periods: OpenSees ${op[*]}, hysim ${hp[*]}"
for k in 0 1 2; do
    near "${hp[$k]}" "${op[$k]}" 1e-4 || fail "period $((k + 1)) with gravity: hysim ${hp[$k]} s, OpenSees ${op[$k]} s"
done
echo "OpenSees: periods after the gravity step: hysim ${hp[*]} s; OpenSees ${op[*]} s"
# without the gravity pattern (a linear model): the same periods to round-off
sed '/^timeSeries Linear 1/,/^loadConst/d' eig.tcl > eig0.tcl
grep -q '^pattern' eig0.tcl && fail "eig0.tcl still has a pattern"
run_opensees eig0.tcl os_eig0.log || fail "OpenSees (eigen): $(tail -5 os_eig0.log)"
sed 's#opensees: eig.tcl#opensees: eig0.tcl#' eig.yaml > eig0.yaml
"$hysim" check eig0.yaml > hs_eig0.log 2> hs_eig0.err || fail "hysim check (eigen): $(cat hs_eig0.log hs_eig0.err)"
read -r -a op <<< "$(script_periods os_eig0.log)"
read -r -a hp <<< "$(script_periods hs_eig0.log)"
[ "${#op[@]}" -eq 3 ] && [ "${#hp[@]}" -eq 3 ] || fail "periods: OpenSees ${op[*]}, hysim ${hp[*]}"
for k in 0 1 2; do
    near "${hp[$k]}" "${op[$k]}" 1e-10 || fail "period $((k + 1)) without gravity: hysim ${hp[$k]} s, OpenSees ${op[$k]} s"
done
echo "OpenSees: periods without gravity: hysim ${hp[*]} s; OpenSees ${op[*]} s"

steps=500
sine_pulse rec.txt 3 2 2
cat twin.tcl - > hist.tcl <<'TCL'
timeSeries Path 2 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 2 2 -accel 2
recorder Node -file os_hist.out -time -precision 16 -node 100 -dof 1 2 6 disp
TCL
tcl_newmark $steps Transformation >> hist.tcl
run_opensees hist.tcl os_hist.log || fail "OpenSees (history): $(tail -5 os_hist.log)"
cat > hist.yaml <<YAML
hysim: 1
name: floor3d-history
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: hist.tcl}
$(newmark_analysis $steps)
YAML
"$hysim" run hist.yaml -o hist --quiet > hist.log 2>&1 || fail "hysim run (history): $(cat hist.log)"
# columns: time, ux, uy, rz of node 100 in both; each compared to its own peak
echo "OpenSees: Newmark history of node 100 (ux, uy, rz) of the same script:"
histories_vs_opensees history hist/response.csv os_hist.out 1e-9
echo "opensees_tcl3d.sh: OK"
