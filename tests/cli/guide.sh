#!/usr/bin/env bash
# docs/guide.md's first hybrid test, as a reader would do it: examples/first_hybrid.yaml with its
# column in a virtual laboratory (in process), then the same test with the column behind a
# `hysim site` process on loopback (examples/guide/: a key made with `hysim keygen`, the site
# started first). The first 3 s of the 10 s test (--set analysis.duration=3), on the real clock
# for the remote run. Both complete 300 steps; the remote site reports the 300 steps; the peaks
# of the two runs agree within 5 % (the same laboratory model; the two labs' sensor noise streams
# differ, and the remote controller ticks on the real clock); the site exits 0 on SIGTERM.
# Usage: guide.sh PATH_TO_hysim
set -u
hysim=$1
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
site_pid=""
cleanup() {
    [ -n "$site_pid" ] && kill "$site_pid" 2>/dev/null && wait "$site_pid" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$dir/site.log" ] && tail -5 "$dir/site.log"; exit 1; }
number() { grep -o "\"$1\": [-0-9.eE+]*" "$2" | head -1 | awk '{print $2}'; }
peak2() { tr -d '[],' < "$1" | awk '/peak_abs_disp/ { print $3; exit }'; }

cp -r "$here/../../examples/guide" "$dir/guide"
cp "$here/../../examples/first_hybrid.yaml" "$dir/"
cd "$dir" || exit 1

# step 3: the virtual laboratory
"$hysim" run first_hybrid.yaml --set analysis.duration=3 -o virtual --quiet ||
    fail "the virtual run exited $?"
[ "$(number steps virtual/summary.json)" = 300 ] || fail "the virtual run did not make 300 steps"

# step 4: the same column behind a site (port 0 here instead of the guide's 7411: any free port)
"$hysim" keygen guide/lab.key > /dev/null || fail "hysim keygen"
sed -i 's/127\.0\.0\.1:7411/127.0.0.1:0/' guide/lab.yaml
"$hysim" site --config guide/lab.yaml > site.out 2> site.log &
site_pid=$!
port=""
for _ in $(seq 1 100); do
    port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' site.out | head -1)
    [ -n "$port" ] && break
    sleep 0.05
done
[ -n "$port" ] || fail "the site did not start"
"$hysim" run guide/first_hybrid_remote.yaml --set "sites.lab.url=hysim://127.0.0.1:$port" \
    --set analysis.duration=3 -o remote --quiet || fail "the remote run exited $?"
[ "$(grep -o '"status": "[a-z]*"' remote/summary.json)" = '"status": "completed"' ] ||
    fail "the remote run did not complete"
[ "$(number steps remote/summary.json)" = 300 ] || fail "the remote run did not make 300 steps"
site_steps=$(tr -d '\n' < remote/summary.json | grep -o '"sites": \[ *{"name": "lab", "steps": [0-9]*' |
    grep -o '[0-9]*$')
[ "$site_steps" = 300 ] || fail "the remote site reports $site_steps steps, not 300"
pv=$(peak2 virtual/summary.json)
pr=$(peak2 remote/summary.json)
awk -v a="$pv" -v b="$pr" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 0.05 * a) }' ||
    fail "peak roof displacement: virtual $pv mm, remote $pr mm (more than 5 % apart)"
kill -TERM "$site_pid"
wait "$site_pid"
rc=$?
site_pid=""
[ "$rc" = 0 ] || fail "the site exited $rc on SIGTERM"
echo "guide.sh: first hybrid test, 300 steps: roof peak virtual $pv mm, remote $pr mm (port $port)"
