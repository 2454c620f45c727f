#!/usr/bin/env bash
# `hysim plot DIR`: exit 2 with a message for a missing or invalid DIR; when `hysim run` works,
# a real run is drawn (the drawing of a known synthetic history is tested in test_results.c).
# Usage: plot.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

expect() { # expect CODE TEXT args...: exit code CODE and TEXT in the messages
    local code=$1 text=$2
    shift 2
    out=$("$hysim" plot "$@" 2>&1); rc=$?
    [ $rc -eq "$code" ] || fail "plot $*: exit $rc (expected $code): $out"
    case "$out" in *"$text"*) ;; *) fail "plot $*: expected '$text' in: $out" ;; esac
}

expect 0 "usage: hysim plot DIR [--format png|svg|pdf]" --help
expect 2 "usage" # no DIR
expect 2 "usage" "$dir" extra
expect 2 "give png, svg or pdf" "$dir" --format gif
expect 2 "unknown option" "$dir" --colour
expect 2 "not a directory" "$dir/missing"
touch "$dir/file"
expect 2 "not a directory" "$dir/file"
expect 2 "no results.h5" "$dir"
echo "not hdf5" > "$dir/results.h5"
expect 2 "not an HDF5 file" "$dir"
# a name that would inject shell commands is just a name
mkdir "$dir/\$(touch injected)" && expect 2 "no results.h5" "$dir/\$(touch injected)"
[ ! -e injected ] && [ ! -e "$dir/injected" ] || fail "a directory name ran a command"

# with a working `hysim run`, draw a real run
src=${HS_SOURCE_DIR:-$(dirname "$0")/../..}
example=$src/examples/default.yaml
if [ -f "$example" ] && "$hysim" run "$example" -o "$dir/run" --quiet >/dev/null 2>&1 &&
    [ -f "$dir/run/results.h5" ]; then
    out=$("$hysim" plot "$dir/run" 2>&1) || fail "plot of a real run: $out"
    for png in displacement hysteresis energy; do
        f="$dir/run/$png.png"
        [ -s "$f" ] || fail "$f missing"
        [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
            fail "$f is not a PNG"
    done
    ls -A "$dir/run" | grep -q '^\.hysim-plot\|\.part$' && fail "temporary files left in $dir/run"
    # the ground-motion panel above the displacements: the record's peak, 115.8 in/s^2
    HS_TEST_PLOT_SCRIPT="$dir/script.gp" "$hysim" plot "$dir/run" > /dev/null 2>&1 || fail "plot (script kept)"
    grep -q "title 'ground motion, peak |a_g| = 115.8 in/s^2'" "$dir/script.gp" ||
        fail "no ground-motion panel with the record's peak 115.8 in/s^2: $(grep -m1 'a_g' "$dir/script.gp")"
    grep -q '^set multiplot layout 3,1' "$dir/script.gp" || fail "the ground panel is not stacked above the 2 DOFs"
    # the DOFs by their names (a shear building: its floors) on the axes and in the keys
    grep -q "^set ylabel 'floor2 \[in\]'" "$dir/script.gp" || fail "no axis 'floor2 [in]': $(grep -m2 ylabel "$dir/script.gp")"
    grep -q "title 'floor1 (DOF 1), peak |d| = " "$dir/script.gp" || fail "no key naming floor1: $(grep -m2 'peak |d|' "$dir/script.gp")"
    rm -f "$dir/script.gp"
    # --format svg and pdf: the same figures as vector files, beside the PNGs
    out=$("$hysim" plot "$dir/run" --format svg 2>&1) || fail "plot --format svg: $out"
    out=$("$hysim" plot --format=pdf "$dir/run" 2>&1) || fail "plot --format pdf: $out"
    for name in displacement hysteresis energy; do
        grep -q '<svg' "$dir/run/$name.svg" 2>/dev/null || fail "$name.svg is not an SVG"
        [ "$(head -c 5 "$dir/run/$name.pdf" 2>/dev/null)" = "%PDF-" ] || fail "$name.pdf is not a PDF"
    done
    ls -A "$dir/run" | grep -q '^\.hysim-plot\|\.part$' && fail "temporary files left after svg/pdf"
else
    echo "note: 'hysim run $example' not available yet; real-run drawing not exercised"
fi
echo "ok"
