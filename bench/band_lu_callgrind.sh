#!/usr/bin/env bash
# The dense/band choice (linsolver.c, ls_band_pays) in instructions: bench_band_lu under callgrind
# (deterministic, whatever the load), one factor and one solve of each n x n band matrix of
# half-bandwidth kd through LAPACK's dense factors (the Cholesky dpotf2 where symmetric to round-off
# and positive-definite, else dgetrf/dgetrs) and its band factors
# (dpbtrf/dpbtrs where SPD, dgbtrf/dgbtrs otherwise). OpenBLAS on one thread.
# Prints "n kd matrix dense banded banded/dense chosen", then per n and matrix the widest kd
# where the band costs no more than the dense factor.
# Usage: bench/band_lu_callgrind.sh [BUILD_DIR] [n kd]... (build/rel by default)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build/rel}" && pwd) || exit 2
shift || true
exe=$build/bench/bench_band_lu
[ -x "$exe" ] || { echo "band_lu_callgrind.sh: build bench_band_lu in $build first" >&2; exit 2; }
command -v valgrind > /dev/null || { echo "band_lu_callgrind.sh: needs valgrind" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$exe" 1 "$@" \
    > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
for f in "$work"/cg.*; do
    awk '/^desc: Trigger: Client Request:/ { sub(/^desc: Trigger: Client Request: /, ""); l = $0 }
         /^(summary|totals):/ { t = $2 } END { if (l != "") print l, t }' "$f"
done | sort -k1,1n -k2,2n -k3,3 -k4,4 | awk '
    { v[$1 " " $2 " " $3 " " $4] = $5; if (!(($1 " " $2 " " $3) in seen)) { seen[$1 " " $2 " " $3] = 1; key[++m] = $1 " " $2 " " $3 } }
    END {
        print "#  n   kd mat      dense     banded  ratio"
        for (k = 1; k <= m; k++) {
            split(key[k], f, " "); d = v[key[k] " dense"]; b = v[key[k] " banded"]
            printf "%4d %4d %-4s %10d %10d %6.3f\n", f[1], f[2], f[3], d, b, b / d
            if (b <= d && f[2] > wide[f[1] " " f[3]]) wide[f[1] " " f[3]] = f[2]
            ns[f[1] " " f[3]] = 1
        }
        print "# widest kd where banded <= dense (n matrix kd)"
        for (s in ns) printf "%s %d\n", s, wide[s]
    }' | awk '/^# widest/ { w = 1; print; fflush(); next } w { print | "sort -k1,1n -k2,2"; next } { print }'
