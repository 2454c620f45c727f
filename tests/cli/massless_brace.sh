#!/usr/bin/env bash
# Experimental elements on DOFs without mass (issue 19, item 1; docs/integrators.md,
# "Experimental DOFs without mass"): examples/braced_frame_diagonal.yaml, a portal frame whose
# diagonal brace (node 1 to node 4) is tested through one actuator along it, T = [c, s] on node
# 4's x (mass) and y (no mass), against its numerical twin, the same frame with the brace as a
# two_node_link of the same material (node 4 y then condensed as every massless DOF is).
#   - linear brace (40000 kN/m) at a perfect lab: every integrator that takes DOFs without mass
#     (newmark, hht, alpha_os, os_tangent, implicit_hht_fe with fallback os_tangent) equals the
#     twin to 1e-12 of the peak (the kept DOF solved statically is the condensation; the damping
#     is built on the condensed stiffness in both);
#   - Bouc-Wen brace: the hybrid split (the specimen's force linearised about the command with
#     K0 + Ke, committed at the command) is another, equally valid solution: each within 3 % of
#     the peak of the twin, and os_tangent's difference falls with dt (halved: below 0.3 of it);
#   - the estimators work on those DOFs: os_tangent's tangent is updated (> 50 % of the steps),
#     implicit_hht_fe's forces estimated (> 50 % implicit steps);
#   - the same frame from an OpenSees Tcl script (structure.model.opensees) keeps node 4 uy too:
#     the same recorder file byte for byte;
#   - hysim check and hysim modes name n4_uy; the explicit methods, ghaboussi_pc and
#     implicit_hht_fe with its explicit fallback are refused (exit 2) with the reason and the list
#     of the integrators that can.
# Usage: massless_brace.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/frame_models.sh"
src=${HS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
work_dir
[ -n "${KEEP:-}" ] && { trap - EXIT; echo "massless_brace: keeping $dir"; }

example="$src/examples/braced_frame_diagonal.yaml"
[ -f "$example" ] || fail "no $example"
# hybrid INTEGRATOR SPECIMEN (linear | bouc_wen) [HALVE]: the example with that integrator
hybrid() {
    local spec='{type: material, material: [brace]}'
    [ "$2" = linear ] && spec='{type: linear, K: [[40000]]}'
    sed -e "s/^  integrator: .*/  integrator: $1/" -e "s/^    specimen: .*/    specimen: $spec/" \
        -e 's/^  dir: .*/  dir: out/' "$example" | halve "${3:-}"
}
# twin INTEGRATOR SPECIMEN [HALVE]: the brace as a two_node_link, no experimental element
twin() {
    local mat=$(grep -A1 '^  brace:' "$example")
    [ "$2" = linear ] && mat='  brace: {type: elastic, k: 40000}'
    hybrid "$1" "$2" "${3:-}" | awk -v mat="$mat" '
        /^experimental:/ || /^sites:/ { skip = 1; next }
        /^ground_motion:/ { skip = 0 }
        skip { next }
        /^materials:/ { print; print mat; drop = 1; next }
        drop && /^  brace:/ { next }
        drop && /^          delta_a/ { drop = 0; next }
        /name: beam,/ { print; print "      - {type: two_node_link, name: brace, nodes: [1, 4], dirs: [x], materials: [brace]}"; next }
        { print }'
}
# halve yes: dt / 2, twice the steps, the lab's rate doubled (one controller tick a step alike)
halve() {
    if [ "$1" = yes ]; then
        sed -e 's/^  dt: 0.009765625.*/  dt: 0.0048828125/' -e 's/^  steps: 1024/  steps: 2048/' \
            -e 's/rate: 1024/rate: 2048/'
    else cat; fi
}
run_pair() { # NAME INTEGRATOR SPECIMEN [HALVE]
    hybrid "$2" "$3" "${4:-}" > "$1_h.yaml"
    twin "$2" "$3" "${4:-}" > "$1_n.yaml"
    grep -q two_node_link "$1_n.yaml" && ! grep -q '^experimental:' "$1_n.yaml" || fail "$1: the twin was not built"
    "$hysim" run "$1_h.yaml" -o "$1_h" --quiet 2> err || fail "$1 hybrid run: $(cat err)"
    "$hysim" run "$1_n.yaml" -o "$1_n" --quiet 2> err || fail "$1 twin run: $(cat err)"
    [ "$(wc -l < "$1_h/recorders/joints.csv")" -gt 1000 ] || fail "$1: the run is too short"
}
diff_of() { response_diff "$1_n/recorders/joints.csv" "$1_h/recorders/joints.csv"; }

methods=("newmark:{type: newmark}" "hht:{type: hht, alpha: -0.05}"
    "alpha_os:{type: alpha_os, alpha: -0.05}" "os_tangent:{type: os_tangent}"
    "implicit_hht_fe:{type: implicit_hht_fe, fallback: os_tangent}")
for m in "${methods[@]}"; do
    name=${m%%:*} integ=${m#*:}
    run_pair "lin_$name" "$integ" linear
    same_response "$name, linear brace: hybrid vs twin" "lin_${name}_n/recorders/joints.csv" \
        "lin_${name}_h/recorders/joints.csv" 1e-12 1e-3 || fail "$name: the hybrid run differs from its twin"
    run_pair "bw_$name" "$integ" bouc_wen
    same_response "$name, Bouc-Wen brace: hybrid vs twin" "bw_${name}_n/recorders/joints.csv" \
        "bw_${name}_h/recorders/joints.csv" 0.03 1e-3 || fail "$name: the Bouc-Wen hybrid run is more than 3 % off its twin"
done
# the hybrid core's estimators ran on the DOFs: os_tangent updated its tangent from the measured
# increments, implicit_hht_fe estimated the forces (few fallbacks)
hyb() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['hybrid'][sys.argv[2]])" "$1" "$2"; }
up=$(hyb bw_os_tangent_h/summary.json stiffness_update_percent)
imp=$(hyb bw_implicit_hht_fe_h/summary.json implicit_percent)
echo "Bouc-Wen: os_tangent updated its tangent at $up % of the steps; implicit_hht_fe estimated the forces at $imp %"
awk -v u="$up" -v i="$imp" 'BEGIN { exit !(u > 50 && i > 50) }' || fail "the estimators did not run ($up %, $imp %)"
# node 4 uy moves (the DOF is really in the response: the brace's vertical component)
uy=$(awk -F, 'NR > 1 { a = $5 < 0 ? -$5 : $5; if (a > m) m = a } END { print m + 0 }' lin_hht_h/recorders/joints.csv)
awk -v u="$uy" 'BEGIN { exit !(u > 1e-5) }' || fail "node 4 uy does not move ($uy)"
run_pair bw_half "{type: os_tangent}" bouc_wen yes
read -r d1 p1 <<< "$(diff_of bw_os_tangent)"
read -r d2 p2 <<< "$(diff_of bw_half)"
echo "os_tangent, Bouc-Wen: difference $d1 at dt, $d2 at dt/2 (peak $p1)"
awk -v a="$d1" -v b="$d2" 'BEGIN { exit !(b < 0.3 * a) }' || fail "os_tangent's difference does not fall with dt ($d1, $d2)"

# the same frame read from an OpenSees Tcl script (structure.model.opensees): the control point
# keeps node 4 uy there too, and the run is the YAML frame's bit for bit
brace_portal_tcl > frame.tcl # lib/frame_models.sh
tcl_twin lin_hht_h.yaml frame.tcl | sed 's/^  model: {opensees: frame.tcl}/  model: {opensees: frame.tcl, excitation: x}/' > tcl.yaml
grep -q "opensees: frame.tcl, excitation: x" tcl.yaml || fail "the Tcl test file was not built"
"$hysim" run tcl.yaml -o tcl --quiet 2> err || fail "Tcl model run: $(cat err)"
cmp -s tcl/recorders/joints.csv lin_hht_h/recorders/joints.csv ||
    fail "the Tcl model's run differs from the YAML frame's: $(response_diff tcl/recorders/joints.csv lin_hht_h/recorders/joints.csv)"
echo "the frame from a Tcl script: the same joints.csv byte for byte"

# check and modes name the DOF; the integrators that cannot take it are refused
"$hysim" check "$example" > out 2> err || fail "check: $(cat err)"
grep -q "^experimental DOFs without mass (1, solved statically, no period): n4_uy; taken by newmark, hht, alpha_os, os_tangent, implicit_hht_fe" out ||
    fail "check does not name the DOF: $(cat out)"
"$hysim" modes "$example" > out 2> err || fail "modes: $(cat err)"
grep -q "3 = n4_uy (.*1 kept without mass for experimental elements)" out || fail "modes: $(cat out)"
grep -q "(a DOF without mass: static)" out || fail "modes prints a period for the DOF without mass: $(cat out)"
for integ in central_difference newmark_explicit cr kr_alpha ghaboussi_pc; do
    hybrid "{type: $integ}" bouc_wen > bad.yaml
    "$hysim" check bad.yaml > out 2> err
    [ $? -eq 2 ] || fail "$integ: check did not refuse it"
    grep -q "bad.yaml:[0-9]*:[0-9]*: analysis.integrator: '$integ' cannot take the experimental DOFs without mass (1, n4_uy first): .*; use one that can (newmark, hht, alpha_os, os_tangent, implicit_hht_fe;" err ||
        fail "$integ: $(cat err)"
done
echo "refused: $(cat err)"
hybrid "{type: implicit_hht_fe}" bouc_wen > bad.yaml
"$hysim" check bad.yaml > out 2> err
[ $? -eq 2 ] && grep -q "add 'fallback: os_tangent'" err || fail "implicit_hht_fe's explicit fallback: $(cat err)"
echo "massless_brace: ok"
