#!/bin/bash
# The census of OpenSees' own example scripts (docs/opensees_tcl.md, "The census"): every
# frame-type script of $OPENSEES_SRC/EXAMPLES runs through `hysim run` with a test file that
# names only the script (the script's own analysis), in a copy of its folder. Each either runs
# or is refused at its exact command (SCRIPT:LINE: COMMAND: reason); a crash, a timeout or a
# refusal without a line fails the test. With OPENSEES set, the same script runs in OpenSees
# in another copy and every recorder file both wrote is compared column by column, relative to
# the column's peak (OpenSees prints 6 digits unless -precision: the difference allowed is 1e-8
# of the peak plus half a unit of the 6th printed digit).
#
# Frame-type: a script that runs an analysis (`analyze`, in it or in the files it sources from
# its folder) on a model of nodes, line and point elements: no continuum (nDMaterial, block2D,
# block3D, quad, brick, shell, tri elements), no parallel or reliability commands (getNP,
# randomVariable, performanceFunction, runFORMAnalysis), no database. Scripts written for
# sourcing only (no analyze) are counted through the scripts that source them.
#
# The table (script, status, difference): CENSUS_DOC=docs/opensees_tcl.md replaces the part of
# that file between "<!-- census:begin -->" and "<!-- census:end -->"; one command regenerates
# it: OPENSEES_SRC=... [OPENSEES=...] CENSUS_DOC=docs/opensees_tcl.md bash
# tests/cli/opensees_census.sh build/hysim
# CENSUS_ONLY=REGEX runs the scripts whose path under EXAMPLES matches REGEX only (bash =~).
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
[ -n "${OPENSEES_SRC:-}" ] && [ -d "$OPENSEES_SRC/EXAMPLES" ] || {
    echo "$me: SKIP: no OpenSees source (set OPENSEES_SRC=/path/to/OpenSees, the folder holding EXAMPLES)"
    exit 0
}
case "$hysim" in /*) ;; *) hysim="$PWD/$hysim" ;; esac
doc=${CENSUS_DOC:-}
case "$doc" in '' | /*) ;; *) doc="$PWD/$doc" ;; esac
work_dir
ex="$OPENSEES_SRC/EXAMPLES"

# the script and the files it sources from its folder (literal names), once each
closure() {
    local f=$1 d
    d=$(dirname "$f")
    echo "$f"
    grep -hoE '^\s*source\s+[A-Za-z0-9_./-]+' "$f" 2>/dev/null | awk '{ print $2 }' | while read -r s; do
        [ -f "$d/$s" ] && [ "$d/$s" != "$f" ] && echo "$d/$s"
    done
}
frame_type() {
    local text
    text=$(closure "$1" | xargs cat 2>/dev/null)
    grep -qE '^\s*(set\s+\w+\s+\[)?\s*analyze\s' <<< "$text" || return 1
    grep -qE '^\s*model\s+(BasicBuilder|basic|Basic)' <<< "$text" || return 1
    ! grep -qE '(nDMaterial|block2D|block3D|getNP|randomVariable|performanceFunction|runFORMAnalysis|^\s*database|element\s+(quad|bbar|brick|stdBrick|Brick|Shell|shell|tri31|SSP|ShellMITC4|quad3d|ShellDKGQ|FourNodeQuad|enhancedQuad|ConstantPressureVolumeQuad|[A-Za-z]*Brick))' <<< "$text"
}

# os_twin REL: the edits (sed expressions, one a line) that let OpenSees 3.8 as built here run
# the script REL, made in the OpenSees copy only (the hysim copy runs the script unchanged); each
# the smallest that keeps the model and the analysis the same (docs/opensees_tcl.md):
#   RCFrame1/2: 3.8 reads `load ... -const` as a 4th force: the gravity pattern's Linear series
#     becomes Constant and -const goes (NodalLoad's konstant is a load factor of 1 at every time,
#     as a Constant series gives); its `recorder plot` needs graphics: displayMode displayOFF
#   RCFrame4/5: 3.8 refuses a series inline in `pattern UniformExcitation -accel "Path ..."`: the
#     same series as `timeSeries Path|Sine 1 ...`, named by its tag; RCFrame5: no Mumps in this
#     build: UmfPack (both direct solvers: the same solution to round-off)
#   Example5.1: as RCFrame4, its two inline `Path` series (`set tabasFN "Path ..."`) as
#     `timeSeries Path 1|2 ...`; its `recorder plot` needs graphics: deleted
#   SteelBRB: 3.8 refuses the inline `pattern Plain 1 {Series -time {...} -values {...}} {...}`
#     ("tag is not specified"): the same series as `timeSeries Path 1 -time {...} -values {...}`,
#     the pattern naming it by its tag
#   PortalFrame2d: 3.8 stops at `-mass $M $massType` (massType is the word "&massType", M is 0):
#     `-mass $M` alone (lumped, the default; no mass either way)
os_twin() {
    case "$1" in
    ExampleScripts/RCFrame1.tcl | ExampleScripts/RCFrame2.tcl)
        printf '%s\n' '/^pattern Plain 1 Linear/s/Linear/Constant/' 's/ -const\s*$//' \
            's/^set displayMode "displayON"/set displayMode "displayOFF"/' ;;
    ExampleScripts/RCFrame4.tcl)
        printf '%s\n' 's/^set Series "Path \(.*\)"\s*$/timeSeries Path 1 \1; set Series 1/' ;;
    ExampleScripts/RCFrame5.tcl)
        printf '%s\n' 's/^system Mumps\s*$/system UmfPack/' \
            's/^set accelSeries "Sine \(.*\)"\s*$/timeSeries Sine 1 \1; set accelSeries 1/' ;;
    ExampleScripts/Example5.1.tcl)
        printf '%s\n' 's/^set tabasFN "Path \(.*\)"\s*$/timeSeries Path 1 \1; set tabasFN 1/' \
            's/^set tabasFP "Path \(.*\)"\s*$/timeSeries Path 2 \1; set tabasFP 2/' \
            '/^recorder plot /d' ;;
    DeveloperTestScripts/SteelBRB.tcl)
        printf '%s\n' 's/^pattern Plain 1 {Series -time {/timeSeries Path 1 -time {/' \
            's/^\([-0-9.eE+ ]*\)}\s*}\s*{\s*$/\1}; pattern Plain 1 1 {/' ;;
    verification/PortalFrame2d.tcl)
        printf '%s\n' 's/ -mass \$M \$massType\s*$/ -mass $M/' ;;
    esac
}

# os_note REL: what the census knows of why OpenSees 3.8 stops or aborts in REL (the row says it):
#   TimeSeriesTest: searchPeerNGA queries PEER's NGA database over the network (none here)
#   TripleFrictionPendulumX: its element writes past the one-value vectors of its heat history
#     (docs/fe_model.md, TripleFrictionPendulumX): from the 5th transient step its temperatures
#     are read from overwritten memory, its analysis then fails at t = 0.6 and it aborts at exit
os_note() {
    case "$1" in
    ExampleScripts/TimeSeriesTest.tcl) echo "no network: searchPeerNGA reads PEER's NGA database" ;;
    ExampleScripts/TripleFrictionPendulumX.tcl) echo "its element writes past its heat history's vectors (docs/fe_model.md)" ;;
    esac
}

# recorded SCRIPT: the script or a file it sources writes a recorder file
recorded() {
    closure "$1" | xargs grep -qE '^\s*recorder\s+(Node|Element|EnvelopeNode|EnvelopeElement|Drift)\s' 2>/dev/null
}

# record_wrapper BASE: a script that runs BASE with, in both programs, a displacement recorder
# of every node made at the first `analyze` of each model (after each `wipe`): -time,
# -precision 16, one file per DOF count (census_modelM_ndfN.out)
record_wrapper() {
    cat << EOF
set census_model 1
set census_recorded 0
rename analyze census_analyze
proc analyze args {
    global census_model census_recorded
    if {\$census_recorded != \$census_model} {
        set census_recorded \$census_model
        set groups {}
        foreach n [lsort -integer [getNodeTags]] { dict lappend groups [llength [nodeDisp \$n]] \$n }
        dict for {ndf nodes} \$groups {
            set dofs {}
            for {set d 1} {\$d <= \$ndf} {incr d} { lappend dofs \$d }
            eval recorder Node -file census_model\${census_model}_ndf\$ndf.out -time -precision 16 -node \$nodes -dof \$dofs disp
        }
    }
    uplevel 1 [linsert \$args 0 census_analyze]
}
rename wipe census_wipe
proc wipe args { global census_model; incr census_model; uplevel 1 [linsert \$args 0 census_wipe] }
source $1
EOF
}

# os_stop LOG: where OpenSees stopped, when it did (the innermost FILE:LINE of its Tcl trace; a
# frame inside a procedure, `(procedure "NAME" line L)`, is line L of NAME's body: FILE:LINE from
# where `proc NAME` is defined in the scripts beside LOG)
os_stop() {
    local frame name line at
    frame=$(grep -oE '\((file|procedure) "[^"]+" line [0-9]+\)' "$1" | head -1)
    line=$(sed -E 's/.* line ([0-9]+)\)$/\1/' <<< "$frame")
    name=$(sed -E 's/^\((file|procedure) "(.*)" line [0-9]+\)$/\2/' <<< "$frame")
    case $frame in
    "(file "*) echo "$name:$line" ;;
    "(procedure "*)
        at=$(cd "$(dirname "$1")" && grep -nE "^[[:space:]]*proc[[:space:]]+$name[[:space:]]" -- *.tcl | head -1)
        [ -n "$at" ] && echo "${at%%:*}:$(($(cut -d: -f2 <<< "$at") + line - 1))"
        ;;
    esac
}

# stop_wrapper BASE CMD: BASE run with an execution trace on CMD that tells on stderr when
# OpenSees enters and leaves it (a command that kills OpenSees leaves no Tcl trace to read)
stop_wrapper() {
    cat << EOF
proc census_enter args { puts stderr "census: enter $2" }
proc census_leave args { puts stderr "census: leave $2" }
if {[llength [info commands $2]]} {
    trace add execution $2 enter census_enter
    trace add execution $2 leave census_leave
}
source $1
EOF
}

# leading_rows A B: how many rows from the first are within 1e-8 of each column's peak (as
# columns_diff: half a unit of the 6th printed digit allowed on top)
leading_rows() {
    paste -d'|' "$1" "$2" | awk -F'|' '
        { na = split($1, a, " "); split($2, b, " "); n++; nc[n] = na
          for (j = 1; j <= na; j++) { x[n, j] = a[j] + 0; y[n, j] = b[j] + 0
              ax = x[n, j] < 0 ? -x[n, j] : x[n, j]; if (ax > p[j]) p[j] = ax; if (ax > P) P = ax } }
        END { for (i = 1; i <= n; i++) for (j = 1; j <= nc[i]; j++) {
                  d = x[i, j] - y[i, j]; if (d < 0) d = -d; ax = x[i, j] < 0 ? -x[i, j] : x[i, j]
                  r = ax > 0 ? 5e-6 * 10 ^ int(log(ax) / log(10)) : 0; q = p[j] >= 1e-9 * P ? p[j] : P
                  if (d - r > 1e-8 * q) { print i - 1; exit } }
              print n }'
}

# columns_diff A B: the largest |a - b| over a column against its peak, over all columns:
# prints "WORST ROWS_A ROWS_B" (WORST: max over columns of (max |diff| - half a unit of the
# 6th digit of the values) / peak, 0 when within print resolution; a column of round-off, whose
# peak is below 1e-9 of the file's largest value, against that largest value)
columns_diff() {
    paste -d'|' "$1" "$2" | awk -F'|' '
        { na = split($1, a, " "); nb = split($2, b, " "); if (na != nb) { mism = 1; next }
          for (j = 1; j <= na; j++) { x = a[j] + 0; y = b[j] + 0; d = x - y; if (d < 0) d = -d
              ax = x < 0 ? -x : x; if (ax > p[j]) p[j] = ax
              r = ax > 0 ? 5e-6 * 10 ^ int(log(ax) / log(10)) : 0; if (d - r > m[j]) m[j] = d - r }
          if (na > n) n = na; rows++ }
        END { if (mism) { print "columns"; exit } for (j = 1; j <= n; j++) if (p[j] > P) P = p[j]
              for (j = 1; j <= n; j++) { q = p[j] >= 1e-9 * P ? p[j] : P; if (q > 0 && m[j] / q > w) w = m[j] / q }
              printf "%.2g\n", w + 0 }'
}

table=$dir/table.md
echo "| script | status | difference from OpenSees |" > "$table"
echo "|---|---|---|" >> "$table"
nframe=0
nrun=0
nmatch=0
nshort=0
nsame=0
bad=0
while read -r script; do
    rel=${script#"$ex"/}
    [[ $rel =~ ${CENSUS_ONLY:-.} ]] || continue
    frame_type "$script" || continue
    nframe=$((nframe + 1))
    sdir=$(dirname "$script")
    base=$(basename "$script")
    case_dir="$dir/case$nframe"
    mkdir -p "$case_dir/hs" "$case_dir/os"
    cp -r "$sdir"/. "$case_dir/hs/src" && cp -r "$sdir"/. "$case_dir/os/"
    edits=$(os_twin "$rel")
    [ -n "$edits" ] && sed -i -f <(echo "$edits") "$case_dir/os/$base"
    run=$base
    how=""
    [ -n "$edits" ] && how="; OpenSees' copy edited"
    if ! recorded "$script"; then
        how="$how; census recorder"
        run=census_recorded.tcl
        record_wrapper "$base" | tee "$case_dir/hs/src/$run" > "$case_dir/os/$run"
    fi
    printf 'hysim: 1\nname: census\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: src/%s}\n' \
        "$run" > "$case_dir/hs/census.yaml"
    (cd "$case_dir/hs" && timeout 900 "$hysim" run census.yaml -o run --quiet > out.log 2> err.log < /dev/null)
    code=$?
    status=runs
    diff="-"
    if [ "$code" -ne 0 ]; then
        msg=$(grep -v "warning:" "$case_dir/hs/err.log" | grep -m1 -E "$base:[0-9]+:|\.tcl:[0-9]+:" | sed -e 's/^census\.yaml:[0-9:]* *\(structure\.model\.opensees: \)\{0,1\}//' -e "s#$case_dir/hs/##g" -e 's/|/\\|/g')
        if [ "$code" -eq 124 ] || [ "$code" -ge 128 ] || [ -z "$msg" ]; then
            status="error (exit $code): $(head -c 300 "$case_dir/hs/err.log" | tr '\n' ' ' | sed 's/|/\\|/g')"
            bad=$((bad + 1))
        else
            status="refused: ${msg:0:400}"
            # OpenSees on the same script (30 s at most): does it stop at the same command?
            if have_opensees; then
                (cd "$case_dir/os" && timeout 30 "$OPENSEES" "$run" > os.log 2>&1 < /dev/null) 2> /dev/null
                here=$(grep -oE '[A-Za-z0-9_.-]+\.tcl:[0-9]+:' <<< "$msg" | head -1)
                stop=$(os_stop "$case_dir/os/os.log")
                [ -n "$here" ] && [ "$(basename "${stop%:*}"):${stop##*:}:" = "$here" ] &&
                    diff="OpenSees 3.8 stops at the same command" && nsame=$((nsame + 1))
                # no Tcl trace (OpenSees died): does it die inside the command, at its first call?
                cmd=$(sed -nE 's/^[^ ]+\.tcl:[0-9]+: ([A-Za-z_][A-Za-z0-9_]*): .*/\1/p' <<< "$msg")
                if [ -z "$stop" ] && [ -n "$cmd" ]; then
                    stop_wrapper "$run" "$cmd" > "$case_dir/os/census_stop.tcl"
                    (cd "$case_dir/os" && timeout 30 "$OPENSEES" census_stop.tcl > stop.log 2>&1 < /dev/null) 2> /dev/null
                    c=$?
                    if [ "$c" -ne 124 ] && [ "$(grep -c '^census: enter' "$case_dir/os/stop.log")" -eq 1 ] &&
                        [ "$(grep '^census: ' "$case_dir/os/stop.log" | tail -1)" = "census: enter $cmd" ]; then
                        note=$(os_note "$rel")
                        diff="OpenSees 3.8 stops at the same command (${note:+$note; }it ends in it, exit $c)"
                        nsame=$((nsame + 1))
                    fi
                fi
            fi
        fi
    else
        nrun=$((nrun + 1))
        if have_opensees; then
            (cd "$case_dir/os" && timeout 600 "$OPENSEES" "$run" > os.log 2>&1 < /dev/null) 2> /dev/null
            os_code=$?
            worst=0
            nfiles=0
            short=""
            lead=""
            while read -r f; do
                o="$case_dir/os/${f#"$case_dir/hs/run/"}"
                [ -f "$o" ] || continue
                nfiles=$((nfiles + 1))
                # OpenSees made the file but wrote no row: it stopped before the analysis
                [ -s "$o" ] || [ ! -s "$f" ] || { worst="empty ${f#"$case_dir/hs/run/"}"; break; }
                # OpenSees wrote fewer rows (it stopped or died before hysim's end): its rows
                # against hysim's first as many; not a match, the row says so
                nh=$(wc -l < "$f")
                no=$(wc -l < "$o")
                if [ "$no" -lt "$nh" ]; then
                    head -n "$no" "$f" > "$case_dir/hs_rows"
                    f="$case_dir/hs_rows"
                    short="$no of hysim's $nh rows"
                    l=$(leading_rows "$f" "$o")
                    { [ -z "$lead" ] || [ "$l" -lt "$lead" ]; } && lead=$l
                fi
                w=$(columns_diff "$f" "$o")
                [ "$w" = columns ] && { worst=columns; break; }
                awk -v a="$w" -v b="$worst" 'BEGIN { exit !(a > b) }' && worst=$w
            done < <(find "$case_dir/hs/run" -type f ! -name '.*' | sort)
            if [ "$nfiles" -eq 0 ]; then
                diff="no recorder file of both"
                stop=$(os_stop "$case_dir/os/os.log")
                [ -n "$stop" ] && diff="no recorder file of both: OpenSees stops at $stop ($(grep -m1 -E 'WARNING|ERROR|error' "$case_dir/os/os.log" | head -c 120 | sed 's/|/\\|/g'))"
            elif [ "${worst%% *}" = empty ]; then
                diff="OpenSees wrote no row in ${worst#empty }: it stops at $(os_stop "$case_dir/os/os.log") ($(grep -m1 -E 'WARNING|ERROR|error|not specified' "$case_dir/os/os.log" | head -c 120 | sed 's/|/\\|/g'))"
            elif [ -n "$short" ]; then
                ends="stops"
                [ "$os_code" -ge 128 ] && [ "$os_code" -ne 124 ] &&
                    ends="aborts (exit $os_code: $(grep -m1 -E 'corruption|invalid|Abort|Segmentation|fault' "$case_dir/os/os.log" | head -c 80 | sed 's/|/\\|/g'))"
                failed=$(grep -m1 -E 'analyze\(\) - .*failed' "$case_dir/os/os.log" | sed -e 's/^.*analyze() - //' -e 's/|/\\|/g' | head -c 80)
                note=$(os_note "$rel")
                nshort=$((nshort + 1))
                diff="$worst over OpenSees' rows ($nfiles files$how): OpenSees 3.8 ${failed:+fails (${failed}), }$ends after $short${note:+ ($note)}; its first $lead rows equal hysim's to 1e-8"
            else
                diff="$worst ($nfiles files$how)"
                [ "$worst" != columns ] && awk -v a="$worst" 'BEGIN { exit !(a <= 1e-8) }' && nmatch=$((nmatch + 1))
            fi
        fi
    fi
    echo "| $rel | $status | $diff |" >> "$table"
    echo "$rel: $status ${diff}"
