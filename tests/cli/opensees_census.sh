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
bad=0
while read -r script; do
    rel=${script#"$ex"/}
    frame_type "$script" || continue
    nframe=$((nframe + 1))
    sdir=$(dirname "$script")
    base=$(basename "$script")
    case_dir="$dir/case$nframe"
    mkdir -p "$case_dir/hs" "$case_dir/os"
    cp -r "$sdir"/. "$case_dir/hs/src" && cp -r "$sdir"/. "$case_dir/os/"
    printf 'hysim: 1\nname: census\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: src/%s}\n' \
        "$base" > "$case_dir/hs/census.yaml"
    (cd "$case_dir/hs" && timeout 300 "$hysim" run census.yaml -o run --quiet > out.log 2> err.log < /dev/null)
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
        fi
    else
        nrun=$((nrun + 1))
        if have_opensees; then
            (cd "$case_dir/os" && timeout 600 "$OPENSEES" "$base" > os.log 2>&1 < /dev/null)
            worst=0
            nfiles=0
            while read -r f; do
                o="$case_dir/os/${f#"$case_dir/hs/run/"}"
                [ -f "$o" ] || continue
                nfiles=$((nfiles + 1))
                w=$(columns_diff "$f" "$o")
                [ "$w" = columns ] && { worst=columns; break; }
                awk -v a="$w" -v b="$worst" 'BEGIN { exit !(a > b) }' && worst=$w
            done < <(find "$case_dir/hs/run" -type f ! -name '.*' | sort)
            if [ "$nfiles" -eq 0 ]; then
                diff="no recorder file of both"
                # where OpenSees stopped, when it did (its Tcl trace's last file and line)
                stop=$(grep -oE '\(file "[^"]+" line [0-9]+\)' "$case_dir/os/os.log" | tail -1 |
                    sed -E 's/\(file "(.*)" line ([0-9]+)\)/\1:\2/')
                [ -n "$stop" ] && diff="no recorder file of both: OpenSees stops at $stop ($(grep -m1 -E 'WARNING|ERROR|error' "$case_dir/os/os.log" | head -c 120 | sed 's/|/\\|/g'))"
            else
                diff="$worst ($nfiles files)"
                [ "$worst" != columns ] && awk -v a="$worst" 'BEGIN { exit !(a <= 1e-8) }' && nmatch=$((nmatch + 1))
            fi
        fi
    fi
    echo "| $rel | $status | $diff |" >> "$table"
    echo "$rel: $status ${diff}"
done < <(find "$ex" -name '*.tcl' ! -path '*/ExamplePython/*' | sort)
{
    echo
    echo "$nframe frame-type scripts: $nrun run in hysim$(have_opensees && echo ", $nmatch match OpenSees to 1e-8 of each column's peak"); $((nframe - nrun - bad)) refused at their command; $bad errors."
} >> "$table"
if [ -n "$doc" ]; then
    awk -v t="$table" '/<!-- census:begin -->/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
        /<!-- census:end -->/ { skip = 0 } !skip' "$doc" > "$dir/doc.md" && cp "$dir/doc.md" "$doc"
fi
tail -1 "$table"
[ "$nframe" -gt 0 ] || fail "no frame-type script in $ex"
[ "$bad" -eq 0 ] || fail "$bad scripts neither ran nor were refused at a command"
echo "$me: OK"
