#!/bin/bash
# Trusses of a uniaxial material in the script's own analysis (docs/opensees_tcl.md, `element
# truss`; src/fe/fe_truss.c), with `pset`, `load ... -const` and the recorders' `-load` and
# `material stress|strain|tangent`. A script written here: two Steel01 bars (fy 250 MPa, E 200 GPa,
# b = 0.01, A = 0.01 m2) at 45 degrees carry node 3 under a constant load of 100 kN (-const, in
# a Linear pattern) and a reference load of 1 kN (Linear). Theory, LoadControl to the factor
# 5000: the bars' vertical components carry 100 + 5000 kN (with the constant load scaled by the
# factor it would be 101 x 5000), so N = 5100 / (2 sin 45), the strain eps_y + (N / A - fy) /
# (b E) on the hardening branch and node 3 down by eps L / sin 45. The same bars as truss and
# corotTruss, and as trusses of a fiber section of that steel (the section form, equal to the
# material's bars), through a cyclic DisplacementControl history (after LoadControl to the factor 100,
# so that its reference load is the 1 kN of the Linear pattern), against OpenSees when OPENSEES is set
# (every recorder column to 1e-8 of its peak plus half a unit of the last printed digit). OpenSees 3.8 reads
# `-const` as a force (OPS_NodalLoad counts it among the ndf values), so its copy of the script
# has the constant load in a pattern of a Constant series instead, the same load at every time.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

# bars TYPE INTEGRATOR...: the script (TYPE truss or corotTruss), each INTEGRATOR command run
# for 10 steps
bars() {
    local type=$1
    shift
    cat <<TCL
model BasicBuilder -ndm 2 -ndf 2
pset fy 250000.0
node 1 0.0 0.0
node 2 4.0 0.0
node 3 2.0 2.0
fix 1 1 1
fix 2 1 1
uniaxialMaterial Steel01 1 \$fy 2.0e8 0.01
element $type 1 1 3 0.01 1
element $type 2 2 3 0.01 1
timeSeries Linear 1
pattern Plain 1 1 { load 3 0.0 -100.0 -const }
pattern Plain 2 1 { load 3 0.0 -1.0 }
recorder Node -file disp.out -load -node 3 -dof 1 2 disp
recorder Element -file force.out -time -precision 15 -ele 1 2 axialForce
recorder Element -file stress.out -time -precision 15 -ele 1 2 material stress
recorder Element -file strain.out -time -precision 15 -ele 1 2 material strain
recorder Element -file tangent.out -time -precision 15 -ele 1 2 material tangent
constraints Plain
numberer Plain
system BandGeneral
test NormUnbalance 1.0e-8 30
algorithm Newton
analysis Static
foreach step {$*} {
    eval integrator \$step
    if {[analyze 10] != 0} { puts "analyze failed"; exit }
}
puts "lambda [getTime] u [nodeDisp 3 2]"
TCL
}
testfile() { printf 'hysim: 1\nname: bars\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: %s}\n' "$1"; }

# --- theory: the hardening branch ---
bars truss "{LoadControl 500.0}" > push.tcl
testfile push.tcl > push.yaml
"$hysim" run push.yaml -o run1 > run.out 2> run.err || fail "run: $(cat run.out run.err)"
read -r _ lam _ u < <(grep '^lambda ' run.out)
near "$lam" 5000 1e-12 || fail "load factor $lam, expected 5000"
read -r N eps du <<< "$(awk 'BEGIN { s = sqrt(0.5); N = 5100 / (2 * s); e = 250000 / 2e8 + (N / 0.01 - 250000) / (0.01 * 2e8)
    printf "%.17g %.17g %.17g\n", N, e, -e * sqrt(8) / s }')"
near "$u" "$du" 1e-9 || fail "node 3 at $u, expected $du (the hardening branch; 101 x 5000 if -const were scaled)"
read -r _ n1 n2 < <(tail -1 run1/force.out)
near "$n1" "-$N" 1e-9 && near "$n2" "-$N" 1e-9 || fail "axial forces $n1 $n2, expected -$N"
read -r _ s1 _ < <(tail -1 run1/stress.out)
near "$s1" "$(awk -v n="$N" 'BEGIN { printf "%.17g", -n / 0.01 }')" 1e-9 || fail "stress $s1, expected -N / A"
read -r _ e1 _ < <(tail -1 run1/strain.out)
near "$e1" "-$eps" 1e-9 || fail "strain $e1, expected -$eps"
read -r _ k1 k2 < <(tail -1 run1/tangent.out)
near "$k1" 2.0e6 1e-12 && near "$k2" 2.0e6 1e-12 || fail "tangents $k1 $k2, expected b E = 2e6"
[ "$(wc -l < run1/disp.out)" -eq 10 ] || fail "$(wc -l < run1/disp.out) rows in disp.out"
[ "$(tail -1 run1/disp.out | awk '{ print $1 }')" = 5000 ] || fail "-load: $(tail -1 run1/disp.out)"
echo "$me: hardening: node 3 at $u m ($du), N = $n1 kN, stress $s1, strain $e1, tangent $k1"

