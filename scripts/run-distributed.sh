#!/usr/bin/env bash
# The default example of `make run`: starts two `hysim site` processes on loopback (keys and site
# files made here, ports chosen by the sites), runs Mosqueda et al.'s (2004) two-site test through them on the
# real clock, stops the sites, prints the summary and draws the plots.
# Usage: run-distributed.sh PATH_TO_hysim OUTPUT_DIR [hysim run options, e.g. --set KEY=VALUE]
# The sites' process ids are written to OUTPUT_DIR/distributed/sites.pids (one a line); every one
# of them is stopped before the script exits, also on failure or interruption.
set -euo pipefail
hysim=$1
out=$2
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
work="$out/distributed"
rm -rf "$work"
mkdir -p "$work"
pids=()
stop_sites() {
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap stop_sites EXIT
trap 'exit 130' INT TERM

# start_site NAME MATERIAL: starts the site in this shell (never inside $(...), where its pid
# would be lost to the cleanup) and sets site_port.
site_port=""
start_site() {
    local name=$1
    "$hysim" keygen "$work/$name.key" > /dev/null
    sed -e "s/@NAME@/$name/" -e "s/@MATERIAL@/$2/" -e "s|@KEY@|$name.key|" \
        "$src/examples/distributed/site.yaml.in" > "$work/$name.yaml"
    "$hysim" site --config "$work/$name.yaml" --log "$work/$name.ticks.csv" \
        > "$work/$name.out" 2> "$work/$name.log" &
    pids+=($!)
    echo "$!" >> "$work/sites.pids"
    local port=""
    for _ in $(seq 1 100); do
        port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/$name.out" | head -1)
        [ -n "$port" ] && break
        sleep 0.05
    done
    if [ -z "$port" ]; then
        echo "site $name did not start:" >&2
        cat "$work/$name.log" >&2
        exit 1
    fi
    site_port=$port
}
start_site lab1 column1
port1=$site_port
start_site lab2 column2
port2=$site_port
echo "sites: lab1 on 127.0.0.1:$port1, lab2 on 127.0.0.1:$port2"
sed -e "s/@PORT1@/$port1/" -e "s/@PORT2@/$port2/" -e "s|@KEY1@|lab1.key|" -e "s|@KEY2@|lab2.key|" \
    "$src/examples/distributed/test.yaml.in" > "$work/test.yaml"
status=0
"$hysim" run "$work/test.yaml" -o "$out" --force "$@" || status=$? # the demo replaces its last run
stop_sites
trap - EXIT
for s in lab1 lab2; do
    tail -3 "$work/$s.log" | sed "s/^/$s: /" || true
done
"$hysim" plot "$out" > /dev/null || true
exit $status
