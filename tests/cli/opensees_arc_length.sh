#!/bin/bash
# The arc-length integrators of a script's own analysis: HSConstraint arcLength <psi_u psi_f u_ref>
# (docs/opensees_tcl.md; OpenSees' SRC/analysis/integrator/HSConstraint.cpp): the step's
# increments held to psi_u^2 / u_ref^2 |dU|^2 + psi_f^2 dlambda^2 |P|^2 = arcLength^2. On a
# spring written here (k = 100, P = 10):
#  - psi_u = 0 is load control by arcLength / (psi_f |P|): on a Steel01 spring (Fy 5, b 0.05)
#    the load factor n arcLength / (psi_f |P|) and the bilinear displacement, to 1e-12;
#  - psi_f = 0 on an elastic spring, one iteration a step (test FixedNumIter 1): the predictor
#    on the sphere (u = arcLength), then the correction with OpenSees' own a3 (its C++ groups
#    `cu * (s + x) ^ (s + x) - arc2 + ...` as cu (s + x) . ((s + x) - arc2 + ...)): the root
#    computed here in awk, to 1e-12;
#  - integrator EQPath arcLength type (EQPath.cpp), types 1 (minimum residual displacement) and
#    2 (normal plane): on one DOF both hold the displacement at the predictor, n arcLength after
#    n steps, the load factor on Steel01's bilinear force, to 1e-12;
#  - with OPENSEES set, OpenSees 3.8 on every script: 1e-12 of the peak.
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

testfile() { # NAME SCRIPT: a test file naming only the script
    printf 'hysim: 1\nname: %s\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: %s}\n' "$1" "$2"
}
# spring MATERIAL TEST INTEGRATOR STEPS
spring() {
    cat << TCL
wipe
model basic -ndm 1 -ndf 1
node 1 0.0
node 2 0.0
fix 1 1
uniaxialMaterial $1
element zeroLength 1 1 2 -mat 1 -dir 1
timeSeries Linear 1
pattern Plain 1 1 { load 2 10.0 }
file mkdir out
recorder Node -file out/d.out -time -precision 16 -node 2 -dof 1 disp
constraints Plain
numberer Plain
system BandGeneral
test $2
algorithm Newton
integrator $3
analysis Static
set ok [analyze $4]
puts "ok \$ok"
TCL
}
spring "Steel01 1 5.0 100.0 0.05" "NormDispIncr 1e-12 20" "HSConstraint 0.2 0.0 1.0 1.0" 40 > load.tcl
spring "Elastic 1 100.0" "FixedNumIter 1" "HSConstraint 0.01 1.0 0.0 1.0" 3 > arc.tcl
for t in 1 2; do
    spring "Steel01 1 5.0 100.0 0.05" "NormDispIncr 1e-12 20" "EQPath 0.02 $t" 30 > eq$t.tcl
done
for s in load arc eq1 eq2; do
    testfile $s $s.tcl > $s.yaml
    "$hysim" run $s.yaml -o run_$s > $s.out 2> $s.err || fail "$s: $(cat $s.out $s.err)"
    grep -q '^ok 0$' $s.out || fail "$s: analyze: $(cat $s.out)"
done
# psi_u = 0: lambda_n = n 0.2 / 10; u = lambda P / k below Fy, uy + (lambda P - Fy) / (b k) above
read -r dl du n < <(awk '{ lam = NR * 0.02; f = lam * 10; u = f <= 5 ? f / 100 : 0.05 + (f - 5) / 5
    a = $1 - lam; if (a < 0) a = -a; if (a > dl) dl = a; b = $2 - u; if (b < 0) b = -b; if (b > du) du = b }
    END { print dl + 0, du + 0, NR }' run_load/out/d.out)
[ "$n" -eq 40 ] || fail "load control: $n rows, expected 40"
awk -v a="$dl" -v b="$du" 'BEGIN { exit !(a <= 1e-14 && b <= 1e-12 * 0.65) }' ||
    fail "psi_u = 0: load factor off by $dl, displacement by $du (Steel01 bilinear)"
echo "$me: psi_u = 0 (load control): load factor to $dl, Steel01's bilinear displacement to $du (peak 0.65)"
# psi_f = 0, one iteration a step: h = P / k = 0.1, predictor s = arc along h, then OpenSees' root
read -r dl du < <(awk -v arc=0.01 '{
        h = 0.1; lam0 = lam; s = arc; x = 0; a1 = h * h; a2 = 2 * (h * x + h * s)
        a3 = (s + x) * ((s + x) - arc * arc); d = a2 * a2 - a1 * a3
        l1 = (-a2 + sqrt(d)) / a1; l2 = (-a2 - sqrt(d)) / a1; c = s * s + x * s
        l = c + l1 * h * s > c + l2 * h * s ? l1 : l2
        u = u0 + s + l * h; lam = lam0 + arc / h + l; u0 = u
        a = $1 - lam; if (a < 0) a = -a; if (a > dl) dl = a; b = $2 - u; if (b < 0) b = -b; if (b > du) du = b }
    END { print dl + 0, du + 0 }' run_arc/out/d.out)
awk -v a="$dl" -v b="$du" 'BEGIN { exit !(a <= 1e-14 && b <= 1e-14) }' ||
    fail "psi_f = 0: load factor off by $dl, displacement by $du from OpenSees' formula"
echo "$me: psi_f = 0, one iteration a step: load factor to $dl, displacement to $du of OpenSees' formula"

# EQPath on one DOF: u_n = n 0.02; lambda = F(u) / 10, F = 100 u to 0.05, 5 + 5 (u - 0.05) beyond
for t in 1 2; do
    read -r dl du n < <(awk '{ u = NR * 0.02; lam = (u <= 0.05 ? 100 * u : 5 + 5 * (u - 0.05)) / 10
        a = $1 - lam; if (a < 0) a = -a; if (a > dl) dl = a; b = $2 - u; if (b < 0) b = -b; if (b > du) du = b }
        END { print dl + 0, du + 0, NR }' run_eq$t/out/d.out)
    [ "$n" -eq 30 ] || fail "EQPath type $t: $n rows, expected 30"
    awk -v a="$dl" -v b="$du" 'BEGIN { exit !(a <= 1e-12 && b <= 1e-12 * 0.6) }' ||
        fail "EQPath type $t: load factor off by $dl, displacement by $du (Steel01 bilinear)"
    echo "$me: EQPath type $t: displacement n arcLength to $du, load factor on Steel01's bilinear to $dl"
done

rest_needs_opensees
for s in load arc eq1 eq2; do
    mkdir os_$s && cp $s.tcl os_$s/ && (cd os_$s && run_opensees $s.tcl os.log) || fail "OpenSees $s: $(tail -5 os_$s/os.log)"
    read -r d p < <(paste -d' ' run_$s/out/d.out os_$s/out/d.out | awk '{ a = $1 - $3; b = $2 - $4; a = a < 0 ? -a : a
        b = b < 0 ? -b : b; if (a > d) d = a; if (b > d) d = b; q = $4 < 0 ? -$4 : $4; if (q > p) p = q; n++ }
        END { print (n == NR && NR > 0 ? d + 0 : "rows"), p }')
    awk -v d="$d" -v p="$p" 'BEGIN { exit !(d != "rows" && d <= 1e-12 * p && p > 0) }' ||
        fail "$s differs from OpenSees by $d (peak $p)"
    echo "$me: OpenSees 3.8 on $s.tcl: largest difference $d (peak $p)"
done
echo "$me: OK"
