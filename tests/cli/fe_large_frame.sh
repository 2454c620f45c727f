#!/usr/bin/env bash
# A large 2-D frame end to end on the sparse path (docs/fe_model.md, "Large frames"): 4 bays x
# 40 stories of elastic beam-columns (bay 6 m, story 3.5 m, E = 200 GPa; columns A = 0.0228 m^2,
# I = 5.41e-4 m^4; beams A = 0.0105 m^2, I = 5.62e-4 m^4) with 20 t in x and y and 5 t m^2 at
# every joint: 600 DOFs, none condensed, nodes numbered column line by column line (half-bandwidth
# 125: the sparse solvers, not LAPACK's band; the test file is written here by awk).
#  - `hysim modes` takes ARPACK's lowest 20 modes (the line says so), periods descending, and
#    the effective masses of those modes add up to between 80 % and 100 % of the total;
#  - `hysim run` with cr, Rayleigh 2 % on modes 1 and 3 (their frequencies from ARPACK),
#    400 steps of dt = 1/1024 s: every row written, finite;
#  - with OPENSEES=/path/to/OpenSees: the first three periods equal OpenSees' eigen to the five digits hysim prints and
#    the undamped Newmark history (hysim `newmark`: CHOLMOD factored once; OpenSees Newmark,
#    Linear, UmfPack) of the roof's left node in x agrees to 1e-6 of the peak. Skipped with a
#    message otherwise.
# Usage: fe_large_frame.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/frame_models.sh"
work_dir
bays=4 stories=40 steps=400
awk 'BEGIN { for (k = 0; k <= 500; k++) { t = k / 1024
    printf "%.17g\n", 3 * sin(2 * atan2(0, -1) * 2 * t) } }' > rec.txt
# frame.yaml: the model (tests/cli/lib/frame_models.sh), damping and integrator appended below
large_frame_model $bays $stories > frame.model
roof=$((stories + 1))
{ cat frame.model; echo "  damping: {rayleigh: {modes: [1, 3], ratios: [0.02, 0.02]}}"
  cat <<YAML
ground_motion: {file: rec.txt, format: columns, dt: 0.0009765625}
analysis:
  integrator: {type: cr}
  dt: 0.0009765625
  steps: $steps
YAML
} > frame.yaml
"$hysim" modes frame.yaml > modes.log 2>&1 || fail "hysim modes"
grep -q "^the lowest 20 modes (ARPACK" modes.log || fail "modes: no ARPACK line"
grep -q "^DOFs: 600 (0 massless DOFs condensed)" modes.log || fail "modes: DOF count"
read -r t1 t2 t3 < <(awk '/^participation/ { exit } $1 == 1 || $1 == 2 || $1 == 3 { printf "%s ", $2 }' modes.log)
awk -v a="$t1" -v b="$t2" -v c="$t3" 'BEGIN { exit !(a > b && b > c && c > 0) }' ||
    fail "periods not descending: $t1 $t2 $t3"
sum=$(awk '$1 == "mode" && $2 == "20:" { gsub(/[%)]/, ""); print $NF }' modes.log)
awk -v s="$sum" 'BEGIN { exit !(s > 80 && s <= 100.0001) }' || fail "effective masses add up to $sum %"
echo "fe_large_frame.sh: ARPACK periods $t1, $t2, $t3 s; 20 modes carry $sum % of the mass"
"$hysim" run frame.yaml -o run --quiet > run.log 2>&1 || fail "hysim run (cr) exited $?"
rows=$(tail -n +3 run/response.csv | awk -F, '{ for (i = 1; i <= NF; i++) if ($i != $i + 0) bad = 1 }
    END { print bad ? -1 : NR }')
[ "$rows" = "$steps" ] || fail "cr: $rows good rows, expected $steps"
echo "fe_large_frame.sh: cr with Rayleigh damping from ARPACK's modes: $rows steps"

if ! have_opensees; then
    echo "fe_large_frame.sh: SKIP the OpenSees comparison: no OpenSees (set OPENSEES=/path/to/OpenSees)"
    exit 0
fi
awk -v bays=$bays -v stories=$stories 'BEGIN {
    print "model BasicBuilder -ndm 2 -ndf 3"
    for (c = 0; c <= bays; c++) for (s = 0; s <= stories; s++) {
        id = c * (stories + 1) + s + 1
        printf "node %d %d %.1f\n", id, 6 * c, 3.5 * s
        if (s == 0) printf "fix %d 1 1 1\n", id; else printf "mass %d 20 20 5\n", id
    }
    print "geomTransf Linear 1"
    e = 0
    for (s = 1; s <= stories; s++) for (c = 0; c <= bays; c++) {
        top = c * (stories + 1) + s + 1
        printf "element elasticBeamColumn %d %d %d 0.0228 200e6 5.41e-4 1\n", ++e, top - 1, top
        if (c < bays) printf "element elasticBeamColumn %d %d %d 0.0105 200e6 5.62e-4 1\n", ++e, top, top + stories + 1
    }
}' > frame.tcl
cat >> frame.tcl <<TCL
set lam [eigen 3]
foreach l \$lam { puts "period [expr 2 * acos(-1) / sqrt(\$l)]" }
timeSeries Path 1 -dt 0.0009765625 -filePath rec.txt
pattern UniformExcitation 1 1 -accel 1
recorder Node -file os.out -time -precision 17 -node $roof -dof 1 disp
constraints Plain
numberer RCM
system UmfPack
algorithm Linear
integrator Newmark 0.5 0.25
analysis Transient
analyze $steps 0.0009765625
wipe
TCL
run_opensees frame.tcl opensees.log 600 || fail "OpenSees failed"
read -r o1 o2 o3 _ <<< "$(script_periods opensees.log)"
for k in 1 2 3; do
    eval "h=\$t$k o=\$o$k"
    near "$h" "$o" 5e-5 || fail "period $k: hysim $h s, OpenSees $o s"
done
echo "fe_large_frame.sh: periods: OpenSees $o1, $o2, $o3 s"
{ cat frame.model; echo "  damping: {none: true}"
  cat <<YAML
ground_motion: {file: rec.txt, format: columns, dt: 0.0009765625}
analysis:
  integrator: {type: newmark}
  dt: 0.0009765625
  steps: $steps
  initial_acceleration: zero
YAML
} > undamped.yaml
"$hysim" run undamped.yaml -o nm --quiet > nm.log 2>&1 || fail "hysim run (newmark) exited $?"
# response.csv: t, then the dynamic DOFs in node order, 3 a node: the roof's left node is the
# 40th free node of column line 0, its ux DOF number 3 (stories - 1) + 1
read -r d p n _ <<< "$(vs_opensees nm/response.csv os.out $((3 * (stories - 1) + 1)))"
[ "$n" -eq "$steps" ] || fail "$n rows against OpenSees, expected $steps"
echo "fe_large_frame.sh: roof x: largest difference from OpenSees $d m (peak $p m)"
awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 1e-4 && d <= 1e-6 * p) }' ||
    fail "the histories differ by $d m (peak $p m)"
