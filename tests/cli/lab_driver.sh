#!/usr/bin/env bash
# A laboratory behind a driver library (docs/lab_backends.md, section "driver"): `hysim site`
# loads the example driver (examples/drivers/first_order.c: a first-order actuator pushing a
# linear spring) with `lab: {kind: driver}`, and `hysim run` runs a two-story test through it. At
# a = 1 the driver's actuator follows its command, x(k+1) = x(k) + (u(k) - x(k)) = u(k) up to one
# rounding, so the same test through `hysim site` over its perfect virtual laboratory and the same
# spring gives the same response.csv within 1e-9 of the peak. (With a lagging actuator, a > 1,
# two real-clock runs differ by the ticks the site waits between steps, which move the actuator:
# a virtual-time test, tests/test_lab_driver.c, checks a = 4 against the model to 1e-12.) Then a driver built for another ABI version, one without the entry symbol and a
# missing file are refused at start with their messages, and the site exits 2.
# Usage: lab_driver.sh PATH_TO_hysim
set -u
hysim=$1
bin=${HS_BINARY_DIR:?HS_BINARY_DIR is not set: run through ctest}
good="$bin/drivers/libhysim_driver_first_order.so"
wrong="$bin/tests/libhs_test_driver_wrong_abi.so"
nosym="$bin/tests/libhs_test_driver_no_symbol.so"
for f in "$good" "$wrong" "$nosym"; do
    [ -f "$f" ] || { echo "FAIL: $f is not built (build all targets)"; exit 1; }
done
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/lab_procs.sh"
umask 077
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$dir/east.key"

site_file() { # FILE DRIVER_PATH (empty: the virtual lab with the same actuator and spring)
    local lab="  lab: {kind: driver, path: \"$2\", options: \"a=1 k=1.0\"}"
    [ -n "$2" ] || lab=""
    east_site_file "$1" "$lab"
}

# Refusals: the site does not start, exit 2, the message says what to do.
refused() { # WHAT DRIVER_PATH EXPECTED
    site_file "$dir/bad.yaml" "$2"
    "$hysim" site --config "$dir/bad.yaml" > /dev/null 2> "$dir/bad.err"
    local rc=$?
    [ $rc -eq 2 ] || fail "$1: the site exits $rc, expected 2 ($(cat "$dir/bad.err"))"
    grep -q -- "$3" "$dir/bad.err" || fail "$1: message $(cat "$dir/bad.err"), expected $3"
}
refused "wrong ABI" "$wrong" "ABI version 2, this hysim needs 1: rebuild the driver"
refused "no symbol" "$nosym" "no symbol hysim_driver_v1: the library is not a hysim driver"
refused "no file" "$dir/none.so" "bad.yaml:10:29: site.lab.path: cannot find .*paths are relative to the site file"
echo "lab_driver.sh: a wrong ABI version, a missing symbol and a missing file are refused"

start_site() { # STEM DRIVER_PATH -> port
    site_file "$dir/$1.yaml" "$2"
    "$hysim" site --config "$dir/$1.yaml" > "$dir/$1.out" 2> "$dir/$1.log" &
    pids+=($!)
    port=$(site_port "$1")
    [ -n "$port" ] || fail "site $1 did not start: $(cat "$dir/$1.log")"
}
run_through() { # STEM DRIVER_PATH: a site, the test through it
    start_site "$1" "$2"
    two_story_test "$dir/$1_test.yaml" driver_lab 400 "{kind: remote, url: \"hysim://127.0.0.1:$port\", key: east.key, actuators: {a1: {}}}"
    "$hysim" run "$dir/$1_test.yaml" -o "$dir/$1" --quiet > "$dir/$1_run.log" 2>&1 || fail "run through $1 exited $?"
    grep -q '"status": "completed"' "$dir/$1/summary.json" || fail "run through $1 not completed"
}
run_through virtual ""
run_through driver "$good"
peak=$(awk -F, 'NR > 1 { for (i = 2; i <= NF; i++) { a = $i; if (a < 0) a = -a; if (a > p) p = a } }
                END { printf "%.3g", p + 0 }' "$dir/driver/response.csv")
awk -v p="$peak" 'BEGIN { exit !(p > 1) }' || fail "the record hardly moves the frame (peak $peak)"
read -r d <<< "$(paste -d, "$dir/virtual/response.csv" "$dir/driver/response.csv" | awk -F, '
    NR > 1 { n = NF / 2; for (i = 2; i <= n; i++) { d = $i - $(i + n); if (d < 0) d = -d; if (d > m) m = d } }
    END { printf "%.3g", m + 0 }')"
awk -v d="$d" -v p="$peak" 'BEGIN { exit !(d <= 1e-9 * p) }' ||
    fail "response.csv over the driver differs from the perfect virtual lab by $d (peak $peak)"
echo "lab_driver.sh: 400 steps through hysim site over the example driver (a = 1) = the same site over its perfect virtual lab: largest difference $d (peak $peak)"
