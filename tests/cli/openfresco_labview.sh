#!/usr/bin/env bash
# expControl LabVIEW in a script (docs/openfresco.md, "Networked sites in scripts"): OpenFresco's
# EXAMPLES/OneBayFrame/TestLabVIEW/OneBayFrame_Local.tcl, whose right column (element 2) is on
# `expControl LabVIEW 2 "127.0.0.1" 11997 -trialCP 1 -outCP 2` ("use with NEES-SAM"), run
# 1. by hysim (its nees:// client, src/opensees/opensees_tcl_exp_labview.c) against `hysim site`
#    serving NEES with a perfect virtual lab, and
# 2. when OPENFRESCO_OPENSEES is set, by OpenFresco 2.8's own ECLabVIEW against a fresh site of
#    the same kind; 2.8's parser stops at the script's `expControlPoint 1 -node 3 ux disp ...`
#    (it wants numeric DOFs), so that copy has `1` for `ux`: that copy is the peer's script;
# and its TestLabVIEW/SDOF_MiniMost_Local.tcl by hysim against a site of its Elastic 2453 (1b below),
# each compared with the script's SimUniaxialMaterials form (its own commented line
# `expControl SimUniaxialMaterials 2 2; # use for simulation`) run by hysim: every recorder file
# equal to the NEES text's precision: 1e-12 of each column's peak for hysim's client (17 digits
# both ways; measured 1.6e-15), 1e-8 for ECLabVIEW (its commands %.10E; measured 4.3e-11). The lab: one actuator on MDL-00-01's x displacement, a linear spring of
# 5.6 / (0.003 * 7/18) = 4800 (the control points' factors: the command is 0.003 of the
# actuator's displacement, the force read back 7/18 of the lab's), so the column is Elastic 5.6
# as in the twin. Copies only change the port (and `ux`), and the recorders to -precision 16.
# Every site and client is stopped and the folder removed on exit, also on failure. Needs
# OPENFRESCO_SRC (skipped otherwise). Usage: openfresco_labview.sh hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
src=${OPENFRESCO_SRC:-}/EXAMPLES/OneBayFrame/TestLabVIEW
if [ -z "${OPENFRESCO_SRC:-}" ] || [ ! -f "$src/OneBayFrame_Local.tcl" ]; then
    echo "$me: SKIP: no OpenFresco source (set OPENFRESCO_SRC=/path/to/openfresco)"
    exit 0
fi
pids_dir
script=OneBayFrame_Local.tcl

# site NAME K: `hysim site` with a NEES port over a perfect spring K; sets $port and $last
site() {
    cat > "$dir/$1.yaml" << YAML
site:
  name: $1
  listen: "127.0.0.1:0"
  plain: true
  rate: 1000
  perfect: true
  actuators: {a1: {stroke: 1}}
  specimen: {type: linear, K: [[$2]]}
  nees: {port: 0, allow: [127.0.0.1], step_time: 0.001}
YAML
    "$hysim" site --config "$dir/$1.yaml" > "$dir/$1.out" 2> "$dir/$1.log" &
    last=$!
    pids+=("$last")
    port=""
    for _ in $(seq 1 200); do
        port=$(sed -n 's/.*, \([0-9]*\) (NEES, no authentication).*/\1/p' "$dir/$1.out" | head -1)
        [ -n "$port" ] && break
        sleep 0.05
    done
    [ -n "$port" ] || fail "site $1 did not start"
}

# copy NAME SED...: the example's folder in $dir/NAME/src, its script through the sed expressions
copy() {
    local name=$1
    shift
    mkdir -p "$dir/$name/src"
    cp -r "$src"/. "$dir/$name/src/"
    precise "$src/$script" | sed -E -e 's/\r$//' "$@" > "$dir/$name/src/$script"
}

# check RUN TWIN LABEL TOL: RUN's recorder files against TWIN's, TOL of each column's peak
check() {
    local f w n=0 worst_all=0
    for f in Node_Dsp.out Node_Vel.out Node_Acc.out Elmt_Frc.out; do
        [ -f "$1/$f" ] || fail "$1: no $f"
        w=$(worst "$1/$f" "$2/$f" | tail -1)
        [ "$w" != rows ] || fail "$1: $f: another shape than the twin's"
        awk -v a="$w" -v t="$4" 'BEGIN { exit !(a <= t) }' || fail "$1: $f: $w of the peak from the twin (bound $4)"
        awk -v a="$w" -v b="$worst_all" 'BEGIN { exit !(a > b) }' && worst_all=$w
        n=$((n + 1))
    done
    echo "$me: $3: $n recorder files equal to the SimUniaxialMaterials twin, worst $worst_all of the peak"
}

