#!/usr/bin/env bash
# Element mass in 3-D and masses on rigid slaves from OpenSees Tcl scripts (docs/fe_model.md,
# "Mass" and "Constraints"; structure.model.opensees):
#  - a skewed 3-D frame (columns and beams along skewed axes with skewed vecxz; elasticBeamColumn
#    -mass with and without -cMass, with Linear, PDelta and Corotational transformations; trusses
#    -rho with and without -cMass 1; a nodal mass), a 3-D truss tripod (-ndf 3) and a 1-D bar of
#    trusses (-ndm 1): the script's own `eigen` periods printed by hysim's interpreter (equal to
#    OpenSees' to 1e-8 when OpenSees is there);
#  - a floor on a rigidDiaphragm whose masses sit on the slave nodes (four column tops and a
#    slave with no element; none on the master, which is off the centre of mass): its periods
#    equal those of the same total mass and rotational inertia sum m r^2 (closed form) on a
#    master at the centre of mass, to 1e-10 in hysim; a run with the central difference method
#    (which factors the now full mass) completes;
#  - a 3-D rigidLink beam whose slave carries translational and rotational mass with a lever arm
#    in x, y and z (and a rigidLink bar); a 2-D portal whose consistent-mass beam hangs on rigid
#    links, with masses on the slaves (one with no element);
#  - with OPENSEES=/path/to/OpenSees: the frame's, tripod's, bar's and rigid links' periods and
#    the floor's (both mass layouts) against OpenSees' eigen (-fullGenLapack, constraints
#    Transformation) to 1e-8; the floor's Newmark history under a uniform excitation in x (the
#    master's ux, uy, rz) to 1e-10 of the peaks; the skewed frame's history (its corotational
#    member made linear) under a uniform excitation in y, all 18 DOFs, to 1e-9 of each DOF's
#    peak; a skewed 3-D continuous beam with consistent mass under MultipleSupport (supports
#    moving in x, y and z) to 1e-10 of each DOF's peak; skipped with a message otherwise.
# Usage: opensees_mass3d.sh PATH_TO_hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir
# yaml SCRIPT [INTEGRATOR]: a test file whose model is the script
yaml() {
    cat <<YAML
hysim: 1
name: ${1%.tcl}
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: $1}
  damping: {none: true}
ground_motion:
  synthetic: {seed: 1, pga: 1.0, duration: 1, dt: 0.01}
analysis:
  integrator: {type: ${2:-newmark}}
  dt: 0.001
  steps: 20
YAML
}
# hysim_periods SCRIPT: the periods the script's eigen gives in hysim's interpreter
hysim_periods() {
    yaml "$1" > "${1%.tcl}.yaml"
    "$hysim" check "${1%.tcl}.yaml" > "${1%.tcl}.hs" 2>&1 || fail "hysim check $1: $(cat "${1%.tcl}.hs")"
    script_periods "${1%.tcl}.hs"
}
# os_periods SCRIPT: the periods the script's eigen gives in OpenSees
os_periods() {
    run_opensees "$1" "${1%.tcl}.os" || fail "OpenSees $1: $(tail -5 "${1%.tcl}.os")"
    script_periods "${1%.tcl}.os"
}
# same A B TOL WHAT: two lists of periods agree to TOL each
same() {
    local -a a b
    read -r -a a <<< "$1"
    read -r -a b <<< "$2"
    [ "${#a[@]}" -gt 0 ] && [ "${#a[@]}" -eq "${#b[@]}" ] || fail "$4: ${#a[@]} against ${#b[@]} periods ($1 / $2)"
    for k in "${!a[@]}"; do near "${a[$k]}" "${b[$k]}" "$3" || fail "$4: period $((k + 1)) ${a[$k]} against ${b[$k]}"; done
}
EIGEN='set lam [eigen -fullGenLapack NMODES]
foreach l $lam { puts [format "period %.15g" [expr 2*acos(-1)/sqrt($l)]] }'
# eigen_of VAR SCRIPT N WHAT: appends the eigen of N modes to SCRIPT; VAR = the N periods it
# gives in hysim's interpreter (says so)
eigen_of() {
    echo "${EIGEN/NMODES/$3}" >> "$2"
    printf -v "$1" '%s' "$(hysim_periods "$2")"
    [ "$(echo "${!1}" | wc -w)" -eq "$3" ] || fail "$4: hysim's eigen gave: ${!1}"
    echo "opensees_mass3d.sh: $4, hysim: T = ${!1} s"
}

