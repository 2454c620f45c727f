#!/usr/bin/env bash
# Fiber frames from OpenSees scripts (section Fiber, beamIntegration, forceBeamColumn,
# dispBeamColumn; docs/opensees_tcl.md, docs/fe_model.md "Beam-columns with sections"):
#  - a portal of force- and displacement-based members whose fibers are elastic has, by
#    `hysim modes`, the periods of the elasticBeamColumn portal with the fibers' EA and
#    EI = E (b h^3 / 12 (1 - 1/n^2) + bars) to every printed digit;
#  - the same portal with Concrete02 / Concrete01 cover and core and Steel02 bars, driven by a
#    strong synthetic record with HHT (Newton), completes 400 steps and closes its energy balance
#    within 1 % of the input (the summary's error; the force-based elements' state determination
#    converges at every step), its summary.json counting the two forceBeamColumns' iterations:
#    more than one a call on average (the fibers yield), at most 10 in one call (OpenSees'
#    maxIters, no fallback needed);
#  - the elastic-fiber portal run the same way: exactly one iteration a call (an elastic
#    section's flexibility is exact at once: the work after the first correction is round-off).
# Usage: opensees_fiber.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

tcl_head() {
    cat <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 6 0; node 3 0 3.5 -mass 50 50 0.1; node 4 6 3.5 -mass 50 50 0.1
fix 1 1 1 1; fix 2 1 1 1
geomTransf PDelta 1
geomTransf Linear 2
TCL
}
yaml() {
    cat <<YAML
hysim: 1
name: $1
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: $2}
$3
YAML
}

# elastic fibers: a 0.3 x 0.5 rectangle of 10 layers and 2 x 3 bars of 5e-4 at y = +-0.2
{ tcl_head; cat <<'TCL'
uniaxialMaterial Elastic 1 3e7
section Fiber 1 {
  patch rect 1 10 2 -0.25 -0.15 0.25 0.15
  layer straight 1 3 5e-4 0.2 -0.1 0.2 0.1
  layer straight 1 3 5e-4 -0.2 -0.1 -0.2 0.1
}
beamIntegration Lobatto 1 1 5
element forceBeamColumn 1 1 3 1 1
element forceBeamColumn 2 2 4 1 1
element dispBeamColumn 3 3 4 2 {Legendre 1 3}
TCL
} > fiber.tcl
read -r ea ei < <(awk 'BEGIN { E = 3e7; b = 0.3; h = 0.5; Ab = 5e-4
    printf "%.17g %.17g\n", E * (b * h + 6 * Ab), E * (b * h^3 / 12 * (1 - 1 / 100) + 6 * Ab * 0.04) }')
{ tcl_head; cat <<TCL
element elasticBeamColumn 1 1 3 1.0 $ea $(awk -v a="$ea" -v i="$ei" 'BEGIN { printf "%.17g", i / a }') 1
element elasticBeamColumn 2 2 4 1.0 $ea $(awk -v a="$ea" -v i="$ei" 'BEGIN { printf "%.17g", i / a }') 1
element elasticBeamColumn 3 3 4 1.0 $ea $(awk -v a="$ea" -v i="$ei" 'BEGIN { printf "%.17g", i / a }') 2
TCL
} > elastic.tcl
yaml fiber fiber.tcl "$(modes_only_tail)" > fiber.yaml
yaml elastic elastic.tcl "$(modes_only_tail)" > elastic.yaml
"$hysim" modes fiber.yaml > f.out 2>&1 || fail "modes of the fiber portal: $(cat f.out)"
"$hysim" modes elastic.yaml > e.out 2>&1 || fail "modes of the elastic portal: $(cat e.out)"
pf=$(periods f.out)
pe=$(periods e.out)
[ -n "$pf" ] && [ "$pf" = "$pe" ] || fail "fiber portal periods '$pf', elastic portal '$pe'"
echo "elastic-fiber portal: periods $pf s, as the elasticBeamColumn portal"

