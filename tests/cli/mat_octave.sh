#!/usr/bin/env bash
# GNU Octave loads results.mat: a short run of a two-story building with `output: {mat: true}`,
# then octave-cli reads results.mat and prints, with 17 significant digits, values that must equal
# response.csv's (itself the double of results.h5, bit for bit) and the names and units of
# docs/outputs.md. Skips (exit 0, with a message) when octave-cli is not installed (Debian's
# octave; heavy, so not in scripts/install-deps.sh). Usage: mat_octave.sh PATH_TO_hysim
set -u
hysim=$1
if ! command -v octave-cli >/dev/null; then
    echo "mat_octave.sh: skipped: octave-cli not found (apt-get install octave to run this test)"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

. "$(dirname "$0")/lib/two_story_building.sh"
{ two_story_building two-story-mat 100.0 3 "{type: newmark}" brace; cat <<'YAML'
output:
  mat: true
YAML
} > "$dir/two.yaml"
"$hysim" run "$dir/two.yaml" -o "$dir/out" --quiet || fail "hysim run failed"
[ -s "$dir/out/results.mat" ] || fail "no results.mat"
cat >"$dir/read.m" <<'M'
r = load('results.mat');
d = r.displacement;
printf('size %d %d\n', rows(d), columns(d));
printf('last %.17g %.17g %.17g\n', r.time(end), d(end, 1), d(end, 2));
printf('row101 %.17g %.17g %.17g\n', r.time(101), d(101, 1), d(101, 2));
printf('units %s %s %s\n', r.units.displacement, r.units.springs.force, r.units.energy.input);
printf('springs %s %s\n', r.names.springs.force{1}, r.names.springs.force{2});
printf('status %s %s %d\n', r.name, r.status, r.steps);
printf('energy %.17g\n', r.energy.input(end));
M
(cd "$dir/out" && octave-cli --no-gui --norc --quiet "$dir/read.m") >"$dir/oct.txt" 2>"$dir/oct.err" ||
    fail "octave-cli failed: $(cat "$dir/oct.err")"
rows=$(($(wc -l <"$dir/out/response.csv") - 1))
grep -qx "size $rows 2" "$dir/oct.txt" || fail "displacement is not $rows x 2: $(cat "$dir/oct.txt")"
last=$(tail -1 "$dir/out/response.csv" | tr ',' ' ')
row101=$(sed -n 102p "$dir/out/response.csv" | tr ',' ' ')
grep -qx "last $last" "$dir/oct.txt" || fail "last row: Octave '$(grep last "$dir/oct.txt")', response.csv '$last'"
grep -qx "row101 $row101" "$dir/oct.txt" || fail "row 101: Octave '$(grep row101 "$dir/oct.txt")', response.csv '$row101'"
grep -qx "units in kip kip\*in" "$dir/oct.txt" || fail "units: $(grep units "$dir/oct.txt")"
grep -qx "springs story1 story2" "$dir/oct.txt" || fail "spring names: $(grep springs "$dir/oct.txt")"
grep -qx "status two-story-mat completed 300" "$dir/oct.txt" || fail "root members: $(grep status "$dir/oct.txt")"
grep -q "^energy [0-9]" "$dir/oct.txt" || fail "energy: $(grep energy "$dir/oct.txt")"
echo "mat_octave.sh: Octave $(octave-cli --version | head -1 | awk '{print $4}') read results.mat: $rows x 2, values equal to response.csv to 17 digits"
