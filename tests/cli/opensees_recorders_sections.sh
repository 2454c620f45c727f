#!/bin/bash
# Recorders of the script's own analysis on beam-columns with sections (docs/opensees_tcl.md,
# `recorder`): EnvelopeNode and EnvelopeElement (three rows at the end: min, max, max |v|, with
# -time each after the time it occurred, as OpenSees' Envelope recorders), and a beam-column's
# localForce, basicForce, basicDeformation and `section N force|deformation` (also through
# eleResponse, the response in several words). A script written
# here: a cantilever of two forceBeamColumn elements (fiber section of Steel01 bars, 4 Lobatto
# points) pushed by a cyclic DisplacementControl history. Checks against independent numbers:
# the envelopes are the min / max / max |v| of the plain recorders' columns (and the times they
# occurred); the local forces are the basic ones with V = (M_i + M_j) / L; the section at the
# element's node i carries Mz = -M_i, at node j M_j (Mz = (xi - 1) M_i + xi M_j), and P = N; with OPENSEES set, every
# file against OpenSees 3.8 (to 1e-8 of each column's peak plus half a unit of the last digit;
# a column of round-off (below 1e-9 of the file's largest value: the free end's moment) against
# the file's largest value).
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

cat > col.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0.0 0.0
node 2 0.0 1.5
node 3 0.0 3.0
fix 1 1 1 1
uniaxialMaterial Steel01 1 400000.0 2.0e8 0.02
section Fiber 1 {
    layer straight 1 3 0.0005 -0.2 0.0 0.2 0.0
    fiber 0.0 0.1 0.0004 1
    fiber 0.0 -0.1 0.0004 1
    fiber 0.15 0.0 0.0002 1
    fiber -0.15 0.0 0.0002 1
}
geomTransf Linear 1
beamIntegration Lobatto 1 1 4
element forceBeamColumn 1 1 2 1 1
element forceBeamColumn 2 2 3 1 1
timeSeries Linear 1
pattern Plain 1 1 { load 3 1.0 -0.5 0.0 }
recorder Node -file disp.out -time -precision 15 -node 3 -dof 1 2 3 disp
recorder EnvelopeNode -file envdisp.out -time -precision 15 -node 3 -dof 1 2 3 disp
recorder EnvelopeNode -file envdisp_notime.out -precision 15 -node 3 -dof 1 2 3 disp
recorder Element -file local.out -time -precision 15 -ele 1 2 localForce
recorder EnvelopeElement -file envlocal.out -precision 15 -ele 1 2 localForce
recorder Element -file basic.out -time -precision 15 -ele 1 basicForce
recorder Element -file bdef.out -time -precision 15 -ele 1 basicDeformation
recorder Element -file sec1.out -time -precision 15 -ele 1 section 1 force
recorder Element -file sec4.out -time -precision 15 -ele 1 section 4 forces
recorder Element -file sec1def.out -time -precision 15 -ele 1 section 1 deformation
constraints Plain
numberer RCM
system BandGeneral
test NormDispIncr 1.0e-12 25
algorithm Newton
analysis Static
foreach {incr n} {0.002 20 -0.003 30 0.0025 20} {
    integrator DisplacementControl 3 1 $incr
    if {[analyze $n] != 0} { puts "analyze failed"; exit }
}
puts "done [getTime]"
puts "eleResponse [eleResponse 1 section 4 force]"
TCL
printf 'hysim: 1\nname: col\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: col.tcl}\n' > col.yaml
"$hysim" run col.yaml -o run > run.log 2>&1 || fail "run: $(cat run.log)"
grep -q '^done' run.log || fail "the analysis did not end: $(cat run.log)"
[ "$(wc -l < run/disp.out)" -eq 70 ] || fail "$(wc -l < run/disp.out) rows in disp.out"

# envelopes from the plain recorders (the first minimum and maximum, as OpenSees moves them only
# on a strictly new one); prints the three rows as the Envelope recorder writes them
envelope() { # FILE TIMED(1: -time pairs) FIRST_COLUMN
    awk -v timed="$2" -v c0="$3" '{ for (j = c0; j <= NF; j++) { x = $j + 0; a = x < 0 ? -x : x
            if (NR == 1 || x < mn[j]) { mn[j] = x; tn[j] = $1 }
            if (NR == 1 || x > mx[j]) { mx[j] = x; tx[j] = $1 }
            if (NR == 1 || a > ab[j]) { ab[j] = a; ta[j] = $1 } } n = NF }
        END { for (k = 0; k < 3; k++) { line = ""
                for (j = c0; j <= n; j++) { v = k == 0 ? mn[j] : k == 1 ? mx[j] : ab[j]; t = k == 0 ? tn[j] : k == 1 ? tx[j] : ta[j]
                    line = line (timed ? sprintf("%.15g ", t) : "") sprintf("%.15g ", v) }
                print line } }' "$1"
}
# same FILE EXPECTED: equal to 1e-12 of the largest value
same() {
    paste -d'|' "$1" "$2" | awk -F'|' '{ n = split($1, a, " "); split($2, b, " "); if (n != split($2, b, " ")) bad = 1
        for (j = 1; j <= n; j++) { d = a[j] - b[j]; if (d < 0) d = -d; if (d > m) m = d; x = a[j] < 0 ? -a[j] : a[j]; if (x > p) p = x } }
        END { exit !(NR == 3 && !bad && m <= 1e-12 * p) }'
}
envelope run/disp.out 1 2 > want_env.txt
same run/envdisp.out want_env.txt || fail "EnvelopeNode -time: $(cat run/envdisp.out) / expected $(cat want_env.txt)"
envelope run/disp.out 0 2 > want_env0.txt
same run/envdisp_notime.out want_env0.txt || fail "EnvelopeNode: $(cat run/envdisp_notime.out) / expected $(cat want_env0.txt)"
envelope run/local.out 0 2 > want_envl.txt
same run/envlocal.out want_envl.txt || fail "EnvelopeElement: $(cat run/envlocal.out) / expected $(cat want_envl.txt)"
echo "$me: the envelopes are the plain recorders' min, max and max |v| (with their times)"

