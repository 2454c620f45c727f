#!/usr/bin/env bash
# `hysim check` beyond syntax: the record's PGA in g, the periods, a modal response-spectrum
# estimate, and one numbered warning line (exit 0) per likely physics mistake, each with numbers
# computed here independently:
#  - the spectrum estimate of a linear SDOF against the peak of its time history (`hysim run`
#    with average-acceleration Newmark at dt = 0.002 s), displacement and velocity;
#  - omega_max dt against the stability limit: explicit Newmark 2 (omega_2 of the two-story
#    frame from the closed form), Newmark beta = 1/6 sqrt(12), HHT none;
#  - dt x rate x time_scale not a whole number of controller ticks;
#  - a record in g read as length/s^2, and one scaled by g twice;
#  - masses given as weights (T1 sqrt(g) too long);
#  - stroke and velocity limits just below / above the estimate (velocity at the lab divided by
#    the time scale);
#  - `exact` with experimental elements: refused (exit 2), by check and by run.
# Usage: check_physics.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$dir" || exit 1
near() { # A B RELTOL: |A - B| <= RELTOL |B|
    awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; if (b < 0) b = -b
                                               exit !(d <= r * b) }'
}
check() { "$hysim" check "$@" > out 2> err; rc=$?; [ $rc -eq 0 ] || fail "check $*: exit $rc: $(cat err)"; }
warnings() { grep -c '^warning [0-9]*: ' out; }

# ---- a linear SDOF, T = 0.5 s, 5 % damping, kN mm s
cat > sdof.yaml <<'YAML'
hysim: 1
name: sdof
units: {force: kN, length: mm, time: s}
structure:
  dofs: 1
  mass: [0.1]
  shear_building:
    stories: [{material: col}]
  damping: {modal: {ratios: [0.05]}}
materials:
  col: {type: elastic, k: 15.791367041742973}
