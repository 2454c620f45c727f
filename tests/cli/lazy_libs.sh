#!/usr/bin/env bash
# Libraries loaded on first use, not at the program's start (src/base/lazy_lib.h; bench/README.md,
# "Whole program"): HDF5 and matio when a run writes results.h5 / results.mat or `hysim plot` reads
# results.h5 (src/results/results_libs.c), SuiteSparse's CHOLMOD and KLU when a sparse linear
# solver is created, ARPACK when a large frame's modes are asked for (src/base/suitesparse_libs.c,
# arpack_libs.c), libmicrohttpd when a monitor starts (src/monitor/mhd_libs.c):
# 1. `hysim --version` and `hysim check` load none of them (the dynamic loader's LD_DEBUG=libs
#    trace names none), and the program does not list them as needed (readelf);
# 2. `hysim run` of a 2-story building with output.mat loads HDF5 and matio (the positive
#    control: the trace names them), not SuiteSparse, ARPACK or libmicrohttpd, and writes
#    results.h5 (HDF5 signature) and results.mat (MAT v5 header) that `hysim plot` reads back;
#    `hysim modes` of a 600-DOF frame (half-bandwidth 125) loads ARPACK and CHOLMOD and prints
#    ARPACK's modes; the same run with `--monitor 127.0.0.1:0` loads libmicrohttpd and announces
#    the monitor;
# 3. a library that cannot be loaded (HS_HDF5_LIBRARY, HS_MATIO_LIBRARY, HS_CHOLMOD_LIBRARY,
#    HS_ARPACK_LIBRARY, HS_MHD_LIBRARY naming a missing file) fails the write, `hysim plot`,
#    `hysim modes` or the run with a message naming the file, the library and what to install,
#    exit code non-zero;
# 4. a run shorter than the preload of HDF5 and matio ends cleanly (exiting while the preload was
#    inside dlopen corrupted the heap, "double free or corruption", 2 of 150 runs of a 5 ms
#    script; the program now waits for the preload at exit): with HS_HDF5_LIBRARY naming
#    tests/libs/slow_load.c's library (0.3 s to load, then a marker file) a script run that writes
#    no results.h5 ends with exit code 0, its result (a spring's F L / (E A)) and the library
#    loaded whole; and 60 runs of that script with Debian's HDF5 all end with exit code 0.
# Usage: lazy_libs.sh HYSIM
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v readelf >/dev/null || fail "readelf not found (binutils: scripts/install-deps.sh)"

. "$(dirname "$0")/lib/two_story_building.sh"
{ two_story_building two-story 100.0 2 "{type: exact}"; cat <<'YAML'
output:
  mat: true
YAML
} > "$dir/t.yaml"

. "$(dirname "$0")/lib/frame_models.sh"
{ large_frame_model 4 40; cat <<'YAML'
  damping: {rayleigh: {modes: [1, 3], ratios: [0.02, 0.02]}}
ground_motion:
  synthetic: {seed: 7, pga: 1.0, duration: 0.1, dt: 0.01}
analysis:
  integrator: {type: cr}
  dt: 0.01
  duration: 0.1
YAML
} >"$dir/frame.yaml"
lazy='libhdf5|libmatio|libcholmod|libklu|libarpack|libmicrohttpd'

# 1. start-up without them
readelf -d "$hysim" | grep -Eq "NEEDED.*($lazy)" &&
    fail "$hysim lists a library loaded on first use as needed: $(readelf -d "$hysim" | grep NEEDED)"
LD_DEBUG=libs "$hysim" --version >/dev/null 2>"$dir/version.trace" || fail "hysim --version failed"
grep -q 'find library=libyaml' "$dir/version.trace" ||
    fail "the LD_DEBUG trace shows no library search at all (the check would see nothing)"
grep -Eq "$lazy" "$dir/version.trace" &&
    fail "hysim --version loads a library it does not need: $(grep -E "$lazy" "$dir/version.trace" | head -3)"
LD_DEBUG=libs "$hysim" check "$dir/t.yaml" >/dev/null 2>"$dir/check.trace" || fail "hysim check failed"
grep -Eq "$lazy" "$dir/check.trace" &&
    fail "hysim check loads a library it does not need: $(grep -E "$lazy" "$dir/check.trace" | head -3)"

# 2. a run loads them and writes both files; plot reads results.h5 back
LD_DEBUG=libs "$hysim" run "$dir/t.yaml" -o "$dir/out" --quiet 2>"$dir/run.trace" ||
    fail "run exited $?: $(grep -v '^ *[0-9]*:' "$dir/run.trace" | tail -3)"
grep -q 'calling init: .*libhdf5' "$dir/run.trace" || fail "the run did not load HDF5"
grep -q 'calling init: .*libmatio' "$dir/run.trace" || fail "the run did not load matio"
grep -Eq 'libcholmod|libklu|libarpack|libmicrohttpd' "$dir/run.trace" &&
    fail "the 2-story run loads a library it does not need: $(grep -E 'libcholmod|libklu|libarpack|libmicrohttpd' "$dir/run.trace" | head -3)"
[ "$(head -c 8 "$dir/out/results.h5" | od -An -tx1 | tr -d ' \n')" = 894844460d0a1a0a ] ||
    fail "results.h5 does not start with the HDF5 signature"