# --- a skewed 3-D frame with consistent and lumped element mass ---
cat > frame.tcl <<'TCL'
model BasicBuilder -ndm 3 -ndf 6
node 1 0 0 0; node 2 0.5 0.3 3.2; node 3 4.1 1.2 3.6; node 4 4.4 1.0 0
node 5 2.0 3.5 3.4; node 6 2.2 3.8 0
foreach n {1 4 6} { fix $n 1 1 1 1 1 1 }
mass 2 0.5 0.5 0.5 0 0 0
geomTransf Linear 1 1 0.2 0.1
geomTransf Linear 2 0.1 0.3 1
geomTransf Corotational 3 0.2 -0.4 1
geomTransf PDelta 4 0 1 0.3
# elasticBeamColumn tag i j A E G J Iy Iz transf
element elasticBeamColumn 1 1 2 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 1 -mass 0.9 -cMass
element elasticBeamColumn 2 4 3 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 4 -mass 0.9
element elasticBeamColumn 3 6 5 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 1 -mass 0.9 -cMass
element elasticBeamColumn 4 2 3 0.05 30e6 12e6 3e-4 2e-4 6e-4 2 -mass 1.2 -cMass
element elasticBeamColumn 5 3 5 0.05 30e6 12e6 3e-4 2e-4 6e-4 3 -mass 1.2 -cMass
element elasticBeamColumn 6 5 2 0.05 30e6 12e6 3e-4 2e-4 6e-4 2 -mass 1.2
uniaxialMaterial Elastic 1 30e6
element truss 7 1 3 0.002 1 -rho 0.3 -cMass 1
element truss 8 4 5 0.002 1 -rho 0.3
TCL
eigen_of h frame.tcl 8 "skewed 3-D frame"

# --- a 3-D truss tripod (-ndf 3) with consistent and lumped truss mass ---
cat > tripod.tcl <<'TCL'
model BasicBuilder -ndm 3 -ndf 3
node 1 0 0 0; node 2 3 0 0; node 3 1 2.5 0; node 4 1.3 0.9 2.8; node 5 2.5 1.8 2.2
foreach n {1 2 3} { fix $n 1 1 1 }
mass 4 0.2 0.2 0.2
uniaxialMaterial Elastic 1 2e8
element truss 1 1 4 1e-3 1 -rho 30 -cMass 1
element truss 2 2 4 1e-3 1 -rho 30 -cMass 1
element truss 3 3 4 1.5e-3 1 -rho 45
element truss 4 4 5 1e-3 1 -rho 30 -cMass 1
element truss 5 2 5 1e-3 1 -rho 30 -cMass 1
element truss 6 3 5 1e-3 1 -rho 30
TCL
eigen_of t tripod.tcl 6 "3-D truss tripod"

# --- a 3-D rigid link (beam) whose slave carries translational and rotational mass 0.4, -0.3,
# 0.6 m from the column top, and a rigid link bar that ties a second column's top ---
cat > link.tcl <<'TCL'
model BasicBuilder -ndm 3 -ndf 6
node 1 0 0 0; node 2 0 0 3; node 3 0.4 -0.3 3.6; node 4 2.5 0.2 0; node 5 2.5 0.2 3.1
fix 1 1 1 1 1 1 1; fix 4 1 1 1 1 1 1
mass 3 5 5 5 0.1 0.2 0.3
mass 5 2 2 2 0 0 0
rigidLink beam 2 3
rigidLink bar 2 5
geomTransf Linear 1 1 0.3 0
element elasticBeamColumn 1 1 2 0.04 30e6 12e6 2e-4 1.5e-4 3e-4 1
element elasticBeamColumn 2 4 5 0.03 30e6 12e6 1e-4 1e-4 2e-4 1
constraints Transformation
TCL
eigen_of l link.tcl 6 "3-D rigid link with a massive slave"

# --- 2-D: a portal whose beam (consistent mass) hangs on rigid links (beam) 0.25 m in and 0.3 m
# down from the column tops, masses on the slaves and on a slave with no element ---
cat > link2d.tcl <<'TCL'
model BasicBuilder -ndm 2 -ndf 3
node 1 0 0; node 2 6 0; node 3 0 3.5; node 4 6 3.5; node 5 0.25 3.2; node 6 5.75 3.2; node 7 3.0 3.9
fix 1 1 1 1; fix 2 1 1 1
mass 5 10 10 0.5; mass 6 12 12 0; mass 7 8 8 0
rigidLink beam 3 5
rigidLink beam 4 6
rigidLink beam 4 7
geomTransf Linear 1
element elasticBeamColumn 1 1 3 0.02 30e6 2e-3 1
element elasticBeamColumn 2 2 4 0.02 30e6 2e-3 1
element elasticBeamColumn 3 5 6 0.03 30e6 4e-3 1 -mass 0.5 -cMass
constraints Transformation
TCL
eigen_of l2 link2d.tcl 4 "2-D portal on rigid links with massive slaves"

