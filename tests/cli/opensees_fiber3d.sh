#!/usr/bin/env bash
# 3-D fiber members against a real OpenSees (docs/fe_model.md "Beam-columns with sections"): the
# same scripts, written here, run by `hysim run` (a test file naming only the script: its own
# gravity and pushover analysis) and by OpenSees; every recorder file compared column by column
# to 1e-8 of the column's peak (a column of round-off, whose peak is below 1e-9 of the file's
# largest value, against that largest value). The section: Concrete02 core and cover, Steel02
# bars (3 layers), -GJ; 1000 kN of gravity by LoadControl, then loadConst and a cyclic
# DisplacementControl push (+60 mm, -60 mm) with a biaxial load and a torque:
#  - col_force: two forceBeamColumn elements (Lobatto 5), PDelta, pushed along X (measured: 3e-9
#    of the peak on the top's uz, 1e-10 on the forces);
#  - col_hinge: a zeroLengthSection at the base (the fiber section aggregated with elastic Vy,
#    Vz, -orient along the column) under a dispBeamColumn (Legendre 5), Linear, pushed along Y
#    (measured: 2e-15).
# Needs OPENSEES=/path/to/OpenSees (skipped otherwise). Usage: opensees_fiber3d.sh PATH_TO_hysim
set -u
hysim=$1
case "$hysim" in /*) ;; *) hysim="$PWD/$hysim" ;; esac
. "$(dirname "$0")/lib/fe_cli.sh"
need_opensees
work_dir

cat > sec.tcl <<'TCL'
uniaxialMaterial Concrete02 1 -35000 -0.003 -25000 -0.02 0.1 3000 2e6
uniaxialMaterial Concrete02 2 -30000 -0.002 -6000 -0.005 0.1 3000 1.5e6
uniaxialMaterial Steel02 3 420000 2e8 0.01 18 0.925 0.15
section Fiber 1 -GJ 1e5 {
    patch rect 1 8 10 -0.16 -0.21 0.16 0.21
    patch rect 2 2 12 -0.2 -0.25 -0.16 0.25
    patch rect 2 2 12 0.16 -0.25 0.2 0.25
    patch rect 2 8 2 -0.16 -0.25 0.16 -0.21
    patch rect 2 8 2 -0.16 0.21 0.16 0.25
    layer straight 3 4 0.0005 0.16 0.21 0.16 -0.21
    layer straight 3 4 0.0005 -0.16 0.21 -0.16 -0.21
    layer straight 3 2 0.0005 0 0.21 0 -0.21
}
TCL
# analysis TOP DOF LATERAL: gravity on node TOP, loadConst, the cyclic push of TOP's DOF
analysis() {
    cat <<TCL
pattern Plain 1 Linear { load $1 0 0 -1000 0 0 0 }
constraints Plain
numberer Plain
system BandGeneral
test NormDispIncr 1e-11 50
algorithm Newton
integrator LoadControl 0.1
analysis Static
if {[analyze 10] != 0} { error "gravity failed" }
loadConst -time 0.0
pattern Plain 2 Linear { load $1 $3 0 0 0.05 }
integrator DisplacementControl $1 $2 0.001
if {[analyze 60] != 0} { error "push failed" }
integrator DisplacementControl $1 $2 -0.001
if {[analyze 120] != 0} { error "pull failed" }
TCL
}
{
    cat <<'TCL'
model BasicBuilder -ndm 3 -ndf 6
node 1 0 0 0; node 2 0 0 1.5; node 3 0 0 3
fix 1 1 1 1 1 1 1
source sec.tcl
geomTransf PDelta 1 1 0 0
element forceBeamColumn 1 1 2 1 {Lobatto 1 5}
element forceBeamColumn 2 2 3 1 {Lobatto 1 5}
recorder Node -file top.out -time -precision 16 -node 3 -dof 1 2 3 4 5 6 disp
recorder Element -file ele1.out -time -precision 16 -ele 1 localForce
recorder Element -file sec1.out -time -precision 16 -ele 1 section 1 force
TCL
    analysis 3 1 "1 0.6 0"
} > col_force.tcl
{
    cat <<'TCL'
model BasicBuilder -ndm 3 -ndf 6
node 11 0 0 0; node 12 0 0 0; node 13 0 0 3
fix 11 1 1 1 1 1 1
source sec.tcl
geomTransf Linear 1 1 0 0
uniaxialMaterial Elastic 4 1e6
section Aggregator 2 4 Vy 4 Vz -section 1
element zeroLengthSection 1 11 12 2 -orient 0 0 1 1 0 0
element dispBeamColumn 2 12 13 1 {Legendre 1 5}
recorder Node -file top.out -time -precision 16 -node 13 -dof 1 2 3 4 5 6 disp
recorder Element -file ele2.out -time -precision 16 -ele 2 localForce
recorder Element -file zls.out -time -precision 16 -ele 1 section 1 force
TCL
    analysis 13 2 "0.5 1 0"
} > col_hinge.tcl

# worst A B: the largest difference of a column over its peak (round-off columns against the
# file's largest value); "columns" when the rows differ in width
worst() {
    paste -d'|' "$1" "$2" | awk -F'|' '
        { na = split($1, a, " "); nb = split($2, b, " "); if (na != nb) { mism = 1; next }
          for (j = 1; j <= na; j++) { d = a[j] - b[j]; if (d < 0) d = -d; x = b[j] < 0 ? -b[j] : b[j]
              if (x > p[j]) p[j] = x; if (d > m[j]) m[j] = d } n = na; rows++ }
        END { if (mism || !rows) { print "columns"; exit } for (j = 1; j <= n; j++) if (p[j] > P) P = p[j]
              for (j = 1; j <= n; j++) { q = p[j] >= 1e-9 * P ? p[j] : P; if (q > 0 && m[j] / q > w) w = m[j] / q }
              printf "%.2g\n", w + 0 }'
}

for name in col_force col_hinge; do
    mkdir -p $name/hs/src $name/os
    cp sec.tcl $name.tcl $name/hs/src/
    cp sec.tcl $name.tcl $name/os/
    printf 'hysim: 1\nname: %s\nunits: {force: kN, length: m, time: s}\nstructure:\n  model: {opensees: src/%s}\n' \
        $name $name.tcl > $name/hs/$name.yaml
    (cd $name/hs && "$hysim" run $name.yaml -o run --quiet > run.log 2>&1) || fail "hysim $name: $(cat $name/hs/run.log)"
    (cd $name/os && run_opensees $name.tcl os.log) || fail "OpenSees $name failed: $(tail -3 $name/os/os.log)"
    for f in $(cd $name/os && ls *.out); do
        [ -f $name/hs/run/$f ] || fail "$name: hysim wrote no $f"
        rows=$(wc -l < $name/hs/run/$f)
        [ "$rows" -eq 190 ] || fail "$name: $f has $rows rows (190: 10 gravity steps and 180 push steps)"
        w=$(worst $name/hs/run/$f $name/os/$f)
        echo "$me: $name $f: $w of the peak"
        awk -v w="$w" 'BEGIN { exit !(w != "columns" && w <= 1e-8) }' || fail "$name $f: $w of the peak (1e-8 allowed)"
    done
done
echo "$me: OK"
