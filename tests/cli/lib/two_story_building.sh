# The two-story shear building of the run tests (run.sh, run_folder.sh, lazy_libs.sh,
# mat_octave.sh, python.sh); sourced, not run (CTest runs tests/cli/*.sh only).

# two_story_building NAME PGA DURATION INTEGRATOR [brace]: its test file on stdout. kip, in, s;
# floor masses 0.01036 kip s^2/in, stories of 2.8 kip/in; a seeded synthetic record (seed 7) of
# peak PGA in/s^2 and DURATION s at dt = 0.01 s, analysed for DURATION s with INTEGRATOR (a flow
# mapping such as "{type: exact}"). Both stories elastic with 2 % stiffness-proportional damping
# on mode 1; with `brace`, story 2 a bilinear brace (fy 0.25 kip, b 0.05) and 2 % Rayleigh damping
# on modes 1 and 2. A caller adds keys of `analysis:` (the last section) or sections after it.
two_story_building() {
    local story2=col damping='{stiffness_proportional: {mode: 1, ratio: 0.02}}'
    local brace=''
    if [ "${5:-}" = brace ]; then
        story2=brace damping='{rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}'
        brace='
  brace: {type: bilinear, k: 2.8, fy: 0.25, b: 0.05}'
    fi
    cat <<YAML
hysim: 1
name: $1
units: {force: kip, length: in, time: s}
structure:
  dofs: 2
  mass: [0.0103600103600104, 0.0103600103600104]
  shear_building:
    stories: [{material: col}, {material: $story2}]
  damping: $damping
materials:
  col: {type: elastic, k: 2.8}$brace
ground_motion:
  synthetic: {seed: 7, pga: $2, duration: $3, dt: 0.01}
analysis:
  integrator: $4
  dt: 0.01
  duration: $3
YAML
}
