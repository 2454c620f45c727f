#!/usr/bin/env bash
# HDF5 and matio are loaded when a run writes results.h5 / results.mat or `hysim plot` reads
# results.h5, not at the program's start (src/results/results_libs.c; bench/README.md, "Whole
# program"):
# 1. `hysim --version` and `hysim check` load neither (the dynamic loader's LD_DEBUG=libs trace
#    names no libhdf5 and no libmatio), and the program does not list them as needed (readelf);
# 2. `hysim run` with output.mat loads both (the positive control: the trace names them) and writes
#    results.h5 (HDF5 signature) and results.mat (MAT v5 header) that `hysim plot` reads back;
# 3. a library that cannot be loaded (HS_HDF5_LIBRARY / HS_MATIO_LIBRARY naming a missing file)
#    fails the run's write and `hysim plot` with a message naming the file, the library and what
#    to install, exit code non-zero.
# Usage: lazy_libs.sh HYSIM
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v readelf >/dev/null || fail "readelf not found (binutils: scripts/install-deps.sh)"

cat >"$dir/t.yaml" <<'YAML'
hysim: 1
name: two-story
units: {force: kip, length: in, time: s}
structure:
  dofs: 2
  mass: [0.0103600103600104, 0.0103600103600104]
  shear_building:
    stories: [{material: col}, {material: col}]
  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}
materials:
  col: {type: elastic, k: 2.8}
ground_motion:
  synthetic: {seed: 7, pga: 100.0, duration: 2, dt: 0.01}
analysis:
  integrator: {type: exact}
  dt: 0.01
  duration: 2
output:
  mat: true
YAML

# 1. start-up without them
readelf -d "$hysim" | grep -Eq 'NEEDED.*(libhdf5|libmatio)' &&
    fail "$hysim lists HDF5 or matio as needed: $(readelf -d "$hysim" | grep NEEDED)"
LD_DEBUG=libs "$hysim" --version >/dev/null 2>"$dir/version.trace" || fail "hysim --version failed"
grep -q 'find library=libyaml' "$dir/version.trace" ||
    fail "the LD_DEBUG trace shows no library search at all (the check would see nothing)"
grep -Eq 'libhdf5|libmatio' "$dir/version.trace" &&
    fail "hysim --version loads HDF5 or matio: $(grep -E 'libhdf5|libmatio' "$dir/version.trace" | head -3)"
LD_DEBUG=libs "$hysim" check "$dir/t.yaml" >/dev/null 2>"$dir/check.trace" || fail "hysim check failed"
grep -Eq 'libhdf5|libmatio' "$dir/check.trace" && fail "hysim check loads HDF5 or matio"

# 2. a run loads them and writes both files; plot reads results.h5 back
LD_DEBUG=libs "$hysim" run "$dir/t.yaml" -o "$dir/out" --quiet 2>"$dir/run.trace" ||
    fail "run exited $?: $(grep -v '^ *[0-9]*:' "$dir/run.trace" | tail -3)"
grep -q 'calling init: .*libhdf5' "$dir/run.trace" || fail "the run did not load HDF5"
grep -q 'calling init: .*libmatio' "$dir/run.trace" || fail "the run did not load matio"
[ "$(head -c 8 "$dir/out/results.h5" | od -An -tx1 | tr -d ' \n')" = 894844460d0a1a0a ] ||
    fail "results.h5 does not start with the HDF5 signature"
head -c 19 "$dir/out/results.mat" | grep -q 'MATLAB 5.0 MAT-file' || fail "results.mat has no MAT v5 header"
"$hysim" plot "$dir/out" >"$dir/plot.log" 2>&1 || fail "plot failed: $(tail -3 "$dir/plot.log")"
[ -s "$dir/out/displacement.png" ] || fail "plot wrote no displacement.png"

# 3. missing libraries: clear messages
HS_HDF5_LIBRARY="$dir/missing/libhdf5.so" "$hysim" run "$dir/t.yaml" -o "$dir/no_h5" --quiet \
    2>"$dir/no_h5.err" && fail "a run without HDF5 succeeded"
for want in "results.h5: HDF5 is needed" "cannot load $dir/missing/libhdf5.so" "libhdf5-103-1" \
    HS_HDF5_LIBRARY; do
    grep -qF "$want" "$dir/no_h5.err" || fail "no '$want' in: $(cat "$dir/no_h5.err")"
done
HS_MATIO_LIBRARY="$dir/missing/libmatio.so" "$hysim" run "$dir/t.yaml" -o "$dir/no_mat" --quiet \
    2>"$dir/no_mat.err" && fail "a run without matio succeeded"
for want in "results.mat: matio is needed" "cannot load $dir/missing/libmatio.so" libmatio11 \
    "leave output.mat off"; do
    grep -qF "$want" "$dir/no_mat.err" || fail "no '$want' in: $(cat "$dir/no_mat.err")"
done
HS_HDF5_LIBRARY="$dir/missing/libhdf5.so" "$hysim" plot "$dir/out" >/dev/null 2>"$dir/plot.err" &&
    fail "plot without HDF5 succeeded"
grep -qF "results.h5: HDF5 is needed and cannot load $dir/missing/libhdf5.so" "$dir/plot.err" ||
    fail "plot's message: $(cat "$dir/plot.err")"
echo "PASS"
