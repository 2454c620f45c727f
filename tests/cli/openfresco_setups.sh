#!/usr/bin/env bash
# OpenFresco's setups with actuators in a script (docs/openfresco.md, "Setups"), on a perfect
# virtual laboratory (SimUniaxialMaterials): a column top (node 2: mass in x, y and rotation) is
# held by an expElement twoNodeLink from a fixed node at the same place (-dir 1 2 3) through
# `expSetup ThreeActuators2d` (left) or `TwoActuators2d` (right), linear geometry, one material a
# actuator (Steel01 on the horizontal one, Elastic on the others), under a two-component sine
# ground motion with Newmark and Newton. Its twin is the same model with the actuators as
# elements: each a twoNodeLink of its material along the actuator (-dir 1: the axial deformation
# from its fixed base node to its pin node, the stroke of the linearised setup), the pin nodes on
# node 2 by `rigidLink beam`. hysim runs both (the experimental script and the twin) and must
# agree to 1e-10 of each column's peak (node 2's displacements, the column's end forces); with
# OPENSEES set, OpenSees runs the twin too, to 1e-8. A third case holds node 2 by expElement
# generic (its absolute displacements) through ThreeActuators2d on the right, -phiLocX 30.
# Usage: openfresco_setups.sh hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
work_dir

# model SETUP_LINE TWIN_LINES: the script, with the experimental element (SETUP_LINE given) or
# its twin (TWIN_LINES given)
model() {
    cat <<TCL
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 0.0 120.0 -mass 0.2 0.2 400.0
node 3 0.0 120.0
fix 1 1 1 1
fix 3 1 1 1
geomTransf Linear 1
element elasticBeamColumn 1 1 2 20.0 29000.0 400.0 1
uniaxialMaterial Steel01 1 6.0 12.0 0.05
uniaxialMaterial Elastic 2 30.0
uniaxialMaterial Elastic 3 45.0
$1
timeSeries Sine 1 0.0 3.0 0.45 -factor 150.0
timeSeries Sine 2 0.0 3.0 0.3 -factor 80.0
pattern UniformExcitation 1 1 -accel 1
pattern UniformExcitation 2 2 -accel 2
recorder Node -file node2.out -time -precision 16 -node 2 -dof 1 2 3 disp
recorder Element -file column.out -time -precision 16 -ele 1 force
constraints Transformation
numberer Plain
system BandGeneral
test NormDispIncr 1.0e-14 30
algorithm Newton
integrator Newmark 0.5 0.25
analysis Transient
analyze 600 0.005
TCL
}

# The experimental element on its site (control 1: one material per actuator): a twoNodeLink
# from node 3, or (ELEMENT given) that element
exp_part() {
    printf 'expControl SimUniaxialMaterials 1 %s\nexpSetup %s\nexpSite LocalSite 1 1\n' "$1" "$2"
    printf '%s\n' "${3:-expElement twoNodeLink 10 3 2 -dir 1 2 3 -site 1}"
}

# case NAME SETUP MATS TWIN [ELEMENT]: runs both scripts in hysim (and the twin in OpenSees)
n=0
case_run() {
    local name=$1 c="$dir/$1"
    n=$((n + 1))
    mkdir -p "$c/exp/src" "$c/twin/src" "$c/os"
    model "$(exp_part "$3" "$2" "${5:-}")" > "$c/exp/src/model.tcl"
    model "$4" > "$c/twin/src/model.tcl"
    cp "$c/twin/src/model.tcl" "$c/os/model.tcl"
    hysim_run "$c/exp" model.tcl || fail "$name: hysim stopped on the experimental script: $(head -3 "$c/exp/err.log")"
    hysim_run "$c/twin" model.tcl || fail "$name: hysim stopped on the twin: $(head -3 "$c/twin/err.log")"
    local peak
    peak=$(awk 'NR > 1 { x = $2 < 0 ? -$2 : $2; if (x > p) p = x } END { print p + 0 }' "$c/exp/run/node2.out")
    awk -v p="$peak" 'BEGIN { exit !(p > 0.1) }' || fail "$name: the column top hardly moves (peak ux $peak in)"
    for f in node2.out column.out; do
        local w
        w=$(worst "$c/exp/run/$f" "$c/twin/run/$f" | tail -1)
        echo "$name: $f: hysim experimental vs hysim twin: $w of the peak (peak ux $peak in)"
        [ "$w" != rows ] && awk -v a="$w" 'BEGIN { exit !(a <= 1e-10) }' ||
            fail "$name: $f: the experimental element differs from its twin by $w of the peak"
    done
    have_opensees || return 0
    (cd "$c/os" && run_opensees model.tcl os.log) || fail "$name: OpenSees stopped: $(tail -3 "$c/os/os.log")"
    for f in node2.out column.out; do
        w=$(worst "$c/exp/run/$f" "$c/os/$f" | tail -1)
        echo "$name: $f: hysim experimental vs OpenSees twin: $w of the peak"
        [ "$w" != rows ] && awk -v a="$w" 'BEGIN { exit !(a <= 1e-8) }' ||
            fail "$name: $f: hysim's experimental element differs from OpenSees' twin by $w of the peak"
    done
}

