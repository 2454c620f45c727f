#!/usr/bin/env bash
# The NEES ASCII protocol both ways on loopback (docs/nees.md):
# 1. `hysim site` with a NEES port, driven by tests/support/nees_client.py (written from
#    PROTOCOL-NEES.md) in the UI-SimCor style (CR LF), the ECLabVIEW style (one line per read,
#    below 512 bytes, no TAB before the EOL, a target beyond the stroke declined) and LabView2:
#    the targets reported bit for bit and forces k x to 1e-12.
# 2. hysim against hysim: a two-story frame whose two story springs are one lab's two actuators,
#    each on its own control point, run through nees:// against `hysim site` equals the
#    in-process virtual-lab run bit for bit (perfect lab: the target is reached exactly, f = K x
#    exactly, and 17 significant digits carry every double exactly both ways).
# 3. hysim against tests/support/nees_fake_lab.py (written from the document): an OM-style lab
#    (CR LF, all 12 values, external sensors after an empty field and a trailing TAB, LabVIEW's
#    7-digit %E, `:LBCB1` suffixes): the response within
#    5e-7 of the peak of the in-process run (each reported force rounded to 7 digits, relative
#    error <= 5e-7: the damped frame's response to those errors stays at that relative size);
#    LabView2 with exact numbers: bit for bit; an execute taking 1.5 s with site_timeout 1 s but
#    execute_timeout 5 s: completes; NOK on a propose, ERROR on an execute, an execute beyond
#    execute_timeout: `hysim run` exits 3, summary.json says aborted with the lab's words, and
#    every step before is kept.
# Usage: nees.sh PATH_TO_hysim
set -u
hysim=${1:?usage: nees.sh PATH_TO_hysim}
if ! command -v python3 >/dev/null 2>&1; then
    echo "nees.sh: SKIP: python3 is not available to play the NEES peers"
    exit 0