# reinforced concrete: Concrete02 core, Concrete01 cover, Steel02 bars
{ tcl_head; cat <<'TCL'
uniaxialMaterial Concrete02 1 -30000 -0.002 -6000 -0.01
uniaxialMaterial Concrete01 2 -25000 -0.002 -5000 -0.008
uniaxialMaterial Steel02 3 420000 2e8 0.01 18 0.925 0.15
section Fiber 1 {
  patch rect 1 12 2 -0.2 -0.15 0.2 0.15
  patch rect 2 2 2 -0.25 -0.15 -0.2 0.15
  patch rect 2 2 2 0.2 -0.15 0.25 0.15
  layer straight 3 3 5e-4 0.2 -0.1 0.2 0.1
  layer straight 3 3 5e-4 -0.2 -0.1 -0.2 0.1
}
beamIntegration Lobatto 1 1 5
element forceBeamColumn 1 1 3 1 1
element forceBeamColumn 2 2 4 1 1
element dispBeamColumn 3 3 4 4 1 2
rayleigh 0.3 0.0 0.002 0.0
TCL
} > rc.tcl
yaml rc_portal rc.tcl "ground_motion:
  synthetic: {seed: 1, pga: 6.0, duration: 4, dt: 0.01}
analysis:
  integrator: {type: hht, alpha: -0.05}
  dt: 0.01
  steps: 400" > rc.yaml
"$hysim" run rc.yaml -o rc_out > r.out 2>&1 || fail "run of the RC portal: $(cat r.out)"
grep -q "completed, 400 steps" r.out || fail "RC portal: $(cat r.out)"
err=$(sed -n 's/.*error \([0-9.e+-]*\) %.*/\1/p' r.out)
[ -n "$err" ] && awk -v e="$err" 'BEGIN { exit !(e < 1.0 && e > -1.0) }' ||
    fail "RC portal: energy balance error '$err' % (want below 1 %): $(cat r.out)"
echo "RC fiber portal: 400 HHT steps, energy balance error $err %"

# the element state determination counted in summary.json (issue 18, item 7)
esd() { # DIR KEY: the value of KEY in DIR/summary.json's element_state_determination
    sed -n "s/.*\"element_state_determination\": {.*\"$2\": \([0-9.e+-]*\).*/\1/p" "$1/summary.json"
}
read -r n c i m <<< "$(esd rc_out elements) $(esd rc_out calls) $(esd rc_out iterations) $(esd rc_out most_in_a_call)"
[ "$n" = 2 ] && [ "$c" -gt 400 ] && [ "$i" -gt "$c" ] && [ "$m" -ge 2 ] && [ "$m" -le 10 ] ||
    fail "RC portal: element state determination elements '$n' calls '$c' iterations '$i' most '$m': $(grep element_state rc_out/summary.json)"
echo "RC fiber portal: $n force-based elements, $i iterations in $c calls, at most $m in one"
yaml fiber_run fiber.tcl "ground_motion:
  synthetic: {seed: 1, pga: 6.0, duration: 4, dt: 0.01}
analysis:
  integrator: {type: newmark}
  dt: 0.01
  steps: 100" > fiber_run.yaml
"$hysim" run fiber_run.yaml -o fiber_out > fr.out 2>&1 || fail "run of the elastic-fiber portal: $(cat fr.out)"
read -r n c i m <<< "$(esd fiber_out elements) $(esd fiber_out calls) $(esd fiber_out iterations) $(esd fiber_out most_in_a_call)"
[ "$n" = 2 ] && [ "$c" -ge 100 ] && [ "$i" = "$c" ] && [ "$m" = 1 ] ||
    fail "elastic-fiber portal: elements '$n' calls '$c' iterations '$i' most '$m' (want one iteration a call)"
echo "elastic-fiber portal: $i iterations in $c calls, one each"
