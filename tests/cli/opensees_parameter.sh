#!/bin/bash
# parameter, addToParameter, updateParameter in a script's own analysis (docs/opensees_tcl.md;
# src/opensees/opensees_tcl_parameter.c), on two trusses in series written here (fixed node 1,
# node 2 at L1, node 3 at L; E, A; a load P at node 3 in a Linear pattern, LoadControl 1), the
# deflection of node 3 against closed forms:
#  - before any update, after `analyze 1`: U1 = P L / (E A);
#  - E (both elements' materials, by addToParameter), A (both) and the load updated, then
#    `analyze 1` (load factor 2): the trusses keep measuring from the undeformed state, so
#    U2 = 2 P' L / (E' A');
#  - the same and node 3's x moved to x3': OpenSees' Truss::setDomain starts every truss again
#    from the nodes as displaced then (the strain from those displacements, the length to the
#    displaced nodes), so the 2 P' the trusses now carry adds U2 = U1 + 2 P' (L1 + u2 + x3' - L1
#    + U1 - u2) / (E' A'), u2 = P L1 / (E A);
#  - refused at their lines: a parameter hysim has not (element rho), an update of a missing
#    parameter, E of a truss of a Steel01 material, a coordinate after an analysis of a model
#    with a beam;
#  - with OPENSEES set, OpenSees 3.8 prints the same deflections (1e-12).
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
work_dir

L1=7.0
L=12.0
E=20000.0
A=3.0
P=40.0
# script MOVE: the two-truss script; MOVE 1 also moves node 3 to 0.9 L
script() {
    cat << TCL
model basic -ndm 2 -ndf 2
node 1 0.0 0.0; fix 1 1 1
node 2 $L1 0.0; fix 2 0 1
node 3 $L 0.0; fix 3 0 1
uniaxialMaterial Elastic 1 $E
element truss 1 1 2 $A 1
element truss 2 2 3 $A 1
pattern Plain 1 Linear { load 3 $P 0.0 }
parameter 1 element 1 E
addToParameter 1 element 2 E
parameter 2
addToParameter 2 element 2 A
addToParameter 2 element 1 A
parameter 3 loadPattern 1 loadAtNode 3 1
parameter 4 node 3 coord 1
analysis Static
analyze 1
puts "before [nodeDisp 3 1]"
updateParameter 1 [expr 0.9 * $E]
updateParameter 2 [expr 1.1 * $A]
updateParameter 3 [expr 1.2 * $P]
$([ "$1" = 1 ] && echo "updateParameter 4 [expr 0.9 * $L]")
analyze 1
puts "after [nodeDisp 3 1]"
TCL
}
script 0 > still.tcl
script 1 > moved.tcl
for c in still moved; do
    os_testfile $c $c.tcl > $c.yaml
    "$hysim" run $c.yaml -o $c > $c.log 2>&1 || fail "$c: $(cat $c.log)"
done
read -r u1 u2 u2m < <(awk -v L1=$L1 -v L=$L -v E=$E -v A=$A -v P=$P 'BEGIN {
    e = 0.9 * E; a = 1.1 * A; p = 1.2 * P; u1 = P * L / (E * A); v2 = P * L1 / (E * A)
    printf "%.17g %.17g %.17g\n", u1, 2 * p * L / (e * a), u1 + 2 * p * (L1 + v2 + 0.9 * L - L1 + u1 - v2) / (e * a) }')
for c in still moved; do
    got=$(awk '/^before / { print $2 }' $c.log)
    near "$got" "$u1" 1e-13 || fail "$c: before the update $got, expected P L / (E A) = $u1"
done
got=$(awk '/^after / { print $2 }' still.log)
near "$got" "$u2" 1e-13 || fail "still: after the update $got, expected 2 P' L / (E' A') = $u2"
echo "$me: E, A, P updated: $got (closed form $u2)"
got=$(awk '/^after / { print $2 }' moved.log)
near "$got" "$u2m" 1e-13 || fail "moved: after the update $got, expected $u2m"
echo "$me: E, A, P and node 3 moved: $got (closed form $u2m; without the trusses' restart $(awk -v p=1.2 -v P=$P -v L=$L -v E=$E -v A=$A 'BEGIN { print 2 * p * P * 0.9 * L / (0.9 * E * 1.1 * A) }'))"

# refusals at their lines
refused() { # NAME LINE TEXT SCRIPT...: the script is refused at LINE with TEXT
    local name=$1 line=$2 text=$3
    shift 3
    printf '%s\n' "$@" > $name.tcl
    os_testfile $name $name.tcl > $name.yaml
    "$hysim" run $name.yaml -o $name > $name.out 2>&1 && fail "$name ran"
    grep -qF "$name.tcl:$line: $text" $name.out || fail "$name: $(cat $name.out)"
}
model='model basic -ndm 2 -ndf 2'
nodes='node 1 0 0; node 2 5 0; fix 1 1 1; fix 2 0 1'
refused rho 4 "parameter: element 1: 'rho' is not a parameter hysim has" "$model" "$nodes" \
    'uniaxialMaterial Elastic 1 100; element truss 1 1 2 1.0 1' 'parameter 1 element 1 rho'
refused missing 4 "updateParameter: no parameter 7" "$model" "$nodes" \
    'uniaxialMaterial Elastic 1 100; element truss 1 1 2 1.0 1' 'updateParameter 7 1.0'
refused steel 4 "parameter: element 1: 'E' is not a parameter hysim has" "$model" "$nodes" \
    'uniaxialMaterial Steel01 1 10 100 0.01; element truss 1 1 2 1.0 1' 'parameter 1 element 1 E'
refused beam 10 "updateParameter: a node's coordinate after an analysis with element 1 (not a truss)" \
    'model basic -ndm 2 -ndf 3' 'node 1 0 0; node 2 5 0; fix 1 1 1 1' 'geomTransf Linear 1' \
    'element elasticBeamColumn 1 1 2 1.0 100.0 1.0 1' 'timeSeries Linear 1' \
    'pattern Plain 1 1 { load 2 1.0 0.0 0.0 }' 'parameter 1 node 2 coord 1' 'analysis Static' \
    'analyze 1' 'updateParameter 1 6.0'

rest_needs_opensees
for c in still moved; do
    mkdir -p os/$c && cp $c.tcl os/$c/ && (cd os/$c && run_opensees $c.tcl os.log) || fail "OpenSees $c: $(tail -5 os/$c/os.log)"
    for w in before after; do
        a=$(awk -v w=$w '$1 == w { print $2 }' $c.log)
        b=$(awk -v w=$w '$1 == w { print $2 }' os/$c/os.log)
        near "$a" "$b" 1e-12 || fail "$c $w: hysim $a, OpenSees 3.8 $b"
    done
    echo "$me: $c: OpenSees 3.8 prints the same deflections ($b after)"
done
echo "$me: OK"