# --- a 1-D bar of trusses (-ndm 1), consistent and lumped ---
cat > bar.tcl <<'TCL'
model BasicBuilder -ndm 1 -ndf 1
node 1 0; node 2 1.5; node 3 2.5; node 4 4.0
fix 1 1
mass 4 0.3
uniaxialMaterial Elastic 1 2e8
element truss 1 1 2 1e-3 1 -rho 30 -cMass 1
element truss 2 2 3 1e-3 1 -rho 30
element truss 3 3 4 1e-3 1 -rho 30 -cMass 1
TCL
eigen_of b bar.tcl 2 "1-D bar"

# --- a floor on a rigid diaphragm: masses on the slaves, or on a master at the centre of mass ---
X=(0 6 6 0 2.5) Y=(0 0 4 4 3.0) MK=(10 20 15 25 5)
read -r mt xc yc ip < <(awk -v x="${X[*]}" -v y="${Y[*]}" -v m="${MK[*]}" 'BEGIN {
    n = split(x, X, " "); split(y, Y, " "); split(m, M, " ")
    for (k = 1; k <= n; k++) { mt += M[k]; sx += M[k] * X[k]; sy += M[k] * Y[k] }
    xc = sx / mt; yc = sy / mt
    for (k = 1; k <= n; k++) ip += M[k] * ((X[k] - xc) ^ 2 + (Y[k] - yc) ^ 2)
    printf "%.17g %.17g %.17g %.17g\n", mt, xc, yc, ip }')
# floor MASTER_X MASTER_Y ON_SLAVES: the model
floor() {
    echo "model BasicBuilder -ndm 3 -ndf 6"
    for k in 0 1 2 3; do
        echo "node $((k + 1)) ${X[$k]} ${Y[$k]} 0; node $((k + 11)) ${X[$k]} ${Y[$k]} 3.5"
        echo "fix $((k + 1)) 1 1 1 1 1 1"
    done
    echo "node 15 ${X[4]} ${Y[4]} 3.5; fix 15 0 0 1 1 1 0"
    echo "node 100 $1 $2 3.5; fix 100 0 0 1 1 1 0"
    if [ "$3" = 1 ]; then
        for k in 0 1 2 3 4; do echo "mass $((k + 11)) ${MK[$k]} ${MK[$k]} 0 0 0 0"; done
    else
        echo "mass 100 $mt $mt 0 0 0 $ip"
    fi
    cat <<'TCL'
rigidDiaphragm 3 100 11 12 13 14 15
geomTransf Linear 1 1 0 0
geomTransf Linear 2 0 1 0
element elasticBeamColumn 1 1 11 0.16 30e6 12e6 2e-3 1.2e-3 2e-3 1
element elasticBeamColumn 2 2 12 0.25 30e6 12e6 4e-3 3e-3 5e-3 2
element elasticBeamColumn 3 3 13 0.25 30e6 12e6 4e-3 3e-3 5e-3 1
element elasticBeamColumn 4 4 14 0.16 30e6 12e6 2e-3 1.2e-3 2e-3 2
uniaxialMaterial Elastic 1 30e6
element truss 5 1 12 0.001 1
constraints Transformation
TCL
}
{ floor 2.0 1.0 1; echo "${EIGEN/NMODES/3}"; } > slaves.tcl
{ floor "$xc" "$yc" 0; echo "${EIGEN/NMODES/3}"; } > master.tcl
s=$(hysim_periods slaves.tcl)
m=$(hysim_periods master.tcl)
same "$s" "$m" 1e-10 "floor, masses on the slaves against the master at the centre of mass (hysim)"
echo "opensees_mass3d.sh: floor with the masses on the slaves: T = $s s; on the master at ($xc, $yc), I = $ip: T = $m s"
yaml slaves.tcl central_difference > cd.yaml
"$hysim" run cd.yaml -o cd --quiet > cd.log 2>&1 || fail "central difference with slave masses: $(cat cd.log)"
[ "$(wc -l < cd/response.csv)" -eq 22 ] || fail "central difference run: $(wc -l < cd/response.csv) rows"