# --- against OpenSees: truss and corotTruss, a cyclic history with hardening ---
rest_needs_opensees
for type in truss corotTruss section; do
    mkdir -p "$type/os"
    bars "${type/section/truss}" "{LoadControl 10.0}" "{DisplacementControl 3 2 -0.003}" "{DisplacementControl 3 2 0.005}" \
        "{DisplacementControl 3 2 -0.007}" "{DisplacementControl 3 2 0.005}" > "$type/bars.tcl"
    if [ "$type" = section ]; then # the bars of a fiber section of 0.01 m2 of the same steel
        sed -i -e 's/^element truss \([0-9]\) \([0-9]\) 3 0.01 1$/element truss \1 \2 3 2/' \
            -e 's/^uniaxialMaterial.*/&\nsection Fiber 2 { patch rect 1 2 2 -0.05 -0.05 0.05 0.05 }/' \
            -e '/material stress\|material strain\|material tangent/d' "$type/bars.tcl"
        grep -q "^element truss 2 2 3 2$" "$type/bars.tcl" || fail "no section form in $type/bars.tcl"
    fi
    sed -e 's/^pattern Plain 1 1 { load 3 0.0 -100.0 -const }/timeSeries Constant 2\npattern Plain 1 2 { load 3 0.0 -100.0 }/' \
        "$type/bars.tcl" > "$type/os/bars.tcl"
    grep -q Constant "$type/os/bars.tcl" || fail "the OpenSees twin has no Constant pattern"
    testfile bars.tcl > "$type/bars.yaml"
    (cd "$type" && "$hysim" run bars.yaml -o run > run.log 2>&1) || fail "$type: $(cat "$type/run.log")"
    (cd "$type/os" && run_opensees bars.tcl os.log) || fail "$type: OpenSees: $(tail -5 "$type/os/os.log")"
    for f in disp force stress strain tangent; do
        [ "$type" = section ] && [ "$f" = stress -o "$f" = strain -o "$f" = tangent ] && continue
        [ -s "$type/os/$f.out" ] || fail "$type: OpenSees wrote no $f.out: $(tail -5 "$type/os/os.log")"
        [ "$(wc -l < "$type/run/$f.out")" -eq "$(wc -l < "$type/os/$f.out")" ] || fail "$type $f.out: row counts"
        half=5e-15 # half a unit of the last printed digit: -precision 15, disp.out 6 digits
        [ "$f" = disp ] && half=5e-6
        w=$(paste -d'|' "$type/run/$f.out" "$type/os/$f.out" | awk -F'|' -v h="$half" '
            { n = split($1, a, " "); split($2, b, " ")
              for (j = 1; j <= n; j++) { d = a[j] - b[j]; if (d < 0) d = -d; x = a[j] < 0 ? -a[j] : a[j]
                  if (x > p[j]) p[j] = x; r = x > 0 ? h * 10 ^ int(log(x) / log(10)) : 0
                  if (d - r > m[j]) m[j] = d - r } }
            END { for (j = 1; j <= n; j++) if (p[j] > 0 && m[j] / p[j] > w) w = m[j] / p[j]; printf "%.2g\n", w + 0 }')
        awk -v w="$w" 'BEGIN { exit !(w <= 1e-8) }' || fail "$type $f.out differs from OpenSees by $w of a peak"
        echo "$me: $type $f.out: $(wc -l < "$type/run/$f.out") rows, difference from OpenSees $w of the peaks"
    done
done
# the truss of a section of one material is the truss of that material (the fibers' areas sum
# to 0.01 within round-off)
d=$(paste -d' ' section/run/force.out truss/run/force.out | awk '{ for (j = 1; j <= 3; j++) {
    d = $j - $(j + 3); if (d < 0) d = -d; if (d > m) m = d } } END { printf "%.3g\n", m / 3614.3 }')
awk -v d="$d" 'BEGIN { exit !(d <= 1e-14) }' || fail "the section's bars differ from the material's by $d of the peak"
echo "$me: the section's bars against the material's: $d of the peak"
echo "$me: OK"