fi
src=${HS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
client="$src/tests/support/nees_client.py"
fake="$src/tests/support/nees_fake_lab.py"
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/lab_procs.sh"

# ---- 1. hysim site answering NEES clients ----
site_file() { # NAME MODE CONTROL_POINTS
    cat > "$dir/$1.yaml" <<YAML
site:
  name: $1
  listen: "127.0.0.1:0"
  plain: true
  rate: 1000
  perfect: true
  actuators: {a1: {stroke: 5}, a2: {stroke: 5}}
  specimen: {type: linear, K: [[$4, 0], [0, $5]]}
  nees:
    port: 0
    allow: [127.0.0.1]
    mode: $2
    step_time: 0.005
    control_points:
$3
YAML
}
start_site() { # NAME -> nees_port_NAME
    "$hysim" site --config "$dir/$1.yaml" > "$dir/$1.out" 2> "$dir/$1.log" &
    pids+=($!)
    local port=""
    for _ in $(seq 1 100); do
        port=$(sed -n 's/.*, \([0-9]*\) (NEES, no authentication).*/\1/p' "$dir/$1.out" | head -1)
        [ -n "$port" ] && break
        sleep 0.05
    done
    [ -n "$port" ] || fail "site $1 did not start"
    grep -q "NO authentication" "$dir/$1.log" || fail "site $1 did not warn that NEES is unauthenticated"
    eval "nees_port_$1=$port"
}
one_cp="      MDL-00-01: {dofs: [x displacement, z rotation], actuators: [a1, a2]}"
site_file lv1 labview1 "$one_cp" 100 5000
site_file lv2 labview2 "$one_cp" 100 5000
start_site lv1
start_site lv2
python3 "$client" --port "$nees_port_lv1" --style uisimcor --eol crlf --steps 5 > "$dir/c1.log" 2>&1 ||
    fail "UI-SimCor-style client: $(tail -1 "$dir/c1.log")"
python3 "$client" --port "$nees_port_lv1" --style openfresco --steps 5 --beyond 6 > "$dir/c2.log" 2>&1 ||
    fail "ECLabVIEW-style client: $(tail -1 "$dir/c2.log")"
python3 "$client" --port "$nees_port_lv2" --mode labview2 --steps 5 > "$dir/c3.log" 2>&1 ||
    fail "LabView2 client: $(tail -1 "$dir/c3.log")"
grep -q "declined" "$dir/lv1.log" || fail "the site did not log the declined target"
echo "nees.sh: hysim site answered UI-SimCor (CR LF), ECLabVIEW (a target beyond the stroke declined) and LabView2 clients"

# ---- 2. hysim against hysim ----
test_file() { # FILE SITE STEPS
    two_story_file "$1" nees "$3" 1 lab lab a2 "$2"
}
remote() { # PORT CP1 CP2 [EXTRA NEES KEYS]
    printf '  lab:\n    kind: remote\n    url: "nees://127.0.0.1:%s"\n    actuators: {a1: {}, a2: {}}\n' "$1"
    printf '    nees:\n%s      control_points:\n' "${4:-}"
    printf '        "%s": {dofs: [x displacement], actuators: [a1]}\n' "$2"
    printf '        "%s": {dofs: [x displacement], actuators: [a2]}\n' "$3"
}
steps=300
test_file "$dir/local.yaml" "  lab: {kind: virtual, perfect: true, actuators: {a1: {}, a2: {}}, specimen: {type: linear, K: [[1.0, 0], [0, 0.5]]}}" $steps
"$hysim" run "$dir/local.yaml" -o "$dir/local" --quiet > "$dir/local.log" 2>&1 || fail "in-process run exited $?"
site_file hh labview1 "      MDL-00-01: {dofs: [x displacement], actuators: [a1]}
      MDL-00-02: {dofs: [x displacement], actuators: [a2]}" 1.0 0.5
start_site hh
test_file "$dir/hh.yaml" "$(remote "$nees_port_hh" MDL-00-01 MDL-00-02)" $steps
"$hysim" run "$dir/hh.yaml" -o "$dir/hh" --quiet > "$dir/hh_run.log" 2>&1 || fail "nees:// run against hysim site exited $?"
grep -q '"status": "completed"' "$dir/hh/summary.json" || fail "nees:// run not completed"
read -r diff peak <<< "$(max_diff local hh)"
awk -v p="$peak" 'BEGIN { exit !(p > 0.1) }' || fail "the record hardly moves the frame (peak $peak mm)"
cmp -s "$dir/local/response.csv" "$dir/hh/response.csv" ||
    fail "nees:// against hysim site differs from the in-process run by $diff mm (peak $peak mm)"
echo "nees.sh: $steps steps through nees:// against hysim site: bit for bit the in-process run (peak $peak mm)"

# ---- 3. hysim against the fake lab ----
start_fake() { # NAME ARGS... -> fake_port_NAME
    local name=$1
    shift
    python3 "$fake" --accept-timeout 20 --idle-timeout 20 --log "$dir/fake_$name.log" \
        --spring "MDL-00-01:LBCB1,x,displacement,1.0" --spring "MDL-00-01:LBCB2,x,displacement,0.5" \
        "$@" > "$dir/fake_$name.out" 2>&1 &
    pids+=($!)
    local port
    port=$(printed_port "$dir/fake_$name.out" 's/^PORT \([0-9]*\)$/\1/p')
    [ -n "$port" ] || fail "fake lab $name did not start"
    eval "fake_port_$name=$port"
}
run_fake() { # NAME STEPS [EXTRA NEES KEYS] -> exit code in rc
    local p
    eval "p=\$fake_port_$1"
    test_file "$dir/$1.yaml" "$(remote "$p" MDL-00-01:LBCB1 MDL-00-01:LBCB2 "${3:-}")" "$2"
    "$hysim" run "$dir/$1.yaml" -o "$dir/$1" --quiet > "$dir/$1_run.log" 2>&1
    rc=$?
}
start_fake om --all12 --eol crlf --format om --sensors
run_fake om $steps
[ "$rc" -eq 0 ] || fail "run against the OM-style fake lab exited $rc"
read -r diff peak <<< "$(max_diff local om)"
awk -v d="$diff" -v p="$peak" 'BEGIN { exit !(d <= 5e-7 * p) }' ||
    fail "OM-style lab: largest difference $diff mm above 5e-7 of the peak $peak mm"
grep -q "MDL-00-01:LBCB2" "$dir/fake_om.log" || fail "the fake lab saw no LBCB2 point"
grep -q 'ME_LC_1X.*\\t\\r\\n' "$dir/fake_om.log" || fail "the fake lab sent no sensor triplets"
echo "nees.sh: OM-style fake lab (CR LF, 12 values and sensors, 7 digits): largest difference $diff mm of a $peak mm peak (bound 5e-7 of the peak)"

start_fake lv2 --labview2 --eol lf --format exact
run_fake lv2 $steps "      mode: labview2
"
[ "$rc" -eq 0 ] || fail "run against the LabView2 fake lab exited $rc"
cmp -s "$dir/local/response.csv" "$dir/lv2/response.csv" ||
    fail "LabView2 fake lab (exact numbers) differs from the in-process run"
echo "nees.sh: LabView2 fake lab with exact numbers: bit for bit the in-process run"

start_fake slow --execute-delay 1.5 --delay-at 5
run_fake slow 20 "      execute_timeout: 5
"
[ "$rc" -eq 0 ] || fail "an execute of 1.5 s (site_timeout 1, execute_timeout 5) stopped the run: $(tail -2 "$dir/slow_run.log")"
echo "nees.sh: an execute answered after 1.5 s (site_timeout 1 s, execute_timeout 5 s): completed"

aborted() { # NAME STEPS_KEPT WORDS
    [ "$rc" -eq 3 ] || fail "$1: hysim run exited $rc, expected 3 (aborted)"
    grep -q '"status": "aborted"' "$dir/$1/summary.json" || fail "$1: summary.json does not say aborted"
    grep -q "$3" "$dir/$1/summary.json" || fail "$1: the reason lacks '$3': $(grep reason "$dir/$1/summary.json")"
    local rows=$(($(wc -l < "$dir/$1/response.csv") - 1))
    [ "$rows" -eq "$2" ] || fail "$1: response.csv keeps $rows rows, expected $2"
}
start_fake nok --fail-at 30 --fail-on propose --error-token NOK
run_fake nok 100
aborted nok 30 "NOK 1 trans-hysim-30 Propose Declined"
start_fake err --fail-at 12 --fail-on execute --error-token ERROR
run_fake err 100
aborted err 12 "ERROR 1 trans-hysim-12 Actuator interlock"
start_fake hang --execute-delay 3 --delay-at 3
run_fake hang 20 "      execute_timeout: 1
"
aborted hang 3 "the execute of step 3: no answer within 1 s"
echo "nees.sh: NOK on propose 30, ERROR on execute 12, execute 3 beyond execute_timeout: exit 3, aborted with the lab's words, steps kept (30, 12, 3 rows)"

# ---- 4. the test file's `nees` section: errors with FILE:LINE:COL, exit 2 ----
check_bad() { # SITE_YAML EXPECTED
    test_file "$dir/bad.yaml" "$1" 10
    local out
    out=$("$hysim" check "$dir/bad.yaml" 2>&1)
    local rc=$?
    [ "$rc" -eq 2 ] || fail "hysim check exited $rc on a bad nees section, expected 2: $out"
    echo "$out" | grep -q "bad.yaml:[0-9]*:[0-9]*: .*$2" || fail "expected '$2' with FILE:LINE:COL, got: $out"
}
check_bad '  lab: {kind: remote, url: "hysim://127.0.0.1:9", plain: true, actuators: {a1: {}, a2: {}}, nees: {mode: labview1}}' \
    "only a site at nees://HOST:PORT has a nees section"
check_bad '  lab: {kind: remote, url: "nees://127.0.0.1:9", actuators: {a1: {}, a2: {}}, nees: {port: 5}}' \
    "unknown key 'port' in sites.lab.nees"
check_bad '  lab: {kind: remote, url: "nees://127.0.0.1:9", key: k.key, actuators: {a1: {}, a2: {}}}' \
    "an OpenFresco server, OpenSees adapter or NEES lab speaks plain"
check_bad '  lab: {kind: remote, url: "nees://127.0.0.1:9", actuators: {a1: {}, a2: {}}, nees: {execute_timeout: 0}}' \
    "execute_timeout: must be > 0"
echo "nees.sh: bad nees sections in test files: exit 2 with FILE:LINE:COL"
