#!/usr/bin/env bash
# Run folders are protected (docs/outputs.md, "The run folder"): a new run into a folder that holds
# a killed run's checkpoint or a completed run's results is refused (exit 2, nothing touched) unless
# --force is given, which removes the earlier run's files first (no stale "completed" summary beside
# a new checkpoint); a folder in use by a running hysim is locked against a second run and a
# --resume; an unwritable or full folder is refused before the first step, also with
# checkpoint_every: 0. Usage: run_folder.sh PATH_TO_hysim
set -u
hysim=$1
dir=$(mktemp -d)
pid=
cleanup() {
    [ -n "$pid" ] && kill -CONT "$pid" 2> /dev/null && kill "$pid" 2> /dev/null && wait "$pid"
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

. "$(dirname "$0")/lib/two_story_building.sh"
{ two_story_building folder 100.0 5 "{type: exact}"; cat <<'YAML'
  checkpoint_every: 10
YAML
} > "$dir/t.yaml"

# a killed run's folder: a new run is refused and the checkpoint and records stay byte for byte
HS_TEST_KILL_AT_STEP=237 "$hysim" run "$dir/t.yaml" -o "$dir/k" --quiet
[ $? -eq 137 ] || fail "the killed run did not exit 137"
cp "$dir/k/checkpoint.bin" "$dir/ck.before"
cp "$dir/k/records.bin" "$dir/rec.before"
"$hysim" run "$dir/t.yaml" -o "$dir/k" --quiet 2> "$dir/err"
[ $? -eq 2 ] || fail "a new run into a killed run's folder was not refused with exit 2"
grep -q "already holds a run (checkpoint.bin, records.bin)" "$dir/err" || fail "reason: $(cat "$dir/err")"
grep -q -- "--resume" "$dir/err" && grep -q -- "--force" "$dir/err" || fail "no advice: $(cat "$dir/err")"
cmp "$dir/ck.before" "$dir/k/checkpoint.bin" || fail "the refused run changed checkpoint.bin"
cmp "$dir/rec.before" "$dir/k/records.bin" || fail "the refused run changed records.bin"
"$hysim" run --resume "$dir/k" --quiet || fail "the kept checkpoint does not resume"
[ "$(($(wc -l < "$dir/k/response.csv") - 1))" -eq 501 ] || fail "resumed response.csv is not 501 rows"

# a completed run's folder: refused; its results stay
cp "$dir/k/response.csv" "$dir/resp.before"
"$hysim" run "$dir/t.yaml" -o "$dir/k" --quiet 2> "$dir/err"
[ $? -eq 2 ] || fail "a new run over completed results was not refused"
grep -q "summary.json, response.csv, results.h5" "$dir/err" || fail "reason: $(cat "$dir/err")"
cmp "$dir/resp.before" "$dir/k/response.csv" || fail "the refused run changed response.csv"

# --force replaces it; a forced run killed before its end leaves no earlier summary behind
HS_TEST_KILL_AT_STEP=55 "$hysim" run "$dir/t.yaml" -o "$dir/k" --force --quiet
[ $? -eq 137 ] || fail "the forced, killed run did not exit 137"
for f in summary.json response.csv results.h5; do
    [ ! -e "$dir/k/$f" ] || fail "the earlier run's $f is still beside the new checkpoint"
done
[ "$(stat -c %s "$dir/k/checkpoint.bin")" -gt 0 ] || fail "no new checkpoint"
"$hysim" run --resume "$dir/k" > "$dir/out" || fail "resume of the forced run exited $?"
grep -q "after step 50 of 500" "$dir/out" || fail "not the forced run's checkpoint: $(cat "$dir/out")"
"$hysim" run "$dir/t.yaml" -o "$dir/k" --force --resume "$dir/k" --quiet 2> /dev/null
[ $? -eq 2 ] || fail "--force with --resume was not refused"
# a folder with other files only (notes, plots) is not a run: accepted, the files stay
mkdir -p "$dir/notes" && echo keep > "$dir/notes/README"
"$hysim" run "$dir/t.yaml" -o "$dir/notes" --quiet || fail "a folder holding only notes was refused"
[ "$(cat "$dir/notes/README")" = keep ] || fail "the notes were touched"
[ ! -e "$dir/notes/.hysim-probe.tmp" ] || fail "the probe file was left behind"

# a run in progress locks its folder: a second run (even --force) and a --resume are refused, and
# the first run ends intact. The first is stopped (SIGSTOP) once it has a checkpoint, so the
# attempts certainly fall inside its life.
sed 's/duration: 5$/duration: 60/; s/checkpoint_every: 10/checkpoint_every: 20/' "$dir/t.yaml" \
    > "$dir/long.yaml"
"$hysim" run "$dir/long.yaml" -o "$dir/busy" --quiet &
pid=$!
for _ in $(seq 1 2000); do
    [ -s "$dir/busy/checkpoint.bin" ] && break
    sleep 0.01
done
kill -STOP "$pid" || fail "the first run ended before it could be stopped"
"$hysim" run "$dir/long.yaml" -o "$dir/busy" --force --quiet 2> "$dir/err"
[ $? -eq 2 ] || fail "a second run into a locked folder was not refused"
grep -q "in use by another hysim run" "$dir/err" || fail "reason: $(cat "$dir/err")"
"$hysim" run --resume "$dir/busy" --quiet 2> "$dir/err"
[ $? -eq 2 ] || fail "a --resume of a locked folder was not refused"
grep -q "in use by another hysim run" "$dir/err" || fail "reason: $(cat "$dir/err")"
kill -CONT "$pid"
wait "$pid" || fail "the first run exited $? after the refused attempts"
pid=
[ "$(($(wc -l < "$dir/busy/response.csv") - 1))" -eq 6001 ] || fail "the first run's response.csv is not 6001 rows"
"$hysim" run "$dir/long.yaml" -o "$dir/busy" --force --quiet || fail "the lock outlived the run"

# the resume hash covers the record the test reads: an edited record is refused, not spliced
seq 1 600 | awk '{printf "%.4f%s", sin($1 / 7.0) * 50, ($1 % 3 == 0 ? "\n" : " ")}' > "$dir/rec.txt"
sed '/^ground_motion:/,/^analysis:/c\
ground_motion: {file: rec.txt, format: columns, dt: 0.01}\
analysis:' "$dir/t.yaml" > "$dir/rec.yaml"
"$hysim" check "$dir/rec.yaml" > /dev/null || fail "the record test is not valid: $("$hysim" check "$dir/rec.yaml" 2>&1)"
HS_TEST_KILL_AT_STEP=120 "$hysim" run "$dir/rec.yaml" -o "$dir/rec" --quiet
[ $? -eq 137 ] || fail "the record run was not killed"
sed -i '100s/.*/1.0 2.0 3.0/' "$dir/rec.txt" # one line of the record changed after the checkpoint
"$hysim" run --resume "$dir/rec" --quiet 2> "$dir/err"
[ $? -eq 2 ] || fail "a resume with an edited record was not refused"
grep -q "content hash differs" "$dir/err" || fail "reason: $(cat "$dir/err")"

# unwritable (read-only) and full folders are refused before step 1, with checkpoint_every: 0.
# The two 1 MiB tmpfs mounts live in a private mount namespace (unshare -m): nothing outside sees
# them and they vanish with it, whatever happens to this script.
sed 's/checkpoint_every: 10/checkpoint_every: 0/' "$dir/t.yaml" > "$dir/nock.yaml"
mkdir -p "$dir/ro" "$dir/full"
# 60 s at dt 0.01: 6001 records of at least 18 doubles (t, ag, 3 x 2 DOFs, 2 x 2 springs, 6
# energies), 0.86 MB, twice with checkpoints (records.bin and results.h5): more than 1 MiB
if unshare -m --propagation private true 2> /dev/null; then
    unshare -m --propagation private bash -c '
        mount -t tmpfs -o ro,size=1m tmpfs "$2/ro" && mount -t tmpfs -o size=1m tmpfs "$2/full" ||
            exit 9
        "$1" run "$2/nock.yaml" -o "$2/ro" --quiet 2> "$2/err.ro"
        echo $? > "$2/rc.ro"
        "$1" run "$2/long.yaml" -o "$2/full/x" --quiet 2> "$2/err.full"
        echo $? > "$2/rc.full"
        ls -A "$2/full/x" > "$2/left.full"' _ "$hysim" "$dir"
    [ $? -ne 9 ] || fail "cannot mount tmpfs in a private namespace"
    [ "$(cat "$dir/rc.ro")" -eq 2 ] || fail "a read-only folder was not refused"
    grep -q "cannot create a file in the folder: Read-only file system" "$dir/err.ro" ||
        fail "reason: $(cat "$dir/err.ro")"
    [ "$(cat "$dir/rc.full")" -eq 2 ] || fail "a full folder was not refused"
    grep -q "MB free, the run will write about" "$dir/err.full" ||
        fail "reason: $(cat "$dir/err.full")"
    [ ! -s "$dir/left.full" ] || fail "the refused run left files: $(cat "$dir/left.full")"
else
    echo "run_folder.sh: no private mount namespace here (not root?): the read-only and full" \
        "folder cases are skipped"
fi
echo "run_folder.sh: ok"