head -c 19 "$dir/out/results.mat" | grep -q 'MATLAB 5.0 MAT-file' || fail "results.mat has no MAT v5 header"
"$hysim" plot "$dir/out" >"$dir/plot.log" 2>&1 || fail "plot failed: $(tail -3 "$dir/plot.log")"
[ -s "$dir/out/displacement.png" ] || fail "plot wrote no displacement.png"
LD_DEBUG=libs "$hysim" modes "$dir/frame.yaml" >"$dir/modes.log" 2>"$dir/modes.trace" ||
    fail "modes of the frame exited $?: $(grep -v '^ *[0-9]*:' "$dir/modes.trace" | tail -3)"
grep -q "^the lowest 20 modes (ARPACK" "$dir/modes.log" || fail "modes: no ARPACK line: $(head -3 "$dir/modes.log")"
for lib in libarpack libcholmod libklu; do
    grep -q "calling init: .*$lib" "$dir/modes.trace" || fail "modes of the frame did not load $lib"
done
grep -q 'libmicrohttpd' "$dir/modes.trace" && fail "modes loads libmicrohttpd"
LD_DEBUG=libs "$hysim" run "$dir/t.yaml" -o "$dir/mon" --monitor 127.0.0.1:0 >"$dir/mon.log" \
    2>"$dir/mon.trace" || fail "the monitored run exited $?: $(grep -v '^ *[0-9]*:' "$dir/mon.trace" | tail -3)"
grep -q 'calling init: .*libmicrohttpd' "$dir/mon.trace" || fail "the monitored run did not load libmicrohttpd"
grep -q 'hysim monitor: http://127\.0\.0\.1:[0-9]*/' "$dir/mon.log" "$dir/mon.trace" ||
    fail "the monitored run announced no monitor: $(grep -v '^ *[0-9]*:' "$dir/mon.trace" | tail -3)"

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
# expect_missing NAME WANT... -- COMMAND...: COMMAND fails and its stderr has every WANT
expect_missing() {
    local name=$1 want=()
    shift
    while [ "$1" != -- ]; do want+=("$1"); shift; done
    shift
    "$@" >/dev/null 2>"$dir/$name.err" && fail "$name: succeeded without its library"
    for w in "${want[@]}"; do
        grep -qF -e "$w" "$dir/$name.err" || fail "$name: no '$w' in: $(cat "$dir/$name.err")"
    done
}
expect_missing no_arpack "structure.damping.rayleigh: sparse eigen-analysis (3 modes of 600 DOFs): ARPACK is needed" \
    "cannot load $dir/missing/libarpack.so" libarpack2 HS_ARPACK_LIBRARY -- \
    env HS_ARPACK_LIBRARY="$dir/missing/libarpack.so" "$hysim" modes "$dir/frame.yaml"
expect_missing no_cholmod "CHOLMOD is needed" "cannot load $dir/missing/libcholmod.so" libcholmod3 \
    HS_CHOLMOD_LIBRARY -- env HS_CHOLMOD_LIBRARY="$dir/missing/libcholmod.so" "$hysim" modes "$dir/frame.yaml"
expect_missing no_mhd "--monitor 127.0.0.1:0: libmicrohttpd is needed" \
    "cannot load $dir/missing/libmicrohttpd.so" libmicrohttpd12 "run without --monitor" -- \
    env HS_MHD_LIBRARY="$dir/missing/libmicrohttpd.so" "$hysim" run "$dir/t.yaml" -o "$dir/no_mhd" \
    --monitor 127.0.0.1:0

# 4. a run shorter than the preload
slow=${HS_BINARY_DIR:-}/tests/libhs_test_slow_load.so
mkdir -p "$dir/slow"
cat >"$dir/slow/spring.tcl" <<'TCL'
model BasicBuilder -ndm 1 -ndf 1
node 1 0.0
node 2 1.0
fix 1 1
uniaxialMaterial Elastic 1 100.0
element truss 1 1 2 1.0 1
timeSeries Linear 1
pattern Plain 1 1 { load 2 1.0 }
recorder Node -file disp.out -node 2 -dof 1 disp
system BandGeneral
numberer Plain
constraints Plain
integrator LoadControl 1.0
algorithm Linear
analysis Static
analyze 1
TCL
printf 'hysim: 1\nname: spring\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: spring.tcl}\n' >"$dir/slow/spring.yaml"
if [ -f "$slow" ]; then
    HS_HDF5_LIBRARY="$slow" HS_TEST_SLOW_LOAD_MARK="$dir/slow/mark" "$hysim" run "$dir/slow/spring.yaml" \
        -o "$dir/slow/out" --quiet >/dev/null 2>"$dir/slow/err" </dev/null ||
        fail "the script run with a slow HDF5: $(cat "$dir/slow/err")"
    [ -f "$dir/slow/mark" ] || fail "the slow library was not loaded whole (no marker)"
    d=$(awk 'NF { v = $NF } END { print v }' "$dir/slow/out/disp.out" 2>/dev/null)
    awk -v d="$d" 'BEGIN { exit !(d > 0.00999999 && d < 0.01000001) }' ||
        fail "the spring's displacement $d, not F L / (E A) = 0.01"
else
    echo "lazy_libs.sh: $slow not built: the run with a slow HDF5 not checked"
fi
for i in $(seq 1 60); do
    rm -rf "$dir/slow/short"
    "$hysim" run "$dir/slow/spring.yaml" -o "$dir/slow/short" --quiet >/dev/null \
        2>"$dir/slow/err" </dev/null || fail "short run $i of 60: $(grep -v warning: "$dir/slow/err")"
done
echo "PASS"
