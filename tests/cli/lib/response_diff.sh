# Shared by the examples' checks (hashash2004.sh, hashash2004_bridge.sh, hashash2004_dc36.sh) and
# two_story_lab.sh; sourced, not run.

# response_diff A.csv B.csv [count]: two response.csv files of the same DOFs and steps; prints
# "MAXDIFF PEAK": the largest |a - b| over every DOF and row, and the largest |a|. Fails (status 1)
# when the headers (the DOFs' names; with `count`, of two models whose DOFs are named apart, a
# frame and its shear building: their column counts) or the row counts differ.
response_diff() {
    if [ "${3:-}" = count ]; then
        [ "$(head -1 "$1" | tr -cd , | wc -c)" = "$(head -1 "$2" | tr -cd , | wc -c)" ] ||
            { echo "column counts differ: $1 $2"; return 1; }
    else
        [ "$(head -1 "$1")" = "$(head -1 "$2")" ] || { echo "headers differ: $1 $2"; return 1; }
    fi
    [ "$(wc -l < "$1")" = "$(wc -l < "$2")" ] || { echo "row counts differ: $1 $2"; return 1; }
    paste -d, "$1" "$2" | awk -F, 'NR == 1 { n = NF / 2 }
        NR > 1 { for (i = 2; i <= n; i++) { d = $i - $(i + n); if (d < 0) d = -d; if (d > m) m = d
                                            a = $i < 0 ? -$i : $i; if (a > p) p = a } }
        END { printf "%.6g %.6g\n", m, p }'
}

# within X Y: X <= Y (awk numbers)
within() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x <= y) }'; }
