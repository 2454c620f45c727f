# Mosqueda and Ahmadizadeh's (2008a) 15-story Bouc-Wen shear building (examples/
# mosqueda2008a_15story.yaml) as an OpenSees Tcl model, kN, mm, s: node 1 the ground, node i + 1
# floor i, each story a zeroLength element (-doRayleigh 1) with a BoucWen material (first story 1.77 kN/mm,
# others 8.86 kN/mm, n = 2, yield displacement 3.6 mm), 2 % Rayleigh damping on modes 1 and 2
# with the initial stiffness (betaKinit, as hysim's K0), the ground acceleration of
# examples/opensees/ground_accel_g.txt (in g) along x. Read by OpenSees and by hysim's Tcl front
# end (bouc_wen_15story_tcl.yaml) alike; bouc_wen_15story.yaml is the same building in YAML.
model BasicBuilder -ndm 1 -ndf 1
node 1 0.0
fix 1 1
for {set i 1} {$i <= 15} {incr i} { node [expr {$i + 1}] 0.0 -mass 0.0014825502 }
uniaxialMaterial BoucWen 1 0.05 1.77 2.0 0.0385802469 0.0385802469 1.0 0.0 0.0 0.0
uniaxialMaterial BoucWen 2 0.05 8.86 2.0 0.0385802469 0.0385802469 1.0 0.0 0.0 0.0
for {set i 1} {$i <= 15} {incr i} {
    element zeroLength $i $i [expr {$i + 1}] -mat [expr {$i == 1 ? 1 : 2}] -dir 1 -doRayleigh 1
}
set lambda [eigen 2]
set w1 [expr {sqrt([lindex $lambda 0])}]
set w2 [expr {sqrt([lindex $lambda 1])}]
set zeta 0.02
rayleigh [expr {2.0 * $zeta * $w1 * $w2 / ($w1 + $w2)}] 0.0 [expr {2.0 * $zeta / ($w1 + $w2)}] 0.0
timeSeries Path 1 -dt 0.01 -filePath ground_accel_g.txt -factor 9806.65
pattern UniformExcitation 1 1 -accel 1
