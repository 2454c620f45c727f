#!/bin/bash
# The script's own analysis when `mass` and `rayleigh` come after a first analysis (OpenSees'
# idiom: gravity without mass, loadConst, then the masses, damping and a ground motion; the
# census's Example3.3.tcl), Rayleigh damping on force-based beam-columns (OpenSees applies it to
# every ForceBeamColumn2d and DispBeamColumn2d), and a Node recorder's -timeSeries (the series'
# value added to the response: the absolute acceleration). A script written here: a fiber
# cantilever of Steel01 (forceBeamColumn), gravity by LoadControl, then a Trig load with
# betaK = 0.001 (and once with alphaM) under Newmark. Checks: the script with mass and rayleigh
# after the gravity analysis gives the same history as with them before it (to round-off), also
# when they damp part of the model only (a truss without -doRayleigh beside it); the
# damped history differs from the undamped one; the -timeSeries recorder is the plain one plus
# the series' value at each row's time; with OPENSEES set, the histories are OpenSees 3.8's.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

# cantilever WHERE RAYLEIGH: WHERE "before" or "after" the gravity analysis
cantilever() {
    local extra="mass 2 1.0 1.0 0.0
rayleigh $2"
    cat <<TCL
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 0.0 3.0
fix 1 1 1 1
uniaxialMaterial Steel01 1 400000.0 2.0e8 0.02
section Fiber 1 { fiber 0.1 0.0 0.0004 1
    fiber -0.1 0.0 0.0004 1 }
geomTransf Linear 1
element forceBeamColumn 1 1 2 1 "Lobatto 1 4"
$([ -n "${PART:-}" ] && printf 'node 3 3.0 3.0\nfix 3 1 1 1\nuniaxialMaterial Elastic 2 2.0e8\nelement truss 2 2 3 0.00001 2\n')
$([ "$1" = before ] && echo "$extra")
timeSeries Linear 1
pattern Plain 1 1 { load 2 0.0 -10.0 0.0 }
system BandGeneral
constraints Plain
test NormDispIncr 1.0e-12 10
algorithm Newton
integrator LoadControl 0.1
analysis Static
analyze 10
loadConst -time 0.0
$([ "$1" = after ] && echo "$extra")
timeSeries Trig 2 0.0 1.0 0.5 -factor 30.0
pattern Plain 2 2 { load 2 1.0 0.0 0.0 }
recorder Node -file disp.out -time -precision 15 -node 2 -dof 1 2 disp
recorder Node -file vel.out -time -precision 15 -node 2 -dof 1 vel
recorder Node -file velts.out -time -precision 15 -timeSeries 2 -node 2 -dof 1 vel
wipeAnalysis
system BandGeneral
constraints Plain
test NormDispIncr 1.0e-12 10
algorithm Newton
integrator Newmark 0.5 0.25
analysis Transient
puts "ok [analyze 100 0.01] [nodeDisp 2 1]"
TCL
}
testfile() { printf 'hysim: 1\nname: c\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: %s}\n' "$1"; }
# maxdiff A B: the largest |a - b| over the files' values, and the largest |a|
maxdiff() {
    paste -d'|' "$1" "$2" | awk -F'|' '{ n = split($1, a, " "); split($2, b, " ")
        for (j = 2; j <= n; j++) { d = a[j] - b[j]; if (d < 0) d = -d; if (d > m) m = d; x = a[j] < 0 ? -a[j] : a[j]; if (x > p) p = x } }
        END { printf "%.3g %.6g\n", m, p }'
}
cases="stiff:0.0_0.001_0.0_0.0 mass:0.5_0.0_0.0_0.0 none:0.0_0.0_0.0_0.0"
for c in $cases; do
    name=${c%%:*}
    ray=${c#*:}
    for where in before after; do
        mkdir -p "$name-$where"
        cantilever "$where" "${ray//_/ }" > "$name-$where/c.tcl"
        testfile c.tcl > "$name-$where/c.yaml"
        (cd "$name-$where" && "$hysim" run c.yaml -o run > run.log 2>&1) || fail "$name $where: $(cat "$name-$where/run.log")"
        grep -q '^ok 0 ' "$name-$where/run.log" || fail "$name $where: $(cat "$name-$where/run.log")"
        [ "$(wc -l < "$name-$where/run/disp.out")" -eq 100 ] || fail "$name $where: rows"
    done
    read -r d p <<< "$(maxdiff "$name-before/run/disp.out" "$name-after/run/disp.out")"
    awk -v d="$d" -v p="$p" 'BEGIN { exit !(d <= 1e-12 * p) }' || fail "$name: mass and rayleigh after the gravity analysis differ from before by $d (peak $p)"
    echo "$me: $name ($ray): given after the gravity analysis = before, $d (peak $p)"
done
for name in stiff mass; do
    read -r d p <<< "$(maxdiff "$name-after/run/disp.out" "none-after/run/disp.out")"
    awk -v d="$d" -v p="$p" 'BEGIN { exit !(d > 1e-3 * p) }' || fail "$name damping changes nothing ($d, peak $p)"
    echo "$me: $name damping moves the history by $d (peak $p)"
done
# -timeSeries: the plain velocity plus the Trig series, 30 sin(2 pi t / 0.5) up to t = 1
paste -d' ' stiff-after/run/vel.out stiff-after/run/velts.out | awk '{ w = $2 + ($1 <= 1.0 ? 30 * sin(2 * 3.14159265358979 * $1 / 0.5) : 0); d = $4 - w; if (d < 0) d = -d; if (d > m) m = d }
    END { printf "%.3g\n", m; exit !(m <= 1e-9) }' > ts.txt || fail "-timeSeries: $(cat ts.txt) from the plain response plus the series"
echo "$me: -timeSeries adds the series' value ($(cat ts.txt))"

rest_needs_opensees
# a truss without -doRayleigh beside the column: the damping of part of the model (its own
# Rayleigh group), under NormDispIncr
mkdir -p part-before part-after
PART=1 cantilever before "0.0 0.001 0.0 0.0" > part-before/c.tcl
testfile c.tcl > part-before/c.yaml
(cd part-before && "$hysim" run c.yaml -o run > run.log 2>&1) && grep -q '^ok 0 ' part-before/run.log ||
    fail "part: $(cat part-before/run.log)"
# after an analysis, the part's elements (its own Rayleigh group) take their history from the
# whole model (hs_fe_copy_element_states): the same history as with rayleigh before
PART=1 cantilever after "0.0 0.001 0.0 0.0" > part-after/c.tcl
testfile c.tcl > part-after/c.yaml
(cd part-after && "$hysim" run c.yaml -o run > run.log 2>&1) && grep -q '^ok 0 ' part-after/run.log ||
    fail "part after: $(cat part-after/run.log)"
read -r d p <<< "$(maxdiff part-after/run/disp.out part-before/run/disp.out)"
awk -v d="$d" -v p="$p" 'BEGIN { exit !(d <= 1e-12 * p) }' || fail "part: after differs from before by $d (peak $p)"
echo "$me: part's rayleigh after the gravity analysis as before it: $d (peak $p)"
for c in stiff-after mass-after stiff-before part-before part-after; do
    mkdir "$c/os" && cp "$c/c.tcl" "$c/os/" && (cd "$c/os" && run_opensees c.tcl os.log) || fail "OpenSees $c: $(tail -3 "$c/os/os.log")"
    for f in disp velts; do
        read -r d p <<< "$(maxdiff "$c/run/$f.out" "$c/os/$f.out")"
        awk -v d="$d" -v p="$p" 'BEGIN { exit !(d <= 1e-9 * p) }' || fail "$c $f.out differs from OpenSees by $d (peak $p)"
        echo "$me: $c $f.out against OpenSees: $d (peak $p)"
    done
done
echo "$me: OK"