lv='s/^([ \t]*expControl[ \t]+LabVIEW[ \t]+2[ \t]+"127\.0\.0\.1"[ \t]+)11997/\1PORT/'
copy twin -e 's/^([ \t]*expControl[ \t]+LabVIEW[ \t]+2[ \t].*)$/expControl SimUniaxialMaterials 2 2/'
hysim_run "$dir/twin" "$script" || fail "the twin: $(tail -3 "$dir/twin/err.log")"
peak=$(awk '{ x = $2 < 0 ? -$2 : $2; if (x > p) p = x } END { print p + 0 }' "$dir/twin/run/Node_Dsp.out")
awk -v p="$peak" 'BEGIN { exit !(p > 0.5) }' || fail "the twin hardly moves (node 3 ux peak $peak)"

# 1. hysim's nees:// client
site hs-lab 4800
copy hs -e "$lv" -e "s/PORT/$port/"
grep -q "LabVIEW 2 \"127.0.0.1\" $port " "$dir/hs/src/$script" || fail "no LabVIEW line to point at the site"
hysim_run "$dir/hs" "$script" || fail "hysim: $(tail -3 "$dir/hs/err.log")"
check "$dir/hs/run" "$dir/twin/run" "hysim's client (node 3 ux peak $peak in)" 1e-12 # 17 digits both ways
kill "$last" 2> /dev/null

# 1b. TestLabVIEW/SDOF_MiniMost_Local.tcl (one column on `expControl LabVIEW 1`, control points
# in the older form with the node after the tag, `expControlPoint 1 2 ux disp -lim -0.01 0.01`,
# factors 1) against a site of its Elastic 2453, and its SimUniaxialMaterials form (its commented
# line `expControl SimUniaxialMaterials 1 1`); both copies ask `eigen` for the 1 mode the model
# has, not 2 (hysim refuses more modes than DOFs with mass)
script=SDOF_MiniMost_Local.tcl
mm_eigen='s/eigen -fullGenLapack 2\]/eigen -fullGenLapack 1]/'
copy mmtwin -e "$mm_eigen" -e 's/^([ \t]*expControl[ \t]+LabVIEW[ \t]+1[ \t].*)$/expControl SimUniaxialMaterials 1 1/'
hysim_run "$dir/mmtwin" "$script" || fail "the MiniMost twin: $(tail -3 "$dir/mmtwin/err.log")"
site mm-lab 2453
copy mm -e "$mm_eigen" -e 's/^([ \t]*expControl[ \t]+LabVIEW[ \t]+1[ \t]+"127\.0\.0\.1"[ \t]+)11997/\1PORT/' -e "s/PORT/$port/"
grep -q "LabVIEW 1 \"127.0.0.1\" $port " "$dir/mm/src/$script" || fail "no LabVIEW line in $script"
hysim_run "$dir/mm" "$script" || fail "SDOF_MiniMost: $(tail -3 "$dir/mm/err.log")"
mpeak=$(awk '{ x = $2 < 0 ? -$2 : $2; if (x > p) p = x } END { print p + 0 }' "$dir/mm/run/Node_Dsp.out")
check "$dir/mm/run" "$dir/mmtwin/run" "SDOF_MiniMost (node 2 ux peak $mpeak mm, within its -lim 0.01)" 1e-12
kill "$last" 2> /dev/null
script=OneBayFrame_Local.tcl

# 2. OpenFresco 2.8's ECLabVIEW (its setup asks Enter twice: given on stdin; it writes
# ECLabVIEW.log in its folder)
if [ -z "${OPENFRESCO_OPENSEES:-}" ] || [ ! -x "${OPENFRESCO_OPENSEES:-}" ]; then
    echo "$me: SKIP (OpenFresco's ECLabVIEW): set OPENFRESCO_OPENSEES to an OpenSees that can loadPackage OpenFresco"
    echo "$me: PASS"
    exit 0
fi
site of-lab 4800
copy of -e "$lv" -e "s/PORT/$port/" -e 's/^([ \t]*expControlPoint[ \t].*[ \t])ux([ \t])/\11\2/' \
    -e 's/^([ \t]*expControlPoint[ \t].*[ \t])ux([ \t])/\11\2/'
grep -q ' ux ' "$dir/of/src/$script" && fail "the peer's copy still has ux"
lib=$(dirname "$OPENFRESCO_OPENSEES")
printf '\n\n\n\n' > "$dir/enter.txt"
(cd "$dir/of/src" && LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
    exec timeout 600 "$OPENFRESCO_OPENSEES" "$script" > of.out 2> of.err < "$dir/enter.txt") &
pids+=("$!")
wait "$!" || fail "OpenFresco's ECLabVIEW stopped: $(tail -3 "$dir/of/src/of.err")"
grep -q "WARNING - Control command exceeds the limits" "$dir/of/src/of.err" && fail "OpenFresco's command went beyond the limits"
grep -q "^execute" "$dir/of/src/ECLabVIEW.log" || fail "ECLabVIEW sent no execute"
check "$dir/of/src" "$dir/twin/run" "OpenFresco 2.8's ECLabVIEW ($(grep -c '^propose' "$dir/of/src/ECLabVIEW.log") proposes)" 1e-8 # %.10E
echo "$me: PASS"
