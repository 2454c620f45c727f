#!/usr/bin/env bash
# `hysim check` agrees with `hysim run` on inputs that used to pass the check (docs/testfile.md,
# "Numbers" and "Memory"): a record written with decimal commas (0,10 0,20 -0,30), which was
# read as twice as many samples, is refused with its line and column; 10^9 steps, which `run`
# cannot allocate, are refused with the memory they need and what to change; a hexadecimal value
# is refused; a FIFO given as the test file is refused at once instead of hanging.
# Usage: inputs.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$dir/t.yaml" <<'YAML'
hysim: 1
name: inputs
units: {force: kip, length: in, time: s}
structure:
  dofs: 1
  mass: [0.0103600103600104]
  shear_building:
    stories: [{material: col}]
  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}
materials:
  col: {type: elastic, k: 2.8}
ground_motion: {file: rec.txt, format: columns, dt: 0.01}
analysis:
  integrator: {type: exact}
  dt: 0.01
  steps: 100
YAML
printf '0.10 0.20 -0.30\n0.05 0.00 0.01\n' > "$dir/rec.txt"
"$hysim" check "$dir/t.yaml" > /dev/null || fail "the good test is refused"

printf '0.10 0.20 -0.30\n0,05 0,00 0,01\n' > "$dir/rec.txt"
"$hysim" check "$dir/t.yaml" 2> "$dir/err" > /dev/null
[ $? -eq 2 ] || fail "decimal commas passed the check"
grep -q "rec.txt:2:1: '0,05' has a decimal comma" "$dir/err" || fail "reason: $(cat "$dir/err")"

printf '0.10 0.20 -0.30\n0x10 0.00 0.01\n' > "$dir/rec.txt"
"$hysim" check "$dir/t.yaml" 2> "$dir/err" > /dev/null
[ $? -eq 2 ] || fail "a hexadecimal sample passed the check"
grep -q "rec.txt:2:1: '0x10' is a hexadecimal number" "$dir/err" || fail "reason: $(cat "$dir/err")"

printf '0.10 0.20 -0.30\n' > "$dir/rec.txt"
sed 's/  steps: 100/  steps: 1000000000/' "$dir/t.yaml" > "$dir/big.yaml"
"$hysim" check "$dir/big.yaml" 2> "$dir/err" > /dev/null
[ $? -eq 2 ] || fail "10^9 steps passed the check"
# 1 DOF, 1 spring, 1 group: 2 + 3 + 2 + 6 + 1 = 14 values a record, 112 GB
grep -q "big.yaml:16:10: analysis.steps: 1000000000 steps keep 1000000001 records of 14 values, 112 GB in memory" \
    "$dir/err" || fail "reason: $(cat "$dir/err")"
grep -q "use fewer steps" "$dir/err" || fail "no advice: $(cat "$dir/err")"
"$hysim" run "$dir/big.yaml" -o "$dir/out" --quiet 2> /dev/null
[ $? -eq 2 ] || fail "run did not refuse what check refused"
[ ! -e "$dir/out" ] || fail "the refused run created its folder"

mkfifo "$dir/fifo.yaml"
timeout 10 "$hysim" check "$dir/fifo.yaml" 2> "$dir/err" > /dev/null
rc=$?
[ $rc -eq 2 ] || fail "a FIFO as test file: exit $rc (124: it hung)"
grep -q "fifo.yaml: is a FIFO (named pipe), not a regular file" "$dir/err" || fail "reason: $(cat "$dir/err")"
echo "inputs.sh: ok"