# local forces from the basic ones; the end sections carry the element's end forces (columns:
# basic t N Mi Mj, local t and 6 of each element, sections t P Mz)
paste -d' ' run/basic.out run/local.out run/sec1.out run/sec4.out | awk '
    { N = $2; Mi = $3; Mj = $4; V = (Mi + Mj) / 1.5; p = 0
      for (j = 2; j <= 4; j++) { x = $j < 0 ? -$j : $j; if (x > p) p = x }
      d[1] = $6 + N; d[2] = $7 - V; d[3] = $8 - Mi; d[4] = $9 - N; d[5] = $10 + V; d[6] = $11 - Mj
      d[7] = $19 - N; d[8] = $20 + Mi; d[9] = $22 - N; d[10] = $23 - Mj
      for (k = 1; k <= 10; k++) { x = d[k] < 0 ? -d[k] : d[k]; if (x > w * p) w = x / p } }
    END { printf "%.3g\n", w; exit !(w <= 1e-9) }' > eq.txt || fail "local / section forces against the basic ones: $(cat eq.txt) of the peak"
echo "$me: localForce and the end sections' forces from the basic forces: $(cat eq.txt) of the peak"
# the section's deformation at node i: eps and kz of its resultants through the fibers are
# OpenSees'; here: the axial strain times EA of the elastic branch at the first row
read -r _ eps _ < <(head -1 run/sec1def.out)
read -r _ P _ < <(head -1 run/sec1.out)
near "$P" "$(awk -v e="$eps" 'BEGIN { printf "%.17g", e * 2.0e8 * (3 * 0.0005 + 2 * 0.0004 + 2 * 0.0002) }')" 1e-9 ||
    fail "section 1: P $P against EA eps (eps $eps)"
echo "$me: section 1 at the first step: P $P = EA eps"
# eleResponse with the response in several words answers the recorder's last row
read -r _ p4 m4 < <(grep '^eleResponse ' run.log)
read -r _ rp4 rm4 < <(tail -1 run/sec4.out)
near "$p4" "$rp4" 1e-13 && near "$m4" "$rm4" 1e-13 || fail "eleResponse 1 section 4 force: $p4 $m4, the recorder $rp4 $rm4"
echo "$me: eleResponse 1 section 4 force = the recorder's last row ($p4 $m4)"

rest_needs_opensees
mkdir os && cp col.tcl os/ && (cd os && run_opensees col.tcl os.log) || fail "OpenSees: $(tail -5 os/os.log)"
for f in disp envdisp envdisp_notime local envlocal basic bdef sec1 sec4 sec1def; do
    [ -s "os/$f.out" ] || fail "OpenSees wrote no $f.out: $(tail -5 os/os.log)"
    [ "$(wc -l < "run/$f.out")" -eq "$(wc -l < "os/$f.out")" ] || fail "$f.out: $(wc -l < "run/$f.out") rows, OpenSees $(wc -l < "os/$f.out")"
    w=$(paste -d'|' "run/$f.out" "os/$f.out" | awk -F'|' '{ n = split($1, a, " "); if (n != split($2, b, " ")) { print "columns"; exit }
          for (j = 1; j <= n; j++) { d = a[j] - b[j]; if (d < 0) d = -d; x = a[j] < 0 ? -a[j] : a[j]
              if (x > p[j]) p[j] = x; r = x > 0 ? 5e-15 * 10 ^ int(log(x) / log(10)) : 0; if (d - r > m[j]) m[j] = d - r } }
        END { for (j = 1; j <= n; j++) if (p[j] > P) P = p[j]
              for (j = 1; j <= n; j++) { q = p[j] >= 1e-9 * P ? p[j] : P; if (q > 0 && m[j] / q > w) w = m[j] / q }
              printf "%.2g\n", w + 0 }')
    awk -v w="$w" 'BEGIN { exit !(w != "columns" && w <= 1e-8) }' || fail "$f.out differs from OpenSees: $w of a peak"
    echo "$me: $f.out: difference from OpenSees $w of the peaks"
done
echo "$me: OK"
