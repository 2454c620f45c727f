#!/usr/bin/env bash
# Shared by the OpenFresco script tests (openfresco_scripts.sh, openfresco_setups.sh); sourced
# after fe_cli.sh, not run. $hysim is the program.

# precise SCRIPT: every recorder -file F with -precision 16 (stdout)
precise() { sed -E 's/^([ \t]*recorder[ \t]+(Node|Element)[ \t]+-file[ \t]+[^ \t]+)/\1 -precision 16/' "$1"; }

# worst A B: max over the columns of max |a - b| / the column's peak ("rows" when the files
# differ in shape); a column of round-off, its peak below 1e-10 of the file's largest (a DOF at
# rest by symmetry, where both programs write noise such as 1e-16), against 1e-5 of that
worst() {
    paste -d'|' "$1" "$2" | awk -F'|' '
        { na = split($1, a, " "); nb = split($2, b, " "); if (na != nb) { bad = 1; exit }
          for (j = 1; j <= na; j++) { d = a[j] - b[j]; if (d < 0) d = -d; x = a[j] < 0 ? -a[j] : a[j]
              if (x > p[j]) p[j] = x; if (d > m[j]) m[j] = d; if (j > 1 && x > big) big = x }
          if (na > n) n = na; rows++ }
        END { if (bad || rows == 0) { print "rows"; exit }
              for (j = 1; j <= n; j++) { s = p[j] > 1e-10 * big ? p[j] : 1e-5 * big
                  if (s > 0 && m[j] / s > w) w = m[j] / s }
              printf "%.2g\n", w + 0 }'
    [ "$(wc -l < "$1")" -eq "$(wc -l < "$2")" ] || echo rows
}

# pids_dir: $dir, a fresh folder the test then works in, and pids, where it appends the servers
# and clients it starts in the background: on exit every one is stopped and the folder removed,
# also on failure
pids_dir() {
    pids=()
    dir=$(mktemp -d)
    trap stop_all EXIT
    cd "$dir" || exit 1
}
stop_all() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2> /dev/null; done
    rm -rf "$dir"
}

# hysim_run FOLDER SCRIPT: runs the script's own analysis in FOLDER (its copy at FOLDER/src)
hysim_run() {
    printf 'hysim: 1\nname: openfresco\nunits: {force: kip, length: in, time: s}\nstructure:\n  model: {opensees: src/%s}\n' \
        "$2" > "$1/of.yaml"
    (cd "$1" && timeout 600 "$hysim" run of.yaml -o run --quiet > out.log 2> err.log < /dev/null)
}

# same NAME A B TOL FILES...: every column of each file in folders A and B within TOL of its peak
same() {
    local name=$1 a=$2 b=$3 tol=$4 f w
    shift 4
    for f in "$@"; do
        w=$(worst "$a/$f" "$b/$f" | tail -1)
        echo "$name: $f: $w of the peak"
        [ "$w" != rows ] && awk -v a="$w" -v t="$tol" 'BEGIN { exit !(a <= t) }' ||
            fail "$name: $f: the experimental element differs by $w of the peak (bound $tol)"
    done
}

# The frames held by an expElement generic (openfresco_generic.sh, openfresco_generic3.sh), their
# floors recorded in floors.out and their columns' forces in columns.out:
# compare NAME A B TOL: every column of floors.out and columns.out within TOL of its peak
compare() { same "$1" "$2" "$3" "$4" floors.out columns.out; }

# moves RUN NAME: peak ux of floor 1 above 0.5 (their Steel01 specimen yields at 4 / 12 = 0.33 in)
moves() {
    local p
    p=$(awk 'NR > 1 { x = $2 < 0 ? -$2 : $2; if (x > p) p = x } END { print p + 0 }' "$1/floors.out")
    echo "$2: peak floor-1 ux $p in"
    awk -v p="$p" 'BEGIN { exit !(p > 0.5) }' || fail "$2: floor 1 hardly moves (peak ux $p in): the specimen does not yield"
}

# zero_force TAG E: a material without force whose initial tangent is E (Elastic TAG wrapped in
# MinMax TAG + 100 with limits +-1e-300, for OpenSees; tests/cli/lib/openfresco_twin.tcl's device)
zero_force() { printf 'uniaxialMaterial Elastic %s %s\nuniaxialMaterial MinMax %s %s -min -1e-300 -max 1e-300\n' "$1" "$2" "$(($1 + 100))" "$1"; }
