#!/usr/bin/env bash
# `hysim report DIR` (docs/report.md): a hybrid test on a perfect in-process laboratory (so the
# actuator's measured displacement is the story drift, d1), its report checked against numbers
# taken independently from the run's own files: the stroke peak equals max |d1| of response.csv,
# its use peak / stroke (0.6 mm) and the warning it earns (above 80 %); the force peak K max|d1|
# (K = 1 kN/mm); the energy error and the timing table from summary.json. The file must stand
# alone: every figure inline (as many base64 PNGs as `hysim plot` drew), no script, no external
# link. Then headless Chromium prints it to PDF and pdftotext finds the sections and numbers in
# it (skipped with a message where chromium or poppler-utils is absent). Also: a missing folder
# is refused with exit 2, and a report of a run whose test file is unknown says how to give it.
# Usage: report.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
cleanup() { rm -rf "$dir"; }
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    exit 1
}
cat > "$dir/test.yaml" <<'YAML'
hysim: 1
name: report-check
units: {force: kN, length: mm, time: s}
structure:
  dofs: 1
  mass: [0.000929839173384007]
  damping: {stiffness_proportional: {mode: 1, ratio: 0.05}}
experimental:
  - {name: story1, site: lab, story: 1, actuators: [a1], initial_stiffness: [[1.0]]}
sites:
  lab:
    kind: virtual
    perfect: true
    actuators: {a1: {stroke: 0.6, velocity_limit: 500, force_limit: 10}}
    specimen: {type: linear, K: [[1.0]]}
ground_motion:
  synthetic: {seed: 7, pga: 1500.0, duration: 40, dt: 0.005}
analysis:
  integrator: {type: central_difference}
  dt: 0.005
  steps: 600
YAML
"$hysim" run "$dir/test.yaml" -o "$dir/run" --quiet > "$dir/run.log" 2>&1 || fail "run exited $?"
"$hysim" report "$dir/run" --test "$dir/test.yaml" > "$dir/report.log" 2>&1 ||
    fail "report exited $?: $(cat "$dir/report.log")"
html="$dir/run/report.html"
[ -s "$html" ] || fail "no report.html"

# stand-alone: figures inline, nothing fetched
grep -qi '<script' "$html" && fail "the report has a script"
grep -qiE '(src|href)="(https?:|file:|//)' "$html" && fail "the report links outside itself"
grep -qiE '<link|@import' "$html" && fail "the report loads a style sheet"
pngs=$(find "$dir/run" -maxdepth 1 -name '*.png' | wc -l)
imgs=$(grep -o '<img alt="[^"]*" src="data:image/png;base64,' "$html" | wc -l)
if command -v gnuplot > /dev/null; then
    [ "$pngs" -ge 5 ] || fail "hysim plot drew only $pngs figures for a hybrid run"
else
    echo "report.sh: no gnuplot: the report has no figures"
fi
[ "$imgs" -eq "$pngs" ] || fail "$imgs figures inline, $pngs PNGs in the run folder"

# the numbers, from the run's own files
peak=$(awk -F, 'NR > 1 { a = $2 < 0 ? -$2 : $2; if (a > m) m = a } END { printf "%.4g", m }' \
    "$dir/run/response.csv")
use=$(awk -v p="$peak" 'BEGIN { printf "%.3g", 100 * p / 0.6 }')
force=$(awk -v p="$peak" 'BEGIN { printf "%.4g", 1.0 * p }')
row() { grep -o "<tr><td>lab.a1</td><td>$1</td>.*</tr>" "$html" | head -1; }
row stroke | grep -q "<td class=\"n\">0.6</td><td class=\"n\">$peak</td><td>mm</td><td class=\"n\">$use %" ||
    fail "stroke row '$(row stroke)' != peak $peak mm, $use % of 0.6 mm"
row force | grep -q "<td class=\"n\">10</td><td class=\"n\">$force</td><td>kN</td>" ||
    fail "force row '$(row force)' != peak $force kN of 10"
grep -q "actuator lab.a1 reached $use % of its stroke limit" "$html" ||
    fail "no warning about $use % of the stroke"
err=$(sed -n 's/.*"error_rel": \([^,]*\),*/\1/p' "$dir/run/summary.json")
err_pct=$(awk -v e="$err" 'BEGIN { printf "%.6g", 100 * e }')
grep -q "<th>balance error</th><td class=\"n\">$err_pct %</td>" "$html" ||
    fail "energy error $err_pct % not in the report"