if ! have_opensees; then
    echo "opensees_mass3d.sh: OpenSees comparisons skipped (set OPENSEES=/path/to/OpenSees to compare)"
    echo "opensees_mass3d.sh: ok"
    exit 0
fi
o=$(os_periods frame.tcl)
same "$h" "$o" 1e-8 "skewed 3-D frame against OpenSees"
echo "opensees_mass3d.sh: skewed 3-D frame, OpenSees: T = $o s"
o=$(os_periods tripod.tcl)
same "$t" "$o" 1e-8 "tripod against OpenSees"
echo "opensees_mass3d.sh: tripod, OpenSees: T = $o s"
o=$(os_periods bar.tcl)
same "$b" "$o" 1e-8 "1-D bar against OpenSees"
echo "opensees_mass3d.sh: 1-D bar, OpenSees: T = $o s"
o=$(os_periods link.tcl)
same "$l" "$o" 1e-8 "3-D rigid link with a massive slave against OpenSees"
echo "opensees_mass3d.sh: 3-D rigid link, OpenSees: T = $o s"
o=$(os_periods link2d.tcl)
same "$l2" "$o" 1e-8 "2-D rigid links with massive slaves against OpenSees"
echo "opensees_mass3d.sh: 2-D portal on rigid links, OpenSees: T = $o s"
o=$(os_periods slaves.tcl)
same "$s" "$o" 1e-8 "floor with slave masses against OpenSees"
o2=$(os_periods master.tcl)
same "$m" "$o2" 1e-8 "floor with the master's mass against OpenSees"
echo "opensees_mass3d.sh: floor, OpenSees: T = $o s (slave masses), $o2 s (master)"

# the floor's history: a 2 Hz sine pulse in x for 2 s, then free vibration; Newmark average
# acceleration; the master's ux, uy, rz
steps=500
sine_pulse rec.txt 3 2 2
{
    floor 2.0 1.0 1
    cat <<TCL
timeSeries Path 2 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 2 1 -accel 2
recorder Node -file os_hist.out -time -precision 16 -node 100 -dof 1 2 6 disp
$(tcl_newmark $steps Transformation)
TCL
} > hist.tcl
run_opensees hist.tcl hist.os || fail "OpenSees (history): $(tail -5 hist.os)"
{ floor 2.0 1.0 1; } > hist_model.tcl
cat > hist.yaml <<YAML
hysim: 1
name: hist
units: {force: kN, length: m, time: s}
structure:
  model: {opensees: hist_model.tcl, excitation: x}
  damping: {none: true}
ground_motion: {file: rec.txt, format: columns, dt: 0.01}
$(newmark_analysis $steps)
YAML
"$hysim" run hist.yaml -o hist --quiet > hist.log 2>&1 || fail "hysim run (history): $(cat hist.log)"
echo "opensees_mass3d.sh: floor with slave masses, Newmark history of node 100 (ux, uy, rz) against OpenSees:"
histories_vs_opensees history hist/response.csv os_hist.out 1e-10

# the skewed frame's history under a uniform excitation in y: every node DOF (18, all with mass
# from the consistent beams); the consistent masses coupled to the fixed nodes load the frame
# too (OpenSees' -M R ag over every node). Its corotational member made linear: hysim's 3-D
# corotational beam differs from OpenSees' at second order out of plane (docs/fe_model.md)
sed -e '/^set lam/,$d' -e 's/^geomTransf Corotational 3/geomTransf Linear 3/' frame.tcl > frame_model.tcl
{
    cat frame_model.tcl
    cat <<TCL
timeSeries Path 2 -dt 0.01 -filePath rec.txt -factor 1.0
pattern UniformExcitation 2 2 -accel 2
recorder Node -file os_frame.out -time -precision 16 -node 2 3 5 -dof 1 2 3 4 5 6 disp
$(tcl_newmark 300 Plain)
TCL
} > frame_hist.tcl
run_opensees frame_hist.tcl frame_hist.os || fail "OpenSees (frame history): $(tail -5 frame_hist.os)"
sed -e 's/hist_model.tcl, excitation: x/frame_model.tcl, excitation: y/' -e "s/steps: $steps/steps: 300/" hist.yaml > frame_hist.yaml
"$hysim" run frame_hist.yaml -o frame_hist --quiet > frame_hist.log 2>&1 || fail "hysim run (frame history): $(cat frame_hist.log)"
read -r bad rows worst <<< "$(dofs_vs_opensees frame_hist/response.csv os_frame.out 1e-9)"
[ "$rows" -eq 300 ] || fail "frame history: $rows rows against OpenSees, expected 300"
[ "$bad" -eq 0 ] || fail "frame history: a DOF differs by more than 1e-9 of its peak (worst $worst)"
echo "opensees_mass3d.sh: skewed frame, Newmark history of its 18 DOFs against OpenSees: worst difference $worst of the DOF's peak"

