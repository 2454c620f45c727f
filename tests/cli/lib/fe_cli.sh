# Shared by the frame-model and OpenSees tests (fe_*.sh, opensees_*.sh); sourced, not run (CTest
# runs tests/cli/*.sh only). A test reads top-down as:
#   . "$(dirname "$0")/lib/fe_cli.sh"
#   need_opensees            # only where the whole test needs OpenSees
#   work_dir                 # $dir, removed on exit; the test runs in it
# then builds its models, runs hysim and OpenSees and compares with the functions below.
# Columns: OpenSees' recorders (-time) start with the time and record from the first step; a
# hysim response.csv or recorder CSV has a header and a t = 0 row first, then the same layout.

me=$(basename "$0")
. "$(dirname "${BASH_SOURCE[0]}")/response_diff.sh"

# work_dir: $dir, a fresh temporary folder removed when the test exits (also on failure); the
# test works in it
work_dir() {
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    cd "$dir" || exit 1
}

# fail MESSAGE: prints "FAIL: MESSAGE" and the last 15 lines of every $dir/*.log; exits 1
fail() {
    echo "FAIL: $*"
    for f in "$dir"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -15 "$f"; }; done
    exit 1
}

# have_opensees: OPENSEES names an executable OpenSees
have_opensees() { [ -n "${OPENSEES:-}" ] && [ -x "${OPENSEES:-}" ]; }

# need_opensees: a test that compares with OpenSees only: without one it says so and passes
need_opensees() {
    have_opensees && return 0
    echo "$me: SKIP: no OpenSees (set OPENSEES=/path/to/OpenSees)"
    exit 0
}

# rest_needs_opensees: the rest of the test compares with OpenSees: without one it says so,
# ends with "$me: OK" and passes
rest_needs_opensees() {
    have_opensees && return 0
    echo "$me: OpenSees comparison skipped (set OPENSEES=/path/to/OpenSees)"
    echo "$me: OK"
    exit 0
}

# run_opensees SCRIPT LOG [SECONDS]: OpenSees on SCRIPT in this folder (at most SECONDS, 300 by
# default), its output in LOG; the status is OpenSees'
run_opensees() { timeout "${3:-300}" "$OPENSEES" "$1" > "$2" 2>&1; }

# near A B TOL: |A / B - 1| <= TOL
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { r = a / b - 1; if (r < 0) r = -r; exit !(r <= t) }'; }

# periods FILE: the periods `hysim modes` printed in FILE, longest first
periods() { awk '/^DOFs/ { exit } $1 ~ /^[0-9]+$/ { printf "%s ", $2 }' "$1"; }

# script_periods FILE: the periods a Tcl script printed as "period T" lines (its eigen, run by
# OpenSees or by `hysim check`)
script_periods() { awk '$1 == "period" { printf "%s ", $2 }' "$1"; }

# sine_pulse FILE AMPLITUDE FREQUENCY END [SAMPLES]: a ground acceleration AMPLITUDE sin(2 pi
# FREQUENCY t) until t = END, zero after, sampled every 0.01 s from t = 0 (SAMPLES + 1 values,
# 600 by default), one a line
sine_pulse() {
    awk -v A="$2" -v f="$3" -v e="$4" -v n="${5:-600}" 'BEGIN { for (k = 0; k <= n; k++) { t = k * 0.01
        printf "%.17g\n", t <= e ? A * sin(2 * atan2(0, -1) * f * t) : 0 } }' > "$1"
}

# decaying_sine FILE AMPLITUDE FREQUENCY: AMPLITUDE sin(2 pi FREQUENCY t) (1 - t / 2) until
# t = 2 s, zero after, every 0.01 s to 4 s, one a line
decaying_sine() {
    awk -v A="$2" -v f="$3" 'BEGIN { for (k = 0; k <= 400; k++) { t = k * 0.01
        printf "%.17g\n", t <= 2 ? A * sin(2 * atan2(0, -1) * f * t) * (1 - t / 2) : 0 } }' > "$1"
}

