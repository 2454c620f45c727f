#!/usr/bin/env bash
# Key files are 64 hexadecimal digits (whitespace around them allowed) and nothing else, on both
# ends: a site (`hysim site`) and a coordinator (`hysim run` with a remote site) refuse a file of
# 32 newlines (once taken as a raw key), a key cut to 31 digits and a newline (32 bytes too), and
# a key of one repeated byte and the counter 00 01 .. 1f (32 different bytes, one step between
# them), with exit code 2 (`hysim check` too, at the key's FILE:LINE:COL), the file's name and how to make a key; a key
# from `hysim keygen` is accepted by the site.
set -u
HYSIM=${1:?usage: keyfile.sh PATH_TO_hysim}
src=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -n "$pid" ] && wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf '\n%.0s' $(seq 32) > "$dir/newlines.key"
printf '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n' | cut -c1-31 > "$dir/cut.key"
printf '%064d\n' 0 > "$dir/zeros.key"
printf '%02x' $(seq 0 31) > "$dir/counter.key"
chmod 600 "$dir"/*.key
[ "$(wc -c < "$dir/newlines.key")" = 32 ] || fail "fixture: newlines.key is not 32 bytes"
[ "$(wc -c < "$dir/cut.key")" = 32 ] || fail "fixture: cut.key is not 32 bytes"

for k in newlines cut zeros counter; do
    sed -e "s/@NAME@/lab1/;s/@MATERIAL@/column1/;s/@KEY@/$k.key/" \
        "$src/examples/distributed/site.yaml.in" > "$dir/site_$k.yaml"
    "$HYSIM" site --config "$dir/site_$k.yaml" >/dev/null 2>"$dir/site_$k.err"
    rc=$?
    [ $rc -eq 2 ] || fail "site with $k.key: exit $rc, not 2: $(cat "$dir/site_$k.err")"
    grep -q "site_$k.yaml:[0-9]*:[0-9]*: site.key: .*$k.key: not a" "$dir/site_$k.err" ||
        fail "site with $k.key: $(cat "$dir/site_$k.err")"
    grep -q 'make one with `hysim keygen FILE`' "$dir/site_$k.err" ||
        fail "site with $k.key does not say how to make a key: $(cat "$dir/site_$k.err")"
    sed -e "s/@PORT1@/9/;s/@PORT2@/9/;s/@KEY1@/$k.key/;s/@KEY2@/$k.key/" \
        "$src/examples/distributed/test.yaml.in" > "$dir/test_$k.yaml"
    (cd "$dir" && "$HYSIM" run "test_$k.yaml" -o "out_$k" >/dev/null 2>"run_$k.err")
    rc=$?
    [ $rc -eq 2 ] || fail "coordinator with $k.key: exit $rc, not 2: $(cat "$dir/run_$k.err")"
    grep -q "$k.key: not a" "$dir/run_$k.err" || fail "coordinator with $k.key: $(cat "$dir/run_$k.err")"
    grep -q 'make one with `hysim keygen FILE`' "$dir/run_$k.err" ||
        fail "coordinator with $k.key does not say how to make a key: $(cat "$dir/run_$k.err")"
    grep -q 'connect' "$dir/run_$k.err" && fail "coordinator with $k.key tried to connect"
    # `hysim check` refuses it too, at the key's line and column in the test file
    (cd "$dir" && "$HYSIM" check "test_$k.yaml" >/dev/null 2>"check_$k.err")
    rc=$?
    [ $rc -eq 2 ] || fail "check with $k.key: exit $rc, not 2: $(cat "$dir/check_$k.err")"
    grep -q "test_$k.yaml:[0-9]*:[0-9]*: sites\.[a-z0-9]*\.key: .*$k.key: not a" "$dir/check_$k.err" ||
        fail "check with $k.key: $(cat "$dir/check_$k.err")"
done
grep -q "0 hexadecimal digits, not 64" "$dir/site_newlines.err" || fail "$(cat "$dir/site_newlines.err")"
grep -q "31 hexadecimal digits, not 64" "$dir/site_cut.err" || fail "$(cat "$dir/site_cut.err")"
grep -q "not a random key" "$dir/site_zeros.err" || fail "$(cat "$dir/site_zeros.err")"
grep -q "not a random key: the steps between its successive bytes" "$dir/site_counter.err" ||
    fail "$(cat "$dir/site_counter.err")"

# a key from keygen: the site starts (and is stopped)
"$HYSIM" keygen "$dir/good.key" >/dev/null || fail "keygen"
sed -e "s/@NAME@/lab1/;s/@MATERIAL@/column1/;s/@KEY@/good.key/" \
    "$src/examples/distributed/site.yaml.in" > "$dir/site_good.yaml"
"$HYSIM" site --config "$dir/site_good.yaml" >"$dir/good.out" 2>"$dir/good.err" &
pid=$!
for _ in $(seq 100); do grep -qs "listening" "$dir/good.out" && break; sleep 0.05; done
grep -q "authenticated" "$dir/good.out" || fail "site with a keygen key: $(cat "$dir/good.err")"
kill -TERM "$pid"
wait "$pid"
rc=$?
pid=
[ $rc -eq 0 ] || fail "site with a keygen key: exit $rc after SIGTERM: $(cat "$dir/good.err")"
echo "ok: key files refused on both ends with exit 2 (32 newlines, 31 digits, one repeated byte)"