ground_motion:
  synthetic: {seed: 11, pga: 3000, duration: 10, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.002
  duration: 12
YAML
check sdof.yaml
grep -q "^record: PGA 3000 mm/s^2 = 0.3059 g at [0-9.]* s, duration 10 s" out ||
    fail "record line (3000 mm/s^2 / 9806.65 = 0.3059 g): $(grep record out)"
grep -q "^periods (s): 0.5; damping (% of critical): 5$" out || fail "periods: $(grep periods out)"
[ "$(warnings)" -eq 0 ] || fail "warnings for a sound SDOF: $(cat out)"
est=$(sed -n 's/^response estimate.*peak |d| per DOF (mm): \([0-9.e+-]*\)$/\1/p' out)
"$hysim" run sdof.yaml -o run --quiet || fail "run sdof"
read -r peak vpeak < <(awk -F, 'NR > 1 { d = $2 < 0 ? -$2 : $2; if (d > m) m = d
    if (NR > 2) { v = ($2 - p) / 0.002; if (v < 0) v = -v; if (v > mv) mv = v } p = $2 }
    END { print m, mv }' run/response.csv)
near "$est" "$peak" 0.005 || fail "spectral displacement $est mm vs time-history peak $peak mm"
echo "SDOF: spectrum estimate $est mm, time-history peak $peak mm (velocity peak $vpeak mm/s)"

# ---- the same SDOF as a hybrid test: one actuator on a perfect linear specimen
hybrid() { # STROKE VELOCITY_LIMIT TIME_SCALE [INTEGRATOR]
cat > hyb.yaml <<YAML
hysim: 1
name: sdof-hybrid
units: {force: kN, length: mm, time: s}
structure:
  dofs: 1
  mass: [0.1]
  damping: {modal: {ratios: [0.05]}}
experimental:
  - {name: col, site: lab, story: 1, actuators: [a1], initial_stiffness: [[15.791367041742973]]}
sites:
  lab:
    kind: virtual
    rate: 1000
    perfect: true
    actuators:
      a1: {stroke: $1, velocity_limit: $2}
    specimen: {type: linear, K: [[15.791367041742973]]}
ground_motion:
  synthetic: {seed: 11, pga: 3000, duration: 10, dt: 0.01}
analysis:
  integrator: {type: ${4:-newmark_explicit}}
  dt: 0.002
  duration: 12
  time_scale: $3
YAML
}
hybrid 100 1000 1
check hyb.yaml
line=$(grep "actuator lab.a1:" out) || fail "no actuator line: $(cat out)"
x=$(echo "$line" | sed -n 's/.*|x| ~ \([0-9.e+-]*\) mm.*/\1/p')
v=$(echo "$line" | sed -n 's/.*|v| ~ \([0-9.e+-]*\) mm\/s.*/\1/p')
near "$x" "$peak" 0.005 || fail "actuator estimate $x mm vs time-history peak $peak mm"
near "$v" "$vpeak" 0.01 || fail "actuator velocity estimate $v mm/s vs time-history peak $vpeak mm/s"
[ "$(warnings)" -eq 0 ] || fail "warnings with generous limits: $(cat out)"
# stroke 0.95 x and 1.05 x the estimate; velocity limit 0.95 x and 1.05 x v / time scale 4
lo=$(awk -v x="$x" 'BEGIN { printf "%.4g", 0.95 * x }')
hi=$(awk -v x="$x" 'BEGIN { printf "%.4g", 1.05 * x }')
vlo=$(awk -v v="$v" 'BEGIN { printf "%.4g", 0.95 * v / 4 }')
vhi=$(awk -v v="$v" 'BEGIN { printf "%.4g", 1.05 * v / 4 }')
hybrid "$lo" "$vhi" 4
check hyb.yaml
[ "$(warnings)" -eq 1 ] && grep -q "^warning 1: sites.lab.actuators.a1.stroke = $lo mm is below the estimated peak" out ||
    fail "stroke $lo below the estimate $x: $(cat out)"
hybrid "$hi" "$vlo" 4
check hyb.yaml
[ "$(warnings)" -eq 1 ] && grep -q "^warning 1: sites.lab.actuators.a1.velocity_limit = $vlo mm/s is below the estimated peak" out ||
    fail "velocity limit $vlo below the estimate $v / 4: $(cat out)"
grep -q "raise analysis.time_scale to at least 4.2" out || fail "time scale advice: $(cat out)"
echo "limits: stroke warned at $lo and not at $hi mm; velocity at $vlo and not at $vhi mm/s"

# exact cannot take measured forces: exit 2 at check and at run
hybrid 100 1000 1 exact
"$hysim" check hyb.yaml > out 2> err; rc=$?
[ $rc -eq 2 ] && grep -q "analysis.integrator: 'exact' cannot take measured forces" err ||
    fail "check with exact and an experimental element: exit $rc: $(cat err)"
"$hysim" run hyb.yaml -o ex --quiet > out 2> err; rc=$?
[ $rc -eq 2 ] || fail "run with exact and an experimental element: exit $rc (expected 2)"

# ---- the two-story frame: stability, ticks, record units, weights (kip, in, s)
frame() { # MASS DT INTEGRATOR PGA [RATE]
cat > frame.yaml <<YAML
hysim: 1
name: frame
units: {force: kip, length: in, time: s}
structure:
  dofs: 2
  mass: [$1, $1]
  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}
experimental:
  - {name: s1, site: lab, story: 1, actuators: [a1], initial_stiffness: [[2.8]]}
  - {name: s2, site: lab, story: 2, actuators: [a2], initial_stiffness: [[2.8]]}
sites:
  lab:
    kind: virtual
    rate: ${5:-1000}
    perfect: true
    actuators: {a1: {}, a2: {}}
    specimen: {type: linear, K: [[2.8, 0], [0, 2.8]]}
ground_motion:
  synthetic: {seed: 3, pga: $4, duration: 10, dt: 0.01}
analysis:
  integrator: $3
  dt: $2
  steps: 100
YAML
}
# omega_2^2 = (k/m)(3 + sqrt 5)/2 for two equal stories
w2=$(awk 'BEGIN { print sqrt(2.8 / 0.01036 * (3 + sqrt(5)) / 2) }')
frame 0.01036 0.07 "{type: newmark_explicit}" 115.8
check frame.yaml
[ "$(warnings)" -eq 0 ] || fail "dt 0.07 (omega dt $(awk -v w="$w2" 'BEGIN{print w*0.07}')): $(cat out)"
frame 0.01036 0.08 "{type: newmark_explicit}" 115.8
check frame.yaml
om=$(awk -v w="$w2" 'BEGIN { printf "%.4g", w * 0.08 }')
dtmax=$(awk -v w="$w2" 'BEGIN { printf "%.4g", 2 / w }')
grep -q "^warning 1: analysis.dt = 0.08 s: omega dt = $om in mode 2 .* exceeds newmark_explicit's stability limit 2 .* use dt <= $dtmax s" out ||
    fail "stability warning (omega dt $om, dt <= $dtmax): $(cat out)"