# actuator TAG BASE_NODE BX BY PIN_NODE MAT: a fixed base node at (BX, BY) and the actuator
# element from it to the pin node
actuator() { printf 'node %s %s %s\nfix %s 1 1 1\nelement twoNodeLink %s %s %s -mat %s -dir 1\n' "$2" "$3" "$4" "$2" "$1" "$2" "$5" "$6"; }

# ThreeActuators2d La1 La2 La3 L1 L2 = 40 30 36 20 25, left: the horizontal actuator pinned at
# (-L1, 0) from the control point (0, 120), its base La1 further left; the vertical ones under
# (-L1, 0) and (L2, 0), bases La2 and La3 below.
case_run three_actuators_2d "ThreeActuators2d 1 -control 1 40.0 30.0 36.0 20.0 25.0" "1 2 3" "$(
    printf 'node 21 -20.0 120.0\nnode 22 25.0 120.0\nrigidLink beam 2 21\nrigidLink beam 2 22\n'
    actuator 11 31 -60.0 120.0 21 1
    actuator 12 32 -20.0 90.0 21 2
    actuator 13 33 25.0 84.0 22 3)"
# TwoActuators2d La1 La2 L = 40 45 30, right: horizontal actuators pinned at the control point
# and L above it, their bases La1 and La2 to the right.
case_run two_actuators_2d "TwoActuators2d 1 -control 1 40.0 45.0 30.0 -posAct right" "1 2" "$(
    printf 'node 21 0.0 150.0\nrigidLink beam 2 21\n'
    actuator 11 31 40.0 120.0 2 1
    actuator 12 32 45.0 150.0 21 2)"
# The same through expElement generic on node 2 (its absolute displacements), the setup on the
# right and turned by -phiLocX 30: its actuators turned by -30 degrees about the control point.
turned() { awk -v x="$1" -v y="$2" 'BEGIN { a = -30 * atan2(0, -1) / 180; c = cos(a); s = sin(a)
    printf "%.17g %.17g", x * c - y * s, 120 + x * s + y * c }'; }
case_run generic_three_actuators_turned \
    "ThreeActuators2d 1 -control 1 40.0 30.0 36.0 20.0 25.0 -posAct1 right -phiLocX 30" "1 2 3" "$(
        printf 'node 21 %s\nnode 22 %s\nrigidLink beam 2 21\nrigidLink beam 2 22\n' \
            "$(turned 25 0)" "$(turned -20 0)"
        actuator 11 31 $(turned 65 0) 21 1
        actuator 12 32 $(turned -20 -30) 22 2
        actuator 13 33 $(turned 25 -36) 21 3)" "expElement generic 10 -node 2 -dof 1 2 3 -site 1"
# The first setup with -nlGeom (the exact geometry; no exact twin here: a rigid link is linear):
# it runs (Newton on the exact tangent, the geometric term included), and its column top's ux
# and rz differ from the linearised setup's by the second-order terms of the actuators'
# geometry: more than round-off, less than the strokes' ratio to the actuators' lengths (peak
# ux / shortest La) of their peaks (uy, held by the stiff vertical actuators and tiny, is
# printed only).
c=$dir/nl_geom
mkdir -p "$c/src"
model "$(exp_part "1 2 3" "ThreeActuators2d 1 -control 1 40.0 30.0 36.0 20.0 25.0 -nlGeom")" > "$c/src/model.tcl"
hysim_run "$c" model.tcl || fail "nl_geom: hysim stopped: $(head -3 "$c/err.log")"
paste -d' ' "$c/run/node2.out" "$dir/three_actuators_2d/exp/run/node2.out" | awk '
    { for (j = 2; j <= 4; j++) { d = $j - $(j + 4); if (d < 0) d = -d; x = $j < 0 ? -$j : $j
          if (x > p[j]) p[j] = x; if (d > m[j]) m[j] = d } }
    END { printf "nl_geom: -nlGeom vs linearised: ux %.2g, uy %.2g, rz %.2g of each peak (peak ux %g in, La >= 30 in)\n",
              m[2] / p[2], m[3] / p[3], m[4] / p[4], p[2]
          lim = p[2] / 30; exit !(m[2] / p[2] > 1e-6 && m[2] / p[2] < lim && m[4] / p[4] > 1e-6 && m[4] / p[4] < lim) }' ||
    fail "nl_geom: -nlGeom's ux or rz is not within the second-order bound of the linearised setup's"
have_opensees || echo "$me: OpenSees comparison skipped (set OPENSEES=/path/to/OpenSees)"
echo "PASS: $n setups equal their twins"
