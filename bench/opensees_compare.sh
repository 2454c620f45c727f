#!/usr/bin/env bash
# hysim against OpenSees at its best, per step, in one run (issue 21): each model below through
# both programs, OpenSees in every configuration a user would choose for it (algorithm, test,
# system, numberer; all printed), both programs' histories checked equal (1e-6 of the peak)
# before any timing, then ROUNDS alternated rounds of every configuration and every hysim front
# end, medians, the ratio of OpenSees' best configuration to hysim.
#
# Time: CPU time, so that a loaded machine's waiting does not count (the wall time of a process
# that waits for a core says more about the load than about the program). hysim: the step loop of
# bench_model_step (the integrator's steps on the test file's model and record, no output).
# OpenSees: the CPU time of the process running N steps minus that of the same script running 1
# step, over N - 1 (its start-up, model building and eigen cancel; no recorder in these runs).
#
# Models (bench/opensees/, examples/opensees/):
#   frame.tcl            examples/opensees/frame.tcl: 2-story P-Delta frame on two Steel02 base
#                        hinges with a leaning column, 12 DOFs (4 with mass), Newmark, 1000 steps
#   bouc_wen_15story     Mosqueda and Ahmadizadeh's (2008a) 15-story Bouc-Wen shear building, HHT
#                        alpha -0.05, 1200 steps: hysim through its Tcl front end and as the YAML
#                        shear building; OpenSees' HHT_TP 0.95, whose residual weighs the restoring
#                        and damping forces of the step's two ends as hysim's hht does (Mosqueda and
#                        Ahmadizadeh 2008b, eq. 3.1). OpenSees' HHT evaluates the forces at the
#                        interpolated displacement u(n + 0.95) instead (HHT.cpp, update()): the same
#                        method on a linear model, another one on a yielding model (3.4e-4 of the
#                        peak apart on this building, where HHT_TP agrees to 1e-11)
#   10 x 30 frames       bench/frame_gen.h's frame written here in Tcl: elastic (990 DOFs) and on
#                        11 yielding base hinges (1001 DOFs), Newmark, 1200 steps (hysim's cr and
#                        hht rows are other methods: their histories are printed against hysim's
#                        newmark, not checked)
#
# Usage: OPENSEES=/path/to/OpenSees bench/opensees_compare.sh [BUILD_DIR] (a Release build with
# hysim_cli and bench_model_step, build/rel by default); ROUNDS=3 by default. Without OPENSEES only
# hysim's rows are printed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/rel}" && pwd) || exit 2
rounds=${ROUNDS:-3}
hysim=$build/hysim
stepper=$build/bench/bench_model_step
[ -x "$hysim" ] && [ -x "$stepper" ] || {
    echo "opensees_compare.sh: build hysim_cli and bench_model_step in $build first (Release)" >&2
    exit 2
}
os=${OPENSEES:-}
[ -n "$os" ] && [ ! -x "$os" ] && { echo "opensees_compare.sh: OPENSEES=$os is not executable" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root"/bench/opensees/*.tcl "$root"/bench/opensees/*.yaml "$root"/examples/opensees/frame.tcl \
    "$root"/examples/opensees/ground_accel_g.txt "$work"/
cd "$work" || exit 2
# recorders NODES: hysim's output section recording the x displacement of NODES as OpenSees'
# recorder does (a frame model's response.csv holds its equations, not its nodes' DOFs)
recorders() { printf 'output:\n  recorders:\n    - {name: os, node: [%s], dofs: [x], response: disp}\n' "${1// /, }"; }
sed -e '/^output:/d' -e '/^  dir: /d' "$root"/examples/opensees/frame.yaml > frame.yaml
recorders "13 14 23 24" >> frame.yaml
recorders "$(seq -s ' ' 2 16)" >> bouc_wen_15story_tcl.yaml
vs_opensees() { # as tests/cli/lib/fe_cli.sh: largest difference, peak, rows, rows whose times differ
    tail -n +3 "$1" | tr ',' ' ' | paste -d' ' "$2" - | awk '
        NR == 1 { k = NF / 2 - 1 }
        { if (($1 - $(k + 2)) ^ 2 > 1e-18) bad++
          for (j = 1; j <= k; j++) { o = $(j + 1); d = o - $(k + 2 + j); if (d < 0) d = -d; if (d > m) m = d
                                     a = o < 0 ? -o : o; if (a > p) p = a } }
        END { printf "%.3g %.6g %d %d", m + 0, p + 0, NR, bad + 0 }'
}
. "$root/bench/lib.sh" # cpu_of, median

# model NAME TCL NODES DOF STEPS DT INTEGRATOR CONSTRAINTS; then configurations (config LABEL
# ALGORITHM TEST SYSTEM NUMBERER) and hysim files (front LABEL FILE)
declare -a M_NAME M_TCL M_NODES M_DOF M_STEPS M_DT M_INT M_CONS C_MODEL C_LABEL C_SETUP F_MODEL F_LABEL F_FILE
model() {
    M_NAME+=("$1"); M_TCL+=("$2"); M_NODES+=("$3"); M_DOF+=("$4"); M_STEPS+=("$5"); M_DT+=("$6")
    M_INT+=("$7"); M_CONS+=("$8")
}
config() { C_MODEL+=($((${#M_NAME[@]} - 1))); C_LABEL+=("$1"); C_SETUP+=("$2"); }
front() { F_MODEL+=($((${#M_NAME[@]} - 1))); F_LABEL+=("$1"); F_FILE+=("$2"); }

model "frame.tcl (12 DOFs, 2 Steel02 hinges)" frame.tcl "13 14 23 24" 1 1000 0.01 \
    "integrator Newmark 0.5 0.25" "constraints Transformation"
for sys in "FullGeneral:Plain" "BandGeneral:RCM" "ProfileSPD:RCM" "SparseGeneral:RCM"; do
    config "Newton, NormDispIncr 1e-12, ${sys%%:*}, ${sys##*:}" \
        "algorithm Newton; test NormDispIncr 1e-12 50; system ${sys%%:*}; numberer ${sys##*:}"
done
config "ModifiedNewton -initial, NormDispIncr 1e-12, BandGeneral, RCM" \
    "algorithm ModifiedNewton -initial; test NormDispIncr 1e-12 200; system BandGeneral; numberer RCM"
front "Tcl front end, newmark" frame.yaml

model "15-story Bouc-Wen building" bouc_wen_15story.tcl "$(seq -s ' ' 2 16)" 1 1200 0.01 \
    "integrator HHT_TP 0.95" "constraints Plain"
for sys in "BandGeneral:RCM" "ProfileSPD:RCM" "BandSPD:RCM" "FullGeneral:Plain"; do
    config "Newton, NormDispIncr 1e-10, ${sys%%:*}, ${sys##*:}" \
        "algorithm Newton; test NormDispIncr 1e-10 50; system ${sys%%:*}; numberer ${sys##*:}"
done
config "Newton, NormUnbalance 1e-8, BandGeneral, RCM" \
    "algorithm Newton; test NormUnbalance 1e-8 50; system BandGeneral; numberer RCM"
config "KrylovNewton, NormDispIncr 1e-10, BandGeneral, RCM" \
    "algorithm KrylovNewton; test NormDispIncr 1e-10 50; system BandGeneral; numberer RCM"
front "Tcl front end, hht" bouc_wen_15story_tcl.yaml
front "YAML shear building, hht" bouc_wen_15story.yaml

# the 10-bay, 30-story frame of bench/frame_gen.h (SI: W14x120-like columns, W24x55-like beams,
# 20 t in x and y and 5 t m^2 at every joint, so nothing is condensed; 2 % Rayleigh at 1 and 10 Hz
# on the initial stiffness), elastic (990 DOFs) or on bilinear base hinges (zeroLength
# rz, -doRayleigh 1, Steel01 k = 2e8 N m/rad, My = 3e5 N m, b = 0.05; 1001 DOFs), under the
# record (x 9.81)
big_frame() {
    awk -v hinged="$1" 'BEGIN {
        B = 10; S = 30; pi = 3.14159265358979323846; wi = 2 * pi; wj = 10 * wi
        a1 = 2 * 0.02 / (wi + wj); a0 = a1 * wi * wj
        print "model BasicBuilder -ndm 2 -ndf 3"
        for (s = 0; s <= S; s++) for (c = 0; c <= B; c++) {
            id = s * (B + 1) + c + 1
            printf "node %d %.17g %.17g\n", id, c * 6.0, s * 3.5
            if (s > 0) printf "mass %d 20000.0 20000.0 5000.0\n", id
            else if (!hinged) printf "fix %d 1 1 1\n", id
            else {
                h = (S + 1) * (B + 1) + c + 1
                printf "fix %d 1 1 0\nmass %d 0.0 0.0 5000.0\nnode %d %.17g 0.0\nfix %d 1 1 1\n", id, id, h, c * 6.0, h
            }
        }
        if (hinged) print "uniaxialMaterial Steel01 1 3e5 2e8 0.05"
        print "geomTransf Linear 1"
        e = 1
        for (s = 1; s <= S; s++) for (c = 0; c <= B; c++) {
            top = s * (B + 1) + c + 1
            printf "element elasticBeamColumn %d %d %d 0.0228 200e9 5.41e-4 1\n", e++, top - B - 1, top
            if (c < B) printf "element elasticBeamColumn %d %d %d 0.0105 200e9 5.62e-4 1\n", e++, top, top + 1
        }
        if (hinged) for (c = 0; c <= B; c++) printf "element zeroLength %d %d %d -mat 1 -dir 6 -doRayleigh 1\n", e++, (S + 1) * (B + 1) + c + 1, c + 1
        printf "rayleigh %.17g 0.0 %.17g 0.0\n", a0, a1
        print "timeSeries Path 1 -dt 0.01 -filePath ground_accel_g.txt -factor 9.81"
        print "pattern UniformExcitation 1 1 -accel 1"
    }'
}
big_frame 0 > frame_elastic.tcl
big_frame 1 > frame_hinged.tcl
top="$(seq -s ' ' 331 341)" # the roof's nodes (x)
for k in elastic:newmark elastic:cr hinged:newmark hinged:hht; do
    {
        printf 'hysim: 1\nname: frame-%s\nunits: {force: N, length: m, time: s}\nstructure:\n  model: {opensees: frame_%s.tcl}\nanalysis:\n  integrator: {type: %s%s}\n  dt: 0.01\n  steps: 1200\n  initial_acceleration: zero\n' \
            "${k%%:*}" "${k%%:*}" "${k##*:}" "$([ "${k##*:}" = hht ] && echo ', alpha: -0.05')"
        recorders "$top"
    } > "frame_${k%%:*}_${k##*:}.yaml"
done
model "10 x 30 elastic frame (990 DOFs)" frame_elastic.tcl "$top" 1 1200 0.01 \
    "integrator Newmark 0.5 0.25" "constraints Plain"
for sys in BandSPD ProfileSPD UmfPack; do
    config "Linear -factorOnce, $sys, RCM" "algorithm Linear -factorOnce; test NormDispIncr 1e-10 20; system $sys; numberer RCM"
done
config "Newton, NormDispIncr 1e-10, BandSPD, RCM" "algorithm Newton; test NormDispIncr 1e-10 20; system BandSPD; numberer RCM"
front "Tcl front end, newmark" frame_elastic_newmark.yaml
front "Tcl front end, cr" frame_elastic_cr.yaml

model "the same on 11 yielding base hinges (1001 DOFs)" frame_hinged.tcl "$top" 1 1200 0.01 \
    "integrator Newmark 0.5 0.25" "constraints Plain"
for sys in "ProfileSPD" "BandGeneral" "UmfPack"; do
    config "Newton, NormDispIncr 1e-10, $sys, RCM" "algorithm Newton; test NormDispIncr 1e-10 50; system $sys; numberer RCM"
done
config "ModifiedNewton -initial, NormDispIncr 1e-10, BandSPD, RCM" \
    "algorithm ModifiedNewton -initial; test NormDispIncr 1e-10 200; system BandSPD; numberer RCM"
front "Tcl front end, newmark" frame_hinged_newmark.yaml
front "Tcl front end, hht" frame_hinged_hht.yaml

# run_tcl CONFIG STEPS [RECORDER]: OpenSees' script for configuration CONFIG
run_tcl() {
    local c=$1 m=${C_MODEL[$1]}
    {
        echo "source ${M_TCL[$m]}"
        [ -n "${3:-}" ] && echo "recorder Node -file $3 -time -precision 16 -node ${M_NODES[$m]} -dof ${M_DOF[$m]} disp"
        echo "${M_CONS[$m]}"
        echo "${C_SETUP[$c]}" | tr ';' '\n' | sed 's/^ //'
        echo "${M_INT[$m]}"
        echo "analysis Transient"
        echo "if {[analyze $2 ${M_DT[$m]}] != 0} { exit 3 }"
    } > "os_$c.tcl"
}

echo "# hysim against OpenSees at its best ($(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$root" rev-parse --short HEAD 2>/dev/null), load average $(cut -d' ' -f1-3 /proc/loadavg))"
[ -n "$os" ] && echo "# OpenSees: $os" || echo "# OPENSEES unset: hysim's rows only"
# 1. histories: every hysim front end against the first, every OpenSees configuration against hysim
declare -a C_OK
for f in "${!F_FILE[@]}"; do
    "$hysim" run "${F_FILE[$f]}" -o "h$f" --quiet > "h$f.log" 2>&1 || { echo "hysim failed on ${F_FILE[$f]}: $(tail -3 "h$f.log")"; exit 1; }
done
for c in "${!C_LABEL[@]}"; do
    C_OK[$c]=0
    [ -z "$os" ] && continue
    m=${C_MODEL[$c]}
    for f in "${!F_FILE[@]}"; do [ "${F_MODEL[$f]}" = "$m" ] && { ref=h$f/recorders/os.csv; break; }; done
    run_tcl "$c" "${M_STEPS[$m]}" "os_$c.out"
    if ! timeout 600 "$os" "os_$c.tcl" > "os_$c.log" 2>&1; then
        echo "  ${M_NAME[$m]}: OpenSees with ${C_LABEL[$c]}: failed ($(tail -1 "os_$c.log")); left out"
        continue
    fi
    read -r d p rows bad <<< "$(vs_opensees "$ref" "os_$c.out")"
    if [ "$rows" -eq "${M_STEPS[$m]}" ] && [ "$bad" -eq 0 ] && awk -v d="$d" -v p="$p" 'BEGIN { exit !(p > 0 && d <= 1e-6 * p) }'; then
        C_OK[$c]=1
        echo "  ${M_NAME[$m]}: OpenSees with ${C_LABEL[$c]}: history equal to hysim's to $d (peak $p)"
    else
        echo "  ${M_NAME[$m]}: OpenSees with ${C_LABEL[$c]}: differs from hysim by $d (peak $p, $rows rows); left out"
    fi
done
for f in "${!F_FILE[@]}"; do
    m=${F_MODEL[$f]}
    for g in "${!F_FILE[@]}"; do [ "${F_MODEL[$g]}" = "$m" ] && { first=$g; break; }; done
    [ "$f" = "$first" ] && continue
    tail -n +3 "h$f/response.csv" | tr ',' ' ' > "h$f.cols"
    read -r d p _ <<< "$(vs_opensees "h$first/response.csv" "h$f.cols")"
    echo "  ${M_NAME[$m]}: hysim's ${F_LABEL[$f]} against its ${F_LABEL[$first]}: $d (peak $p)"
done
# 2. alternated rounds
declare -A T
for ((r = 1; r <= rounds; r++)); do
    for c in "${!C_LABEL[@]}"; do
        [ "${C_OK[$c]}" = 1 ] || continue
        m=${C_MODEL[$c]}
        run_tcl "$c" 1 && cp "os_$c.tcl" short.tcl
        run_tcl "$c" "${M_STEPS[$m]}"
        a=$(cpu_of "$os" short.tcl) b=$(cpu_of "$os" "os_$c.tcl")
        T[c$c]+=" $(awk -v a="$a" -v b="$b" -v n="${M_STEPS[$m]}" 'BEGIN { print (a < 0 || b < 0) ? -1 : 1e6 * (b - a) / (n - 1) }')"
    done
    for f in "${!F_FILE[@]}"; do
        T[f$f]+=" $("$stepper" "${F_FILE[$f]}" 3 2> /dev/null | awk '$1 == "STEP_US" { print $3 }')"
    done
done
# 3. the table
echo
echo "| model | OpenSees configuration | OpenSees us/step | hysim | hysim us/step | ratio |"
echo "|---|---|---:|---|---:|---:|"
for m in "${!M_NAME[@]}"; do
    best=-1 bl=""
    for c in "${!C_LABEL[@]}"; do
        [ "${C_MODEL[$c]}" = "$m" ] && [ "${C_OK[$c]}" = 1 ] || continue
        t=$(echo "${T[c$c]}" | median)
        echo "| ${M_NAME[$m]} | ${C_LABEL[$c]} | $t | | | |"
        if awk -v t="$t" -v b="$best" 'BEGIN { exit !(t > 0 && (b < 0 || t < b)) }'; then best=$t bl=${C_LABEL[$c]}; fi
    done
    for f in "${!F_FILE[@]}"; do
        [ "${F_MODEL[$f]}" = "$m" ] || continue
        h=$(echo "${T[f$f]}" | median)
        ratio=$(awk -v o="$best" -v h="$h" 'BEGIN { if (o > 0 && h > 0) printf "%.1f", o / h; else print "-" }')
        echo "| ${M_NAME[$m]} | **best: ${bl:-(no OpenSees)}** | $best | ${F_LABEL[$f]} | $h | **$ratio** |"
    done
done
echo
echo "# CPU microseconds a step, medians of $rounds alternated rounds; ratio = OpenSees at its best / hysim"
