#!/usr/bin/env bash
# The Python module's reading of numbers and column names (docs/python.md; issue 17, section 2):
#  - a repeated column name in response.csv is kept, as pandas does (d1, d1.1, d1.2), with its
#    own values; a name that already ends in .1 is not overwritten;
#  - `1_0` (10 to Python's float), `0x1p3` and ` 5` are refused with FILE:LINE:COL;
#    numbers as %.17g writes them (1e-300, -0, nan, inf, -nan) read back exactly.
# Runs /usr/bin/python3 (Debian's, with python3-numpy); skips with a message without it.
# Usage: python_loader.sh PATH_TO_hysim
set -u
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
if ! "$py" -c "import numpy" 2>/dev/null; then
    echo "python_loader.sh: skipped: $py lacks numpy (apt-get install python3-numpy)"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf 't,d1,d1,d1.1,d1\n0,1,2,3,4\n0.5,5,6,7,8\n' > "$dir/dup.csv"
printf 't,d1\n0,1\n1,1_0\n' > "$dir/under.csv"
printf 't,d1\n0,0x1p3\n' > "$dir/hex.csv"
printf 't,d1\n0, 5\n' > "$dir/blank.csv"
printf 't,d1\n0,1e-300\n1,-0\n2,nan\n3,inf\n4,-nan\n5,2.2250738585072014e-308\n' > "$dir/ok.csv"
PYTHONPATH="$here/../../python" "$py" - "$dir" > "$dir/out" 2>&1 <<'PY' || fail "$(cat "$dir/out")"
import math, os, sys
import hysim

d = sys.argv[1]
t = hysim.read_csv(os.path.join(d, "dup.csv"))
assert t.columns == ["t", "d1", "d1.2", "d1.1", "d1.3"], t.columns
assert [t[c][1] for c in t.columns] == [0.5, 5, 6, 7, 8], [t[c][1] for c in t.columns]
for name, text, col in (("under.csv", "1_0", 3), ("hex.csv", "0x1p3", 3), ("blank.csv", " 5", 3)):
    try:
        hysim.read_csv(os.path.join(d, name))
    except ValueError as e:
        where = f"{os.path.join(d, name)}:{3 if name == 'under.csv' else 2}:{col}: {text!r} is not a number"
        assert str(e).startswith(where), (str(e), where)
    else:
        raise AssertionError(f"{name}: {text!r} was read as a number")
t = hysim.read_csv(os.path.join(d, "ok.csv"))
v = t["d1"]
assert v[0] == 1e-300 and v[1] == 0 and math.copysign(1, v[1]) < 0 and math.isnan(v[2])
assert v[3] == math.inf and math.isnan(v[4]) and v[5] == 2.2250738585072014e-308
print("python loader: a repeated name kept as d1.2 and d1.3 beside the file's d1.1; 1_0, 0x1p3 and ' 5' refused at FILE:LINE:COL; 1e-300, -0, nan, inf read exactly")
PY
cat "$dir/out"
exit 0