grep -q '<tr><td>lab</td><td class="n">600</td>' "$html" || fail "no timing row for site lab"
# the DOF by its name (one experimental story: a shear building's floor 1, docs/outputs.md)
grep -q "<tr><th>peak |d| of floor1 (DOF 1)</th>" "$html" ||
    fail "no peak row naming floor1: $(grep -o '<tr><th>peak |d|[^/]*' "$html")"
grep -q 'name: report-check' "$html" || fail "the test file's text is not in the report"
# the tracking table says what its numbers are (Chen & Ricles 2010: MTE is a maximum, TI an area)
# and the timing table counts steps (cmdgen_stats.c: steps_slow / steps)
mte=$(sed -n 's/.*"mte": \([^,]*\),.*/\1/p' "$dir/run/summary.json" | head -1)
grep -q 'Maximum tracking error (MTE' "$html" || fail "MTE is not called the maximum tracking error"
grep -qi 'mean tracking error' "$html" && fail "the report still calls MTE a mean"
grep -q '<th>MTE (mm)</th><th>RMS %</th><th>max TI (mm<sup>2</sup>)</th>' "$html" ||
    fail "MTE and TI carry no units"
grep -q "<tr><td>lab.a1</td><td class=\"n\">$mte</td>" "$html" || fail "no MTE row $mte for lab.a1"
grep -q '<th>% of steps slow</th><th>% of steps held</th>' "$html" ||
    fail "slow and hold are not percentages of steps"
grep -qi 'of ticks\|controller ticks the' "$html" && fail "the report still speaks of ticks"
grep -q '<th>experimental work</th><td class="n">[-0-9.e+]* kN\*mm</td>' "$html" ||
    fail "the experimental work carries no unit"
echo "report.sh: report.html $(wc -c < "$html") bytes, $imgs figures inline; stroke peak $peak mm = $use % of 0.6 mm (warned), force $force kN, energy error $err_pct %"

# failures say what to do
"$hysim" report "$dir/nothing" > /dev/null 2> "$dir/err.log"
[ $? -eq 2 ] || fail "a missing folder did not exit 2"
grep -q 'summary.json cannot be read' "$dir/err.log" || fail "unclear message: $(cat "$dir/err.log")"
cp -r "$dir/run" "$dir/bare" && rm -f "$dir/bare/checkpoint.bin" "$dir/bare/report.html"
"$hysim" report "$dir/bare" --no-plots > /dev/null 2>&1 || fail "report without a test file failed"
grep -q 'give it with --test FILE' "$dir/bare/report.html" || fail "no hint to give --test"
grep -q "<tr><td>lab.a1</td><td class=\"n\">$mte</td>" "$dir/bare/report.html" ||
    fail "without the test file the actuator is not named (summary.json names it)"

# PDF through a real browser
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
    echo "report.sh: SKIP the PDF: no chromium (Debian package chromium)"
    exit 0
fi
"$chromium" --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
    --user-data-dir="$dir/profile" --print-to-pdf="$dir/report.pdf" "file://$html" \
    > "$dir/chromium.log" 2>&1
[ -s "$dir/report.pdf" ] || fail "chromium wrote no PDF: $(tail -5 "$dir/chromium.log")"
head -c 5 "$dir/report.pdf" | grep -q '%PDF-' || fail "report.pdf is not a PDF"
if ! command -v pdftotext > /dev/null; then
    echo "report.sh: SKIP the PDF's content: no pdftotext (Debian package poppler-utils)"
    exit 0
fi
pages=$(pdfinfo "$dir/report.pdf" | sed -n 's/^Pages: *//p')
[ "$pages" -ge 2 ] || fail "the PDF has $pages pages"
pdftotext -layout "$dir/report.pdf" "$dir/report.txt"
for want in "report-check" "What, where and when" "Energy balance" "Timing per site" \
    "Tracking per actuator" "Limits and how close the test came" "Warnings" "Plots" \
    "The test file" "hysim $("$hysim" version | cut -d' ' -f2)"; do
    grep -qF "$want" "$dir/report.txt" || fail "'$want' is not in the PDF"
done
grep -E "lab\.a1 +stroke +0\.6 +$peak +mm +$use %" "$dir/report.txt" > /dev/null ||
    fail "the PDF's stroke row does not read '0.6 $peak mm $use %'"
echo "report.sh: report.pdf $pages pages, $(wc -c < "$dir/report.pdf") bytes; sections and the stroke row found in its text"
