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

# hysim_run FOLDER SCRIPT: runs the script's own analysis in FOLDER (its copy at FOLDER/src)
hysim_run() {
    printf 'hysim: 1\nname: openfresco\nunits: {force: kip, length: in, time: s}\nstructure:\n  model: {opensees: src/%s}\n' \
        "$2" > "$1/of.yaml"
    (cd "$1" && timeout 600 "$hysim" run of.yaml -o run --quiet > out.log 2> err.log < /dev/null)
}
