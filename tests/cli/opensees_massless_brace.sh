#!/usr/bin/env bash
# The diagonal brace on a DOF without mass against the real peer (issue 19, item 1;
# docs/integrators.md, "Experimental DOFs without mass"): the portal frame of
# examples/braced_frame_diagonal.yaml (undamped, so that OpenSees' Rayleigh on every DOF and
# hysim's on the condensed stiffness do not differ) under a 2 Hz sine pulse, three ways:
#   - OpenSees 3.8 alone, the brace a twoNodeLink (node 4 uy without mass: OpenSees solves it
#     with zero mass, Newmark average acceleration, ModifiedNewton on the initial stiffness);
#   - OpenSees with the brace a genericClient (node 1 and 4, x and y) driving a perfect
#     `hysim site` over OpenFresco's protocol A (T = [-c, -s, c, s] to one actuator along the
#     brace, one controller tick a trial);
#   - hysim run of the test file: the brace an experimental element on node 4 x and massless y.
# Linear brace: all three agree to 1e-9 of the peak. Bouc-Wen brace (yield 5 mm): the
# genericClient run differs from OpenSees' own by what a physical specimen does (every trial
# committed, tests/cli/opensees_generic_client.sh), hysim's by its split (the force linearised
# about one command a step): both within 5 % of the peak.
# Needs OPENSEES=/path/to/OpenSees (skipped otherwise).
# Usage: opensees_massless_brace.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/frame_models.sh"
need_opensees
work_dir
pids=()
stop_sites() {
    for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
    wait 2> /dev/null
}
trap 'stop_sites; rm -rf "$dir"' EXIT
steps=500
sine_pulse rec.txt 3 2 2
c=0.88235294117647056 s=0.47058823529411764 # 6 / 6.8, 3.2 / 6.8

frame_tcl() { # FILE OUT BRACE (linear | bouc_wen) [PORT: the brace a genericClient]
    local mat="uniaxialMaterial Elastic 5 40000.0"
    [ "$3" = bouc_wen ] && mat="uniaxialMaterial BoucWen 5 0.05 40000.0 2.0 20000.0 20000.0 1.0 0.0 0.0 0.0 1.0e-12 50"
    local brace="$mat
element twoNodeLink 4 1 4 -mat 5 -dir 1"
    [ -n "${4:-}" ] && brace="element genericClient 4 -node 1 4 -dof 1 2 -dof 1 2 -server $4 127.0.0.1"
    cat > "$1" << TCL
$(brace_portal_tcl)
$brace
timeSeries Path 2 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 2 1 -accel 2
recorder Node -file $2 -time -precision 16 -node 3 4 -dof 1 2 disp
system FullGeneral
numberer Plain
constraints Plain
test NormDispIncr 1.0e-12 100
algorithm ModifiedNewton -initial
integrator Newmark 0.5 0.25
analysis Transient
analyze $steps 0.01
wipe
TCL
}
frame_yaml() { # FILE BRACE
    local spec="{type: linear, K: [[40000]]}"
    [ "$2" = bouc_wen ] && spec="{type: material, material: [brace]}"
    cat > "$1" << YAML
hysim: 1
name: opensees-massless-brace
units: {force: kN, length: m, time: s}
structure:
  model:
    nodes:
      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}
      - {id: 2, x: 6, y: 0, fix: [1, 1, 1]}
      - {id: 3, x: 0, y: 3.2, mass: [40, 0, 0]}
      - {id: 4, x: 6, y: 3.2, mass: [40, 0, 0]}
    elements:
      - {type: elastic_beam, nodes: [1, 3], E: 200e6, A: 0.01, I: 1e-4}
      - {type: elastic_beam, nodes: [2, 4], E: 200e6, A: 0.01, I: 1e-4}
      - {type: elastic_beam, nodes: [3, 4], E: 200e6, A: 0.01, I: 2e-4}
    excitation: x
  damping: {none: true}
materials:
  brace: {type: bouc_wen, alpha: 0.05, k0: 40000, n: 2, gamma: 20000, beta: 20000, A0: 1,
          delta_a: 0, delta_nu: 0, delta_eta: 0}
