#!/usr/bin/env bash
# Every subcommand answers --help (and -h) with its usage on stdout and exit 0, nothing on
# stderr; the program's usage names every subcommand and run --resume.
# Usage: help.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for cmd in run check modes plot site pretest keygen plant version; do
    for flag in --help -h; do
        "$hysim" "$cmd" "$flag" > "$dir/out" 2> "$dir/err"; rc=$?
        [ $rc -eq 0 ] || fail "hysim $cmd $flag: exit $rc: $(cat "$dir/err")"
        [ ! -s "$dir/err" ] || fail "hysim $cmd $flag wrote to stderr: $(cat "$dir/err")"
        head -1 "$dir/out" | grep -q "^usage: hysim $cmd" ||
            fail "hysim $cmd $flag: stdout does not start with 'usage: hysim $cmd': $(head -1 "$dir/out")"
    done
done
"$hysim" --help > "$dir/out" 2> "$dir/err" || fail "hysim --help: exit $?"
for word in "run FILE" "--resume DIR" "check FILE" "modes FILE" "plot DIR" "site --config" "pretest --config" \
    "keygen FILE" "plant --config" "version" "--set KEY=VALUE"; do
    grep -q -e "$word" "$dir/out" || fail "hysim --help does not mention '$word'"
done
# a subcommand without its arguments still fails with exit 2 and the usage on stderr
"$hysim" run > "$dir/out" 2> "$dir/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^usage: hysim run" "$dir/err" || fail "hysim run without a file: exit $rc"
echo "help.sh: ok"
