#!/usr/bin/env bash
# `hysim plot` of an all-experimental hybrid run with one actuator (a lagging lab):
#  - hysteresis.png is drawn from the experimental element's measured loop (no numerical springs:
#    formerly an empty panel), with data in its block;
#  - actuators_hysteresis.png is wide enough for its title (one panel used to cut it off):
#    width >= 60 + 8.5 px per title character;
#  - actuators_tracking.png and actuators_ti.png use one sign for the tracking error, Chen &
#    Ricles' command - measured: every row of the tracking block holds c - m, and the two error
#    series (coordinator's command - measured, site's command - position) correlate positively
#    (a sign flip would make it negative).
# The gnuplot script is kept through the HS_TEST_PLOT_SCRIPT hook (src/cli/plot.c).
# Usage: plot_hybrid.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v gnuplot > /dev/null || { echo "SKIP: gnuplot not installed"; exit 0; }
cd "$dir" || exit 1
cat > t.yaml <<'YAML'
hysim: 1
name: plot-one-actuator-all-experimental
units: {force: kN, length: mm, time: s}
structure:
  dofs: 1
  mass: [0.1]
  damping: {modal: {ratios: [0.05]}}
experimental:
  - {name: col, site: lab, story: 1, actuators: [a1], initial_stiffness: [[15.791367041742973]]}
sites:
  lab:
    kind: virtual
    rate: 1000
    actuators:
      a1: {delay_samples: 5}
    specimen: {type: linear, K: [[15.791367041742973]]}
ground_motion:
  synthetic: {seed: 11, pga: 3000, duration: 4, dt: 0.01}
analysis:
  integrator: {type: newmark_explicit}
  dt: 0.01
  duration: 4
YAML
"$hysim" run t.yaml -o run --quiet || fail "run exited $?"
HS_TEST_PLOT_SCRIPT="$dir/script.gp" "$hysim" plot run > plot.out 2>&1 || fail "plot: $(cat plot.out)"
for png in displacement hysteresis energy actuators_hysteresis actuators_tracking actuators_ti; do
    [ -s "run/$png.png" ] || fail "run/$png.png missing"
done
[ -s script.gp ] || fail "the script was not kept"

# hysteresis.png: the experimental loop, not an empty figure
grep -q "no springs recorded" script.gp && fail "hysteresis.png is still an empty figure"
grep -q "no numerical springs, the experimental elements measured at their actuators" script.gp ||
    fail "hysteresis.png does not draw the experimental loop"
rows=$(awk '/^\$S << EOD$/ { on = 1; next } on && /^EOD$/ { exit } on { n++ } END { print n + 0 }' script.gp)
[ "$rows" -gt 100 ] || fail "hysteresis block has $rows rows"

# actuators_hysteresis.png: wide enough for its title
title=$(awk '/actuators_hysteresis.png.part/ { on = 1 } on && /^set multiplot layout/ {
             sub(/^set multiplot layout [0-9]+,[0-9]+ title /, ""); sub(/ font .*$/, ""); print; exit }' script.gp)
[ -n "$title" ] || fail "no title for actuators_hysteresis.png"
width=$(od -An -tu1 -j16 -N4 run/actuators_hysteresis.png | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
need=$(awk -v n="$(( ${#title} - 2 ))" 'BEGIN { printf "%d", 60 + 8.5 * n }')
[ "$width" -ge "$need" ] && [ "$width" -gt 480 ] ||
    fail "actuators_hysteresis.png is $width px wide for a title of $(( ${#title} - 2 )) characters (need $need)"
echo "actuators_hysteresis.png: $width px for a $(( ${#title} - 2 ))-character title"

# one sign for the tracking error
grep -q "measured - command" script.gp && fail "a plot still says measured - command"
awk '/^\$AT << EOD$/ { on = 1; next } on && /^EOD$/ { exit }
     on { d = $4 - ($2 - $3); if (d < 0) d = -d; s = ($2 < 0 ? -$2 : $2) + 1e-300
          if (d > 1e-7 * s + 1e-12) { print "row " NR ": " $0; bad = 1 } }
     END { exit bad }' script.gp || fail "tracking block column 4 is not command - measured"
corr=$(awk '/^\$AT << EOD$/ { on = 1; next } /^\$TI << EOD$/ { ti = 1; on = 0; k = 0; next }
            /^EOD$/ { on = 0; ti = 0; next }
            on { a[++n] = $4 } ti { b[++k] = $2 }
            END { m = n < k ? n : k; for (i = 1; i <= m; i++) { sab += a[i] * b[i]; saa += a[i] ^ 2; sbb += b[i] ^ 2 }
                  printf "%.4f", (saa > 0 && sbb > 0) ? sab / sqrt(saa * sbb) : 0 }' script.gp)
awk -v c="$corr" 'BEGIN { exit !(c > 0.5) }' ||
    fail "tracking error (tracking plot) and TI plot error correlate $corr: opposite signs?"
echo "tracking plot vs TI plot error: correlation $corr (same sign)"
echo "plot_hybrid.sh: ok"
