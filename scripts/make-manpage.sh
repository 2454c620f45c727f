#!/usr/bin/env bash
# Generates the man page hysim.1 with help2man from `hysim --help` and `hysim --version`, with a
# COMMANDS section holding each command's own `hysim CMD --help` (the commands that have one).
# usage: make-manpage.sh HYSIM OUT
set -euo pipefail
hysim=$1
out=$2
include=$(mktemp)
trap 'rm -f "$include"' EXIT
{
    echo "[COMMANDS]"
    for cmd in $("$hysim" --help | awk '/^  [a-z][a-z-]* /{print $1}' | sort -u); do
        text=$("$hysim" "$cmd" --help 2>/dev/null) || continue
        echo ".SS $cmd"
        echo ".nf"
        # roff: a backslash is written \e, a line starting with . or ' is protected by \&
        printf '%s\n' "$text" | sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
        echo ".fi"
    done
    cat <<'EOT'
[FILES]
.TP
.I DIR/summary.json, DIR/response.csv, DIR/results.h5, DIR/results.mat
what a run leaves in its output folder (docs/outputs.md in the source tree)
.TP
.I DIR/checkpoint.bin, DIR/records.bin
the checkpoint from which \fBhysim run \-\-resume\fR continues (docs/checkpoints.md)
[SEE ALSO]
.BR gnuplot (1),
.BR h5dump (1),
.BR pkg-config (1)
EOT
} >"$include"
help2man --no-info --no-discard-stderr --section=1 --include="$include" \
    --name="hybrid simulation of structures: run, check and plot tests" --output="$out" "$hysim"