# tcl_twin TESTFILE SCRIPT: TESTFILE with its structure.model replaced by {opensees: SCRIPT}
tcl_twin() {
    sed -e "s|^  model:\$|  model: {opensees: $2}\n  xmodel:|" "$1" |
        awk '/^  xmodel:/ { skip = 1; next } skip && /^  [a-z]/ { skip = 0 } !skip'
}

# refused FILE WHAT PATTERN: `hysim check FILE` refuses the file with a message that matches
# PATTERN (grep); fails with "WHAT passed" or with the message it gave
refused() {
    "$hysim" check "$1" > out 2>&1 && fail "$2 passed"
    grep -q "$3" out || fail "message: $(cat out)"
}

# modes_only_tail: the end of a test file that is read for its model only (`hysim modes`,
# `hysim check`): no damping, a short synthetic record, 10 Newmark steps
modes_only_tail() {
    cat <<'YAML'
  damping: {none: true}
ground_motion:
  synthetic: {seed: 1, pga: 1.0, duration: 1, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 10
YAML
}

# newmark_analysis STEPS: the analysis block of a test file compared with OpenSees' transient
# analysis (tcl_newmark): Newmark average acceleration, STEPS steps of 0.01 s, from zero
# acceleration as OpenSees starts
newmark_analysis() {
    cat <<YAML
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: $1
  initial_acceleration: zero
YAML
}

# tcl_newmark STEPS CONSTRAINTS [ITERATIONS]: the Tcl tail of a transient analysis: Newmark
# average acceleration with full Newton (NormDispIncr 1e-12, 20 iterations by default), dense
# solver, STEPS steps of 0.01 s, then wipe (which closes the recorders)
tcl_newmark() {
    cat <<TCL
system FullGeneral
numberer Plain
constraints $2
test NormDispIncr 1.0e-12 ${3:-20}
algorithm Newton
integrator Newmark 0.5 0.25
analysis Transient
analyze $1 0.01
wipe
TCL
}

# tcl_gravity CONSTRAINTS: the Tcl lines of a static gravity step (the script's load patterns in
# one load step, full Newton, dense solver), then loadConst: the loads stay for what follows
tcl_gravity() {
    cat <<TCL
system FullGeneral
numberer Plain
constraints $1
test NormDispIncr 1.0e-12 20
algorithm Newton
integrator LoadControl 1.0
analysis Static
analyze 1
loadConst -time 0.0
TCL
}

# vs_opensees OURS.csv THEIRS.out [DOFS]: hysim's CSV against an OpenSees recorder (-time) of the
# same columns, or of hysim's columns DOFS only (numbers counted after t, in THEIRS' order);
# prints "DIFF PEAK ROWS BAD": the largest |difference| over the compared columns, OpenSees' peak
# over them, the rows compared and how many of them have different times
vs_opensees() {
    tail -n +3 "$1" | tr ',' ' ' | paste -d' ' "$2" - | awk -v dofs="${3:-}" '
        NR == 1 { k = split(dofs, c, " "); if (k == 0) { k = NF / 2 - 1; for (j = 1; j <= k; j++) c[j] = j } }
        { if (($1 - $(k + 2)) ^ 2 > 1e-18) bad++
          for (j = 1; j <= k; j++) { o = $(j + 1); d = o - $(k + 2 + c[j]); if (d < 0) d = -d; if (d > m) m = d
                                     a = o < 0 ? -o : o; if (a > p) p = a } }
        END { printf "%.3g %.6g %d %d", m + 0, p + 0, NR, bad + 0 }'
}

# dofs_vs_opensees OURS.csv THEIRS.out TOL [DOFS [MIN_PEAK [NAMES]]]: as vs_opensees, each
# column against its own peak: writes cmp.txt, a line a column "  NAME: largest difference D
# (peak P, R of it)" (NAMES comma-separated, "DOF 1", ... by default); prints "BAD ROWS WORST":
# BAD 1 when a row's times differ or a column differs by more than TOL of its peak (a column
# whose peak is at most MIN_PEAK is not bounded; without MIN_PEAK every peak must be above 0),
# WORST the largest difference over peak
dofs_vs_opensees() {
    tail -n +3 "$1" | tr ',' ' ' | paste -d' ' "$2" - |
        awk -v tol="$3" -v dofs="${4:-}" -v minp="${5:-}" -v names="${6:-}" '
        NR == 1 { k = split(dofs, c, " "); if (k == 0) { k = NF / 2 - 1; for (j = 1; j <= k; j++) c[j] = j }
                  if (split(names, nm, ",") == 0) for (j = 1; j <= k; j++) nm[j] = "DOF " j }
        { if (($1 - $(k + 2)) ^ 2 > 1e-18) bad = 1
          for (j = 1; j <= k; j++) { o = $(j + 1); d = o - $(k + 2 + c[j]); if (d < 0) d = -d; if (d > m[j]) m[j] = d
                                     a = o < 0 ? -o : o; if (a > p[j]) p[j] = a } }
        END { for (j = 1; j <= k; j++) { r = p[j] > 0 ? m[j] / p[j] : 0; if (r > w) w = r
                  printf "  %s: largest difference %.3g (peak %.6g, %.3g of it)\n", nm[j], m[j], p[j], r > "cmp.txt"
                  if (minp == "" ? !(p[j] > 0 && m[j] <= tol * p[j]) : p[j] > minp && !(m[j] <= tol * p[j])) bad = 1 }
              printf "%d %d %.3g", bad + 0, NR, w + 0 }'
}

# histories_vs_opensees WHAT OURS.csv THEIRS.out TOL [DOFS [MIN_PEAK [NAMES]]]: as
# dofs_vs_opensees, over $steps rows; fails naming WHAT unless every column agrees to TOL of its
# peak; prints the columns' lines
histories_vs_opensees() {
    local bad rows
    read -r bad rows _ <<< "$(dofs_vs_opensees "$2" "$3" "$4" "${5:-}" "${6:-}" "${7:-}")"
    [ "$rows" -eq "$steps" ] || fail "$1: $rows rows against OpenSees, expected $steps"
    [ "$bad" -eq 0 ] || fail "$1: the histories (or their times) differ by more than $4 of the peaks: $(cat cmp.txt)"
    cat cmp.txt
}

# recorder_vs_opensees WHAT OURS.csv THEIRS.out TOL: a hysim recorder (or response.csv) against
# OpenSees' recorder of the same columns: $steps rows, the same times and columns, and the
# largest difference over all columns at most TOL of the peak; prints "$me: WHAT: largest
# difference from OpenSees D (peak P)"
recorder_vs_opensees() {
    local what=$1 ours=$2 theirs=$3 tol=$4 d p rows bad
    [ -s "$theirs" ] || fail "$what: OpenSees wrote no $theirs"
    read -r d p rows bad <<< "$(vs_opensees "$ours" "$theirs")"
    [ "$rows" -eq "$steps" ] || fail "$what: $rows rows against OpenSees, expected $steps"
    [ "$bad" -eq 0 ] || fail "$what: the times of hysim's and OpenSees' records differ ($bad rows)"
    [ "$(head -1 "$theirs" | wc -w)" -eq "$(head -1 "$ours" | tr ',' ' ' | wc -w)" ] ||
        fail "$what: OpenSees has $(head -1 "$theirs" | wc -w) columns, hysim $(head -1 "$ours")"
    echo "$me: $what: largest difference from OpenSees $d (peak $p)"
    awk -v d="$d" -v p="$p" -v t="$tol" 'BEGIN { exit !(p > 0 && d <= t * p) }' ||
        fail "$what differs from OpenSees by $d (peak $p)"
}

# within_opensees WHAT OURS.csv THEIRS.out TOL MIN_PEAK ROWS [DOFS]: prints "WHAT: max
# |difference| D (peak P, N rows)" (over the compared columns, as vs_opensees); true when the
# times agree, there are ROWS rows, the peak is above MIN_PEAK and D is at most TOL of it
within_opensees() {
    local d p rows bad
    read -r d p rows bad <<< "$(vs_opensees "$2" "$3" "${7:-}")"
    echo "$1: max |difference| $d (peak $p, $rows rows)"
    [ "$bad" -eq 0 ] && [ "$rows" -eq "$6" ] && awk -v d="$d" -v p="$p" -v t="$4" -v mp="$5" 'BEGIN { exit !(p > mp && d <= t * p) }'
}

# same_response WHAT A.csv B.csv TOL MIN_PEAK: two response.csv of as many DOFs and rows (as
# response_diff; the DOFs' names may differ: a frame against its shear building); prints "WHAT:
# max |difference| D, peak P"; true when the peak of A is above MIN_PEAK and D is at most TOL of it
same_response() {
    local out d p
    out=$(response_diff "$2" "$3" count) || { echo "$1: $out"; return 1; }
    read -r d p <<< "$out"
    echo "$1: max |difference| $d, peak $p"
    awk -v d="$d" -v p="$p" -v t="$4" -v mp="$5" 'BEGIN { exit !(p > mp && d <= t * p) }'
}

# dof_column YAML "n3_ux": the response.csv column (counted after t) of a DOF, from the DOF
# list `hysim modes` prints
dof_column() {
    "$hysim" modes "$1" 2> /dev/null | awk -v want="$2" '/^DOFs:/ { sub(/^DOFs: /, ""); sub(/ \(.*$/, "")
        n = split($0, p, ", "); for (i = 1; i <= n; i++) { split(p[i], q, " = "); if (q[2] == want) print q[1] } }'
}

