#!/usr/bin/env bash
# The fiber frame of issue 18 (item 7) against OpenSees, per step, in one run: the 3-story,
# 3-bay RC frame of bench/opensees/rc_frame_3x3.tcl (21 forceBeamColumn members, 5 Lobatto
# points, 62 fibers a section: Concrete02 core and cover, Steel02 bars; gravity first), its
# dynamic analysis HHT (OpenSees' alpha 0.9) with Newton at dt = 1/1024 s, the same script
# through both programs (hysim runs the script's own analysis). OpenSees in each configuration a
# user would choose for a 36-DOF frame (algorithm, system and numberer printed). Histories checked equal
# (roof, 1e-8 of the peak) before any timing; then ROUNDS alternated rounds; CPU time of the
# process running N steps minus that of 1 step, over N - 1 (start-up, model building, gravity and
# eigen cancel); medians and the ratio of OpenSees' best to hysim. hysim's configuration is the
# script's own analysis as it runs it: with HHT and NormDispIncr the unbalance after the update that
# converges is not formed (docs/fe_model.md, "How many state determinations a step"), the history
# still checked against OpenSees' here.
#
# Usage: OPENSEES=/path/to/OpenSees bench/rc_frame_compare.sh [BUILD_DIR] (a Release build,
# build/rel by default); ROUNDS=3, STEPS=2048 by default. Without OPENSEES, hysim's row only.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/rel}" && pwd) || exit 2
rounds=${ROUNDS:-3}
steps=${STEPS:-2048}
hysim=$build/hysim
[ -x "$hysim" ] || { echo "rc_frame_compare.sh: build hysim_cli in $build first (Release)" >&2; exit 2; }
os=${OPENSEES:-}
[ -n "$os" ] && [ ! -x "$os" ] && { echo "rc_frame_compare.sh: OPENSEES=$os is not executable" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root"/bench/opensees/rc_frame_3x3.tcl "$root"/examples/opensees/ground_accel_g.txt "$work"/
cd "$work" || exit 2

# script NAME STEPS SETUP: rc_frame_3x3.tcl and its dynamic analysis, recording the roof
script() {
    { cat rc_frame_3x3.tcl; cat <<TCL
recorder Node -file $1.out -time -precision 16 -node 31 32 33 34 -dof 1 disp
constraints Plain
$(echo "$3" | tr ';' '\n' | sed 's/^ //')
test NormDispIncr 1.0e-10 20
integrator HHT 0.9
analysis Transient
if {[analyze $2 [expr {1.0 / 1024.0}]] != 0} { puts "failed"; exit 3 }
TCL
    } > "$1.tcl"
    printf 'hysim: 1\nname: %s\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: %s.tcl}\n' "$1" "$1" > "$1.yaml"
}
. "$root/bench/lib.sh" # cpu_of, median
per_step() { awk -v a="$1" -v b="$2" -v n="$steps" 'BEGIN { if (a < 0 || b < 0) print -1; else printf "%.1f", (a - b) / (n - 1) * 1e6 }'; }
hysim_run() { rm -rf "h_$1"; cpu_of "$hysim" run "$1.yaml" -o "h_$1" --quiet; }
os_run() { cpu_of "$os" "$1.tcl"; }

# (Newton with each system a user would choose; KrylovNewton and ModifiedNewton, OpenSees' other
# algorithms for a nonlinear frame, with its band: item 7 asks OpenSees' fastest suitable algorithm)
configs=("algorithm Newton; system BandGeneral; numberer RCM" "algorithm Newton; system ProfileSPD; numberer RCM"
    "algorithm Newton; system FullGeneral; numberer Plain" "algorithm Newton; system UmfPack; numberer RCM"
    "algorithm KrylovNewton; system BandGeneral; numberer RCM" "algorithm ModifiedNewton; system BandGeneral; numberer RCM")
echo "# RC frame 3 x 3 (forceBeamColumn fibers), HHT Newton, dt 1/1024 s, $steps steps ($(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$root" rev-parse --short HEAD 2>/dev/null), load average $(cut -d' ' -f1-3 /proc/loadavg))"
script hysim_n "$steps" "${configs[0]}"
script hysim_1 1 "${configs[0]}"
"$hysim" run hysim_n.yaml -o h_check --quiet > /dev/null 2>&1 || { echo "hysim failed on the frame"; exit 1; }
declare -a ok
if [ -n "$os" ]; then
    for c in "${!configs[@]}"; do
        script "os_${c}_n" "$steps" "${configs[$c]}"
        script "os_${c}_1" 1 "${configs[$c]}"
        ok[$c]=0
        "$os" "os_${c}_n.tcl" > /dev/null 2>&1 || { echo "  OpenSees with ${configs[$c]}: failed; left out"; continue; }
        read -r d p <<< "$(paste -d' ' "os_${c}_n.out" h_check/hysim_n.out | awk '{ for (j = 2; j <= 5; j++) { d = $j - $(j + 5)
            if (d < 0) d = -d; if (d > m) m = d; a = $j < 0 ? -$j : $j; if (a > p) p = a } } END { printf "%.3g %.6g", m, p }')"
        if awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 0 && d <= 1e-8 * p) }'; then
            ok[$c]=1
            echo "  OpenSees with ${configs[$c]}: roof history equal to hysim's to $d (peak $p)"
        else
            echo "  OpenSees with ${configs[$c]}: differs from hysim by $d (peak $p); left out"
        fi
    done
fi
declare -A times
for r in $(seq 1 "$rounds"); do
    times[h]+=" $(per_step "$(hysim_run hysim_n)" "$(hysim_run hysim_1)")"
    for c in "${!configs[@]}"; do
        [ "${ok[$c]:-0}" = 1 ] || continue
        times[$c]+=" $(per_step "$(os_run "os_${c}_n")" "$(os_run "os_${c}_1")")"
    done
done
h=$(echo "${times[h]}" | median)
printf '| %-70s | %10s |\n' "program, configuration" "us a step"
printf '| %-70s | %10s |\n' "hysim, Newton (the script's own analysis, lazy last unbalance)" "$h"
best=-1
for c in "${!configs[@]}"; do
    [ "${ok[$c]:-0}" = 1 ] || continue
    m=$(echo "${times[$c]}" | median)
    printf '| %-70s | %10s |\n' "OpenSees, ${configs[$c]}" "$m"
    awk -v m="$m" -v b="$best" 'BEGIN { exit !(m > 0 && (b < 0 || m < b)) }' && best=$m
done
[ "$best" != -1 ] && echo "OpenSees at its best / hysim: $(awk -v b="$best" -v h="$h" 'BEGIN { printf "%.2f", b / h }') (goal: 10)"
echo "step budget at 1024 Hz: 977 us; hysim's mean step is $(awk -v h="$h" 'BEGIN { printf "%.0f", h / 976.5625 * 100 }') % of it (goal: p99 below 50 %)"
