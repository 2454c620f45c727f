#!/usr/bin/env bash
# hysim pretest over a real laboratory starts where the rig rests (issue 17, item 1.3;
# docs/pretest.md, "Over a real laboratory"). A `hysim plant` (a perfect actuator on a linear
# spring of stiffness 2.5) rests at 1.2 mm (`--start 1.2`), over shm and over udp (the plant's
# periodic reply to the site's fixed local address). `hysim pretest --log` runs the three
# procedures about that rest, paced on the site's rate: the first command of the tick log is 1.2
# exactly, every command is within the stroke, the velocity, step and acceleration limits (from
# the rig at rest at 1.2), the last is back at 1.2, the noise run's displacement mean is 1.2 and
# K0l equals the plant's 2.5 within 1 % (tests/cli/pretest.sh's tolerance), and the run lasts
# about its ticks / rate. (Before, the first command was 0: 1.2 mm in one tick, 1200 mm/s against
# 400; and the dynamics' step took 0.4 mm at its first tick from rest: 400000 mm/s^2 against a
# limit of 20000, with the ticks as fast as the plant answered.) A rig
# beyond the stroke (60 mm of 50) is refused before anything moves, naming actuator, position,
# limit and units, and so is an amplitude that fits about 0 but not about the rest.
# Usage: pretest_rig.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
. "$(dirname "$0")/lib/two_story_lab.sh"
. "$(dirname "$0")/lib/plant_lab.sh"
name="/hysim-test-pretest-rig-$$"
plant_lab_frame
if ! command -v python3 >/dev/null 2>&1; then
    echo "pretest_rig.sh: SKIP: python3 is not available to read the JSON and find free ports"
    exit 0
fi
rate=1000 stroke=50 vel=400 acc=20000 step=0.35 x0=1.2 K=2.5
local_port=$(free_port udp) plant_port=$(free_port udp) plant_K=$K
packets='  endian: little
  command_packet: [{counter: uint32}, {command: float64, channel: a1}]
  reply_packet: [{counter: uint32}, {echo: uint32}, {tick: uint32}, {status: uint32},
                 {displacement: float64, channel: a1}, {force: float64, channel: a1}]'

site_file() { # KIND
    cat > "$dir/site_$1.yaml" <<YAML
hysim: 1
site:
  name: east
  plain: true
  rate: $rate
  actuators: {a1: {stroke: $stroke, velocity_limit: $vel, force_limit: 1000,
                   acceleration_limit: $acc, step_limit: $step}}
  specimen: {type: linear, K: [[$K]]}
$(site_lab "$1")
YAML
}

# about_the_rest KIND: the three procedures from a rig at x0, every tick checked
about_the_rest() {
    start_plant "$1" $x0 "127.0.0.1:$local_port" "$plant_port"
    site_file "$1"
    local t0 t1
    t0=$(date +%s.%N)
    "$hysim" pretest --config "$dir/site_$1.yaml" -o "$dir/$1.json" --noise 0.5 \
        --stiffness 1,1,2 --dynamics 0.5,0.25,1 --log "$dir/$1.csv" > "$dir/$1.out" \
        2> "$dir/$1.err" || fail "$1: pretest exited $?"
    t1=$(date +%s.%N)
    stop_plant
    grep -q "pretest: site east: actuator a1 rests at 1.2: the procedures command about it (the first command is it) and return to it" "$dir/$1.err" ||
        fail "$1: pretest did not say where the rig rests: $(cat "$dir/$1.err")"
    local verdict ok n first last
    verdict=$(awk -F, -v r=$rate -v S=$stroke -v V=$vel -v A=$acc -v D=$step -v x0=$x0 '
        NR == 1 { c1 = x0; c2 = x0; next }
        { c = $2; n++; if (n == 1) first = c; last = c
          if (c < 0 ? -c > S : c > S) bad = bad " stroke@" $1
          d = c - c1; if (d < 0) d = -d
          if (d > D * (1 + 1e-9)) bad = bad " step@" $1
          if (d * r > V * (1 + 1e-9)) bad = bad " velocity@" $1
          a = (c - 2 * c1 + c2) * r * r; if (a < 0) a = -a
          if (a > A * (1 + 1e-9)) bad = bad " acceleration@" $1
          c2 = c1; c1 = c }
        END { printf "%s|%d|%.17g|%.17g", (bad == "" ? "ok" : substr(bad, 1, 200)), n, first, last }' "$dir/$1.csv")
    IFS='|' read -r ok n first last <<< "$verdict"
    [ "$ok" = ok ] || fail "$1: a command crossed a limit:$ok"
    awk -v c="$first" -v l="$last" -v x=$x0 'BEGIN { exit !(c == x && l == x) }' ||
        fail "$1: the first command is $first, the last $last; the rig rests at $x0"
    local k mean verdict_json
    read -r k mean verdict_json <<< "$(python3 - "$dir/$1.json" $x0 $K <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
x0, K = float(sys.argv[2]), float(sys.argv[3])
mean = r["noise"]["channels"]["a1"]["displacement"]["mean"]
k = r["stiffness"]["K0l"][0][0]
ok = abs(mean - x0) <= 1e-9 and abs(k - K) <= 0.01 * K
print("%.6g %.9g %s" % (k, mean, "ok" if ok else "bad"))
PY
)"
    [ "$verdict_json" = ok ] || fail "$1: noise mean $mean (rig at $x0), K0l $k (plant $K, within 1 %)"
    # paced on the rate: n ticks take at least (n - 1) / rate s (a loaded machine only adds)
    local took
    took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    awk -v t="$took" -v n="$n" -v r=$rate 'BEGIN { exit !(t >= 0.98 * (n - 1) / r) }' ||
        fail "$1: $n ticks took $took s, less than at $rate Hz"
    echo "pretest_rig.sh $1: rig at $x0 mm; first command $first, last $last; every command of" \
        "$n ticks within the stroke, step, velocity and acceleration limits, in $took s;" \
        "noise mean $mean mm; K0l $k (plant $K)"
}

# refused KIND START ARGS TEXT: pretest refuses before anything moves (exit 2, no file)
refused() {
    start_plant "$1" "$2" "127.0.0.1:$local_port" "$plant_port"
    site_file "$1"
    "$hysim" pretest --config "$dir/site_$1.yaml" -o "$dir/refused.json" $3 --log "$dir/refused.csv" \
        > "$dir/refused.out" 2> "$dir/refused.err"
    local rc=$?
    stop_plant
    [ $rc -eq 2 ] || fail "$1: pretest from $2 with $3 exited $rc, expected 2"
    grep -q "$4" "$dir/refused.err" || fail "$1: the refusal: $(cat "$dir/refused.err")"
    [ ! -f "$dir/refused.json" ] || fail "$1: a refused pretest wrote its file"
    [ "$(grep -c . "$dir/refused.csv" 2>/dev/null || echo 0)" -le 1 ] ||
        fail "$1: a refused pretest commanded the rig"
    echo "pretest_rig.sh $1: refused (exit 2): $(grep -o "$4" "$dir/refused.err" | head -1)"
}

if [ -d /dev/shm ]; then
    about_the_rest shm
    refused shm 60 "--noise 0.5" "actuator a1 rests at 60, beyond its stroke limit 50 (the test.s length units): the site will not command it"
    refused shm $x0 "--stiffness 49.5,1,2" "amplitude 49.5 exceeds its stroke 50 (about its rest 1.2)"
else
    echo "pretest_rig.sh: SKIP shm: no /dev/shm on this machine"
fi
about_the_rest udp
exit 0
