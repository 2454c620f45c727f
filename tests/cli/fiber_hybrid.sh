#!/usr/bin/env bash
# Hybrid on a nonlinear fiber frame (issue 18, item 8): the 3-story, 3-bay RC frame of
# forceBeamColumn members of bench/opensees/rc_frame_3x3.tcl (its model part, read by hysim's Tcl
# front end; the test file gives the record, the damping and the analysis), with a first-story
# brace (40,000 kN/m along x at node 11) either as a zeroLength spring in the script (the
# numerical twin) or as an experimental element at a perfect virtual lab. The two equal each
# other to round-off for alpha-OS, CR, Newmark and HHT (Newton on the fiber frame; their
# relative tolerance 1e-6: the force-based elements' own state determination leaves the global
# residual at about 1e-10 kN, which a relative 1e-10 of a first step's tiny load cannot pass), and
# through `hysim site` (native protocol) with alpha-OS.
# Usage: fiber_hybrid.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/two_story_lab.sh"
src=${HS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
work_dir
pids=()
stop_sites() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
}
trap 'stop_sites; rm -rf "$dir"' EXIT

awk '/^# gravity/ { exit } { print }' "$src/bench/opensees/rc_frame_3x3.tcl" > frame.tcl
grep -q 'element forceBeamColumn' frame.tcl || fail "frame.tcl: no forceBeamColumn in $(wc -l < frame.tcl) lines"
{ cat frame.tcl; cat <<'TCL'
node 100 0.0 0.0
fix 100 1 1 1
uniaxialMaterial Elastic 10 40000.0
element zeroLength 100 100 11 -mat 10 -dir 1
TCL
} > twin.tcl
test_file() { # NAME SCRIPT INTEGRATOR
    cat <<YAML
hysim: 1
name: $1
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: $2}
  damping: {rayleigh: {modes: [1, 3], ratios: [0.02, 0.02]}}
ground_motion:
  synthetic: {seed: 7, pga: 4.0, duration: 4, dt: 0.01}
analysis:
  integrator: $3
  dt: 0.001953125
  steps: 200
YAML
}
brace='experimental:
  - {name: brace, site: lab, control_point: {node: 11, dofs: [x]}, actuators: [act]}'
for integ in "alpha_os" "cr" "newmark:{type: newmark, tol: 1.0e-6}" "hht:{type: hht, alpha: -0.1, tol: 1.0e-6}"; do
    name=${integ%%:*}
    spec=${integ#*:}
    [ "$spec" = "$integ" ] && spec="{type: $name}"
    test_file "twin_$name" twin.tcl "$spec" > "twin_$name.yaml"
    { test_file "hyb_$name" frame.tcl "$spec"; cat <<YAML
$brace
sites:
  lab:
    kind: virtual
    rate: 1024
    perfect: true
    actuators: {act: {}}
    specimen: {type: linear, K: [[40000.0]]}
YAML
    } > "hyb_$name.yaml"
    for k in twin hyb; do
        "$hysim" run "${k}_$name.yaml" -o "${k}_$name" --quiet 2> "${k}_$name.log" ||
            fail "$k $name: $(tail -2 "${k}_$name.log")"
    done
    same_response "fiber frame, $name: experimental brace vs zeroLength twin" "twin_$name/response.csv" \
        "hyb_$name/response.csv" 1e-12 1e-3 || fail "the hybrid fiber frame ($name) differs from its twin"
done

# the brace behind `hysim site`
umask 077
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > lab.key
cat > site.yaml <<YAML
hysim: 1
site:
  name: lab
  listen: "127.0.0.1:0"
  key: lab.key
  rate: 1024
  perfect: true
  actuators: {act: {}}
  specimen: {type: linear, K: [[40000.0]]}
YAML
"$hysim" site --config site.yaml > site.out 2> site.log &
pids+=($!)
port=$(site_port site)
[ -n "$port" ] || fail "hysim site did not start: $(cat site.log)"
{ test_file remote frame.tcl "{type: alpha_os}"; cat <<YAML
experimental:
  - {name: brace, site: lab, control_point: {node: 11, dofs: [x]}, actuators: [act],
     initial_stiffness: [[40000.0]]}
sites:
  lab: {kind: remote, url: "hysim://127.0.0.1:$port", key: lab.key, actuators: {act: {}}}
YAML
} > remote.yaml
"$hysim" run remote.yaml -o remote --quiet 2> remote.log || fail "remote run: $(tail -3 remote.log) $(tail -5 site.log)"
late=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['sites'][0]; print(s['slow_percent'], s['hold_percent'])" remote/summary.json)
if [ "$late" = "0 0" ]; then
    same_response "fiber frame behind hysim site vs twin" twin_alpha_os/response.csv remote/response.csv 1e-12 1e-3 ||
        fail "the fiber frame through hysim site differs from its twin"
else # a loaded machine slowed or held the site: the same path, a looser bound
    same_response "fiber frame behind hysim site (slow/hold $late %)" twin_alpha_os/response.csv remote/response.csv 0.1 1e-3 ||
        fail "the fiber frame through hysim site differs from its twin by more than 10 % of the peak"
fi
echo "$me: OK"