# a skewed 3-D continuous beam (6 consistent-mass beams, supports at nodes 1, 4 and 7) under
# OpenSees' MultipleSupport: the supports move in x, y and z with their own accelerations; the
# consistent mass between the free DOFs and the moving supports loads the beam (M_fs a_s)
for spec in "a1 1.2 3" "a4 1.7 2" "a7 0.9 2.5" "ax 2.1 1.5" "az 1.4 2"; do
    set -- $spec
    awk -v f="$2" -v A="$3" 'BEGIN { for (k = 0; k <= 400; k++) { t = k * 0.01
        printf "%.17g\n", t <= 2 ? A * sin(2 * atan2(0, -1) * f * t) * (1 - t / 2) : 0 } }' > "$1.txt"
done
{
    echo "model BasicBuilder -ndm 3 -ndf 6"
    for k in 1 2 3 4 5 6 7; do echo "node $k [expr ($k - 1) * 1.2] [expr ($k - 1) * 0.5] [expr ($k - 1) * 0.3]"; done
    echo "fix 1 1 1 1 1 1 1; fix 4 1 1 1 0 0 0; fix 7 1 1 1 0 0 0"
    for k in 2 3 5 6; do echo "mass $k 2 2 2 0 0 0"; done
    echo "geomTransf Linear 1 0 0.3 1"
    for k in 1 2 3 4 5 6; do
        echo "element elasticBeamColumn $k $k $((k + 1)) 0.05 30e6 12e6 2e-3 1e-3 1.5e-3 1 -mass 1.5 -cMass"
    done
    cat <<'TCL'
timeSeries Path 11 -dt 0.01 -filePath a1.txt
timeSeries Path 14 -dt 0.01 -filePath a4.txt
timeSeries Path 17 -dt 0.01 -filePath a7.txt
timeSeries Path 12 -dt 0.01 -filePath ax.txt
timeSeries Path 13 -dt 0.01 -filePath az.txt
pattern MultipleSupport 1 {
  groundMotion 1 Plain -accel 11
  groundMotion 4 Plain -accel 14
  groundMotion 7 Plain -accel 17
  groundMotion 2 Plain -accel 12
  groundMotion 3 Plain -accel 13
  imposedMotion 1 2 1
  imposedMotion 4 2 4
  imposedMotion 7 2 7
  imposedMotion 1 1 2
  imposedMotion 4 1 2
  imposedMotion 7 1 2
  imposedMotion 1 3 3
  imposedMotion 7 3 3
}
recorder Node -file os_ms.out -time -precision 16 -node 3 5 -dof 1 2 3 4 disp
TCL
    tcl_newmark 300 Transformation
} > ms.tcl
run_opensees ms.tcl ms.os || fail "OpenSees (MultipleSupport): $(tail -5 ms.os)"
sed -e 's/frame_model.tcl, excitation: y/ms.tcl/' -e '/^ground_motion:/d' frame_hist.yaml > ms.yaml
"$hysim" run ms.yaml -o ms --quiet > ms.log 2>&1 || fail "hysim run (MultipleSupport): $(cat ms.log)"
# the response.csv columns of node 3 and 5's ux, uy, uz, rx (from the DOF list of hysim modes)
cols=$(for n in 3 5; do for d in ux uy uz rx; do dof_column ms.yaml "n${n}_$d"; done; done | tr '\n' ' ')
[ "$(echo "$cols" | wc -w)" -eq 8 ] || fail "MultipleSupport: no columns for nodes 3 and 5 ($cols)"
read -r bad rows worst <<< "$(dofs_vs_opensees ms/response.csv os_ms.out 1e-10 "$cols")"
[ "$rows" -eq 300 ] || fail "MultipleSupport: $rows rows against OpenSees, expected 300"
[ "$bad" -eq 0 ] || fail "MultipleSupport: a DOF differs by more than 1e-10 of its peak (worst $worst)"
echo "opensees_mass3d.sh: skewed 3-D beam under MultipleSupport in x, y, z (consistent mass): 8 DOFs' histories against OpenSees, worst difference $worst of the DOF's peak"
echo "opensees_mass3d.sh: ok"