frame 0.01036 0.13 "{type: newmark, beta: 0.1666666667}" 115.8
check frame.yaml
[ "$(warnings)" -eq 0 ] || fail "linear acceleration at omega dt $(awk -v w="$w2" 'BEGIN{print w*0.13}') < sqrt 12: $(cat out)"
frame 0.01036 0.131 "{type: newmark, beta: 0.1666666667}" 115.8
check frame.yaml
grep -q "^warning 1: .* exceeds newmark's stability limit 3.464" out ||
    fail "linear acceleration beyond sqrt 12: $(cat out)"
frame 0.01036 0.5 "{type: hht}" 115.8
check frame.yaml
! grep -q "stability limit" out || fail "hht is unconditionally stable: $(cat out)"
echo "stability: explicit Newmark warned at omega dt $om (limit 2), not at 0.07 s; beta 1/6 at sqrt 12"

# controller ticks: 0.01 s x 1024 Hz = 10.24 ticks
frame 0.01036 0.01 "{type: newmark_explicit}" 115.8 1024
check frame.yaml
grep -q "^warning 1: site lab: a step is dt x rate x time_scale = 0.01 x 1024 x 1 = 10.24 controller ticks, not a whole number.*choose dt = 0.00976562 s (10 ticks)" out ||
    fail "ticks warning: $(cat out)"

# record in g (0.3 in/s^2 = 0.000777 g), and scaled by g twice (44710 in/s^2 = 115.8 g)
frame 0.01036 0.01 "{type: newmark_explicit}" 0.3
check frame.yaml
grep -q "^warning 1: ground_motion: PGA 0.3 in/s^2 is 0.000777 g.*looks like it is in g.*(386.089 in/s^2)" out ||
    fail "record in g: $(cat out)"
frame 0.01036 0.01 "{type: newmark_explicit}" 44710
check frame.yaml
grep -q "^warning 1: ground_motion: PGA 4.471e+04 in/s^2 is 115.8 g.*scaled twice" out ||
    fail "record scaled twice: $(cat out)"

# masses given as weights: 4 kip instead of 4 / 386.09 kip s^2/in; T1 = 0.6184 sqrt(g)
frame 4 0.01 "{type: hht}" 115.8
check frame.yaml
t1=$(awk 'BEGIN { printf "%.4g", 2 * 3.141592653589793 / sqrt(2.8 / 4 * (3 - sqrt(5)) / 2) }')
t1m=$(awk 'BEGIN { t = 2 * 3.141592653589793 / sqrt(2.8 / 4 * (3 - sqrt(5)) / 2)
                   printf "%.4g", t / sqrt(9.80665 / 0.0254) }')
grep -q "^warning 1: structure.mass: the first period is $t1 s.*look like weights.*T1 would be $t1m s" out ||
    fail "weights ($t1 s, $t1m s as masses): $(cat out)"
grep -q "^frame.yaml: 1 warning$" out || fail "summary line: $(tail -1 out)"
echo "check_physics.sh: ok"