experimental:
  - {name: brace, site: lab, control_point: {node: 4, dofs: [x, y]}, actuators: [act],
     T: [[$c, $s]]}
sites:
  lab: {kind: virtual, rate: 1024, perfect: true, actuators: {act: {}}, specimen: $spec}
ground_motion: {file: rec.txt, format: columns, dt: 0.01}
analysis:
  integrator: {type: newmark, tol: 1e-12}
  dt: 0.01
  steps: $steps
  initial_acceleration: zero
output:
  recorders:
    - {name: joints, node: [3, 4], dofs: [x, y], response: disp}
YAML
}
start_site() { # NAME BRACE -> port_NAME
    local spec="{type: linear, K: [[40000]]}"
    [ "$2" = bouc_wen ] && spec="{type: material, material: bw}"
    cat > "$1.yaml" << YAML
hysim: 1
materials:
  bw: {type: bouc_wen, alpha: 0.05, k0: 40000, n: 2, gamma: 20000, beta: 20000, A0: 1}
site:
  name: $1
  listen: "127.0.0.1:0"
  plain: true
  rate: 2000
  perfect: true
  actuators: {act: {stroke: 1}}
  specimen: $spec
  openfresco: {protocol_a: 0, T: [[-$c, -$s, $c, $s]], step_time: 0.0005}
YAML
    "$hysim" site --config "$1.yaml" > "$1.out" 2> "$1.log" &
    pids+=($!)
    local port=""
    for _ in $(seq 1 100); do
        port=$(sed -n 's/.*, \([0-9]*\) (OpenFresco A).*/\1/p' "$1.out" | head -1)
        [ -n "$port" ] && break
        sleep 0.05
    done
    [ -n "$port" ] || fail "site $1 did not start: $(cat "$1.log")"
    eval "port_$1=$port"
}
# diff OURS.out THEIRS.out: "MAXDIFF PEAK ROWS" over the four columns (OpenSees' recorders)
diff_os() {
    paste -d' ' "$1" "$2" | awk '{ n = NF / 2; for (i = 2; i <= n; i++) { d = $i - $(i + n); if (d < 0) d = -d
        if (d > m) m = d; a = $i < 0 ? -$i : $i; if (a > p) p = a } } END { printf "%.3g %.4g %d", m + 0, p + 0, NR }'
}
for brace in linear bouc_wen; do
    frame_tcl "os_$brace.tcl" "os_$brace.out" "$brace"
    run_opensees "os_$brace.tcl" "os_$brace.log" || fail "OpenSees ($brace) failed: $(tail -5 "os_$brace.log")"
    start_site "site_$brace" "$brace"
    eval "port=\$port_site_$brace"
    frame_tcl "gc_$brace.tcl" "gc_$brace.out" "$brace" "$port"
    run_opensees "gc_$brace.tcl" "gc_$brace.log" || fail "OpenSees genericClient ($brace) failed: $(tail -5 "gc_$brace.log")"
    frame_yaml "hy_$brace.yaml" "$brace"
    "$hysim" run "hy_$brace.yaml" -o "hy_$brace" --quiet 2> err || fail "hysim run ($brace): $(cat err)"
    read -r d_gc p rows <<< "$(diff_os "os_$brace.out" "gc_$brace.out")"
    [ "$rows" -eq "$steps" ] || fail "$brace: $rows OpenSees records, expected $steps"
    read -r d_hy p2 rows2 bad <<< "$(vs_opensees "hy_$brace/recorders/joints.csv" "os_$brace.out")"
    [ "$rows2" -eq "$steps" ] && [ "$bad" -eq 0 ] || fail "$brace: hysim's recorder and OpenSees' differ in rows or times"
    echo "$me: $brace brace: OpenSees genericClient -> hysim site vs OpenSees alone $d_gc m," \
        "hysim run vs OpenSees alone $d_hy m (peak $p m)"
    tol=1e-9
    [ "$brace" = bouc_wen ] && tol=0.05
    awk -v a="$d_gc" -v b="$d_hy" -v p="$p" -v t="$tol" 'BEGIN { exit !(p > 1e-3 && a <= t * p && b <= t * p) }' ||
        fail "$brace brace: a run is off OpenSees' own by more than $tol of the peak"
done
echo "$me: OK"