# columns_vs_opensees OURS THEIRS ROWS: two recorder files of the script's own analysis (no
# header, the same columns) side by side; prints the largest difference of a column over that
# column's peak (over the largest peak for a column whose peak is below 1e-9 of it), or "rows N"
# when they have not ROWS rows
columns_vs_opensees() {
    paste -d' ' "$1" "$2" | awk -v rows="$3" '{ h = NF / 2; for (i = 1; i <= h; i++) { a = $i - $(i + h)
        a = a < 0 ? -a : a; if (a > d[i]) d[i] = a; p = $(i + h) < 0 ? -$(i + h) : $(i + h); if (p > pk[i]) pk[i] = p
        if (p > top) top = p } n++ }
        END { for (i = 1; i <= h; i++) { ref = pk[i] > 1e-9 * top ? pk[i] : top; if (d[i] / ref > w) w = d[i] / ref }
              print (n == rows ? w + 0 : "rows " n) }'
}

# twin_pair NAME [MIN_ROWS]: runs NAME.yaml and its Tcl twin NAME_tcl.yaml; their response.csv
# files (more than MIN_ROWS lines, 100 by default) must be equal bit for bit
twin_pair() {
    "$hysim" run "$1.yaml" -o "$1_yaml" --quiet > "$1.log" 2>&1 || fail "$1 (YAML): $(cat "$1.log")"
    "$hysim" run "$1_tcl.yaml" -o "$1_tcl" --quiet > "$1_tcl.log" 2>&1 ||
        fail "$1 (Tcl twin): $(cat "$1_tcl.log")"
    [ "$(wc -l < "$1_yaml/response.csv")" -gt "${2:-100}" ] || fail "$1: run too short"
    cmp -s "$1_yaml/response.csv" "$1_tcl/response.csv" || {
        same_response "$1 YAML vs Tcl" "$1_yaml/response.csv" "$1_tcl/response.csv" 1e-12 1e-9
        fail "$1: the YAML model and its Tcl twin differ"
    }
    echo "$me: $1: YAML and Tcl twin: response.csv equal bit for bit ($(($(wc -l < "$1_yaml/response.csv") - 1)) rows)"
}

# os_testfile NAME SCRIPT: a test file naming only the OpenSees script (its own analysis runs)
os_testfile() {
    printf 'hysim: 1\nname: %s\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: %s}\n' "$1" "$2"
}
