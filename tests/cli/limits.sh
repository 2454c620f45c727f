#!/usr/bin/env bash
# Safety-limit trips tell the truth: which limit, the offending value and the limit with units,
# the likely cause; summary.json's limit_flags record the trip (hybrid block and site).
#  1. An all-experimental SDOF (T = 0.5 s, perfect lab) integrated with explicit Newmark at
#     dt = 0.2 s: Omega = 2.513 > 2, the amplification matrix has the eigenvalue
#     lambda = ((2 - Omega^2) - sqrt((2 - Omega^2)^2 - 4)) / 2 = -4.0716, so the targets grow
#     4.07 times a step with alternating signs: the stroke trips and the message names an
#     unstable integration with that factor (within 2 %); `hysim check` warned before.
#  2. A force limit of 100 kN below the specimen's force: limit_flags 64 (HS_SITE_LIMIT_FORCE)
#     in the hybrid block and in the site's entry.
#  3. A velocity limit of 50 mm/s below the targets' own speed: the message gives the targets'
#     speed at the lab (above 50) and says to scale the record or raise the time scale.
# Usage: limits.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$dir" || exit 1

sdof() { # DT STROKE VELOCITY_LIMIT FORCE_LIMIT
cat > t.yaml <<YAML
hysim: 1
name: limits
units: {force: kN, length: mm, time: s}
structure:
  dofs: 1
  mass: [0.1]
  damping: {modal: {ratios: [0.0]}}
experimental:
  - {name: col, site: lab, story: 1, actuators: [a1], initial_stiffness: [[15.791367041742973]]}
sites:
  lab:
    kind: virtual
    rate: 1000
    perfect: true
    actuators:
      a1: {stroke: $2, velocity_limit: $3, force_limit: $4}
    specimen: {type: linear, K: [[15.791367041742973]]}
ground_motion:
  synthetic: {seed: 11, pga: 3000, duration: 10, dt: 0.01}
analysis:
  integrator: {type: newmark_explicit}
  dt: $1
  duration: 10
YAML
}
reason() { sed -n 's/^  "reason": "\(.*\)",$/\1/p' "$1/summary.json"; }
flags() { grep -o "\"limit_flags\": [0-9]*" "$1/summary.json" | awk '{print $2}' | tr '\n' ' '; }

# 1. unstable integration
sdof 0.2 1000000 1e12 0
"$hysim" check t.yaml | grep -q "exceeds newmark_explicit's stability limit 2" || fail "check did not warn"
"$hysim" run t.yaml -o r1 --quiet 2> err; rc=$?
[ $rc -eq 3 ] || fail "unstable run: exit $rc (expected 3, aborted by the site): $(cat err)"
msg=$(reason r1)
echo "1: $msg"
case "$msg" in
"site lab: safety limit: stroke limit on a1: command "*" mm beyond +-1e+06 mm; likely an unstable integration: targets grow x"*", alternating"*"the site holds, the test stops") ;;
*) fail "unstable run's reason: $msg" ;;
esac
g=$(echo "$msg" | sed -n 's/.*targets grow x\([0-9.]*\) a step.*/\1/p')
lam=$(awk 'BEGIN { w = 2 * 3.141592653589793 / 0.5; O = w * 0.2; b = 2 - O * O
                   printf "%.6f", -(b - sqrt(b * b - 4)) / 2 }')
awk -v g="$g" -v l="$lam" 'BEGIN { exit !(g > 0.98 * l && g < 1.02 * l) }' ||
    fail "growth factor $g, theory |lambda| = $lam"
echo "1: growth x$g, theory $lam; limit_flags $(flags r1)"
[ "$(flags r1)" = "16 16 " ] || fail "stroke trip: limit_flags $(flags r1), expected 16 16"

# 2. force limit: the flags say so
sdof 0.002 1000 100000 100
"$hysim" run t.yaml -o r2 --quiet 2> err; rc=$?
[ $rc -eq 3 ] || fail "force-limited run: exit $rc"
msg=$(reason r2)
echo "2: $msg"
case "$msg" in
"site lab: safety limit: force limit on a1: predicted 10"*" kN beyond +-100 kN; the specimen would resist more than the limit; the site holds, the test stops") ;;
*) fail "force trip's reason: $msg" ;;
esac
[ "$(flags r2)" = "64 64 " ] || fail "force trip: limit_flags $(flags r2), expected 64 64 (hybrid, site)"

# 3. velocity limit below the targets' speed
sdof 0.002 1000 50 0
"$hysim" run t.yaml -o r3 --quiet 2> err; rc=$?
[ $rc -eq 3 ] || fail "velocity-limited run: exit $rc"
msg=$(reason r3)
echo "3: $msg"
case "$msg" in
"site lab: safety limit: velocity limit on a1: "*" mm/s beyond 50 mm/s; the targets alone need "*" mm/s: scale the record or raise analysis.time_scale;"*) ;;
*) fail "velocity trip's reason: $msg" ;;
esac
v=$(echo "$msg" | sed -n 's/.*the targets alone need \([0-9.e+]*\) mm\/s.*/\1/p')
awk -v v="$v" 'BEGIN { exit !(v > 50) }' || fail "targets' speed $v not above the limit 50"
[ "$(flags r3)" = "32 32 " ] || fail "velocity trip: limit_flags $(flags r3)"
echo "limits.sh: ok"