done < <(find "$ex" -name '*.tcl' ! -path '*/ExamplePython/*' | sort)
{
    echo
    echo "$nframe frame-type scripts: $nrun run in hysim$(have_opensees && echo ", $nmatch match OpenSees to 1e-8 of each column's peak$([ "$nshort" -gt 0 ] && echo " ($nshort more where OpenSees 3.8 stops or aborts before the script's end: compared over its rows, not counted)")"); $((nframe - nrun - bad)) refused at their command$(have_opensees && echo " ($nsame where OpenSees stops too)"); $bad errors."
    # the share of the scripts OpenSees itself runs (the others cannot match it: no result)
    have_opensees && [ "$nframe" -gt "$nsame" ] &&
        echo "Of the $((nframe - nsame)) scripts that OpenSees 3.8 runs, $nmatch match ($((100 * nmatch / (nframe - nsame))) %); of all $nframe, $((100 * nmatch / nframe)) %."
} >> "$table"
[ -n "${CENSUS_ONLY:-}" ] && [ -n "$doc" ] && fail "CENSUS_DOC with CENSUS_ONLY: the table is the whole census"
if [ -n "$doc" ]; then
    awk -v t="$table" '/<!-- census:begin -->/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
        /<!-- census:end -->/ { skip = 0 } !skip' "$doc" > "$dir/doc.md" && cp "$dir/doc.md" "$doc"
fi
tail -1 "$table"
[ "$nframe" -gt 0 ] || fail "no frame-type script in $ex"
[ "$bad" -eq 0 ] || fail "$bad scripts neither ran nor were refused at a command"
echo "$me: OK"
