#!/usr/bin/env bash
# OpenFresco scripts with networked sites (docs/openfresco.md, "Networked sites in scripts"):
# OpenFresco's own client/server pairs, each client script once in hysim (`expSite ShadowSite`:
# hysim's protocol B client, src/opensees/opensees_tcl_exp_remote.c; with `-setup`, the setup on
# the client side and the actuators' velocities sent, TwoDOF_Client2) and once in OpenFresco
# itself, each run against fresh servers run by OpenFresco ($OPENFRESCO_OPENSEES,
# `startLabServer` on an ActorSite); every recorder file both clients write must agree to 1e-8
# of each column's peak. The scripts are read from $OPENFRESCO_SRC/EXAMPLES and changed only in
# the copies: the ports (free ones, chosen here), `loadPackage OpenFrescoTcl` after the servers'
# `model` line (they are shipped without it: OpenFresco's own OpenSees loads it by itself), and
# the recorders at -precision 16. Every server and client is stopped and the folder removed on
# exit, also on failure. Needs OPENFRESCO_SRC and OPENFRESCO_OPENSEES (skipped otherwise).
# Usage: openfresco_remote.sh hysim
set -u
hysim=$1
. "$(dirname "$0")/lib/fe_cli.sh"
. "$(dirname "$0")/lib/openfresco_cli.sh"
if [ -z "${OPENFRESCO_SRC:-}" ] || [ ! -d "${OPENFRESCO_SRC:-}/EXAMPLES" ]; then
    echo "$me: SKIP: no OpenFresco source (set OPENFRESCO_SRC=/path/to/openfresco)"
    exit 0
fi
if [ -z "${OPENFRESCO_OPENSEES:-}" ] || [ ! -x "${OPENFRESCO_OPENSEES:-}" ]; then
    echo "$me: SKIP: no OpenFresco to run the servers (set OPENFRESCO_OPENSEES to an OpenSees that can loadPackage OpenFresco, docs/openfresco.md)"
    exit 0
fi
ex=$OPENFRESCO_SRC/EXAMPLES
pids_dir

# free_port: a TCP port free on 127.0.0.1 now
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# openfresco_run FOLDER SCRIPT LOG: OpenFresco's OpenSees runs SCRIPT in FOLDER (OpenFresco.so
# beside it) in the background; its pid is appended to pids and set in $last
openfresco_run() {
    local lib
    lib=$(dirname "$OPENFRESCO_OPENSEES")
    (cd "$1" && LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec timeout 600 \
        "$OPENFRESCO_OPENSEES" "$2" > "$3" 2>&1 < /dev/null) &
    last=$!
    pids+=("$last")
}

# listening LOG TEXT: waits (30 s at most) until the process $last writes TEXT in LOG (its
# channel then listens); fails when it ends first or cannot bind its port
listening() {
    local i
    for i in $(seq 1 300); do
        grep -q "could not bind" "$1" 2> /dev/null && return 1
        grep -q "$2" "$1" 2> /dev/null && return 0
        kill -0 "$last" 2> /dev/null || return 1
        sleep 0.1
    done
    return 1
}

# server FOLDER SCRIPT PORT: the server script (its ActorSite on PORT) runs in OpenFresco; returns
# once it waits for its ShadowSite (its channel listens then)
server() {
    mkdir -p "$1"
    cp -r "$(dirname "$2")"/. "$1/"
    sed -E -e 's/\r$//' -e '/^[ \t]*model[ \t]/a loadPackage OpenFrescoTcl' \
        -e "s/^([ \t]*expSite[ \t]+ActorSite[ \t]+[0-9]+[ \t]+-(setup|control)[ \t]+[0-9]+[ \t]+)[0-9]+/\1$3/" \
        "$2" > "$1/$(basename "$2")"
    openfresco_run "$1" "$(basename "$2")" "$1/server.log"
    listening "$1/server.log" "Waiting for ShadowExpSite" || fail "server $2 did not start: $(tail -3 "$1/server.log")"
}

# client_copy SCRIPT OUT PORT...: the client script with its ShadowSites' ports replaced in
# order (site k's ipPort by the k-th PORT), -noDelay added to them (OpenFresco's client otherwise
# waits for delayed ACKs: 86 s instead of 0.25 s for OneBayFrame; hysim's client always sets
# TCP_NODELAY) and its recorders at -precision 16
client_copy() {
    local script=$1 out=$2
    shift 2
    precise "$script" | sed 's/\r$//' | awk -v ports="$*" '
        BEGIN { np = split(ports, p, " ") }
        $1 == "expSite" && ($2 == "ShadowSite" || $2 == "RemoteSite") && k < np {
            k++; $(NF) = p[k] " -noDelay" }   # the shipped lines end with the port
        { print }' > "$out"
}

# run_client NAME RUN SCRIPT: the client copy in $dir/NAME/RUN/src runs in hysim (RUN hs) or in
# OpenFresco (RUN of); fails when it stops
run_client() {
    if [ "$2" = hs ]; then
        hysim_run "$dir/$1/hs" "$3" || fail "$1: hysim: $(tail -3 "$dir/$1/hs/err.log")"
    else
        openfresco_run "$dir/$1/of/src" "$3" "$dir/$1/of/client.log"
        wait "$last" || fail "$1: OpenFresco's client stopped: $(tail -3 "$dir/$1/of/client.log")"
    fi
}

# compare NAME fail|list: every recorder file both clients of NAME wrote, column by column; fails
# beyond 1e-8 of a column's peak, and on files of another shape (fail) or names them (list)
compare() {
    local f d w=0 n=0 at="" shapes=""
    while read -r f; do
        [ -f "$dir/$1/of/src/${f##*/}" ] || continue
        d=$(worst "$f" "$dir/$1/of/src/${f##*/}" | tail -1)
        if [ "$d" = rows ]; then
            [ "$2" = fail ] && fail "$1: ${f##*/}: the files differ in shape"
            shapes="$shapes ${f##*/}"
            continue
        fi
        n=$((n + 1))
        awk -v a="$d" -v b="$w" 'BEGIN { exit !(a > b) }' && { w=$d; at=${f##*/}; }
    done < <(find "$dir/$1/hs/run" -name '*.out' | sort)
    [ "$n" -gt 0 ] || fail "$1: no recorder file written by both"
    awk -v a="$w" 'BEGIN { exit !(a <= 1e-8) }' || fail "$1: $w of the peak in $at"
    echo "$1: $n recorder files, worst $w of the peak${at:+ ($at)}${shapes:+; another shape:$shapes}"
}

# pair NAME CLIENT SERVER...: CLIENT against its SERVERs (in the order of its ShadowSites), in
# hysim then in OpenFresco, fresh servers each time; prints "worst files" and fails beyond 1e-8
pair() {
    local name=$1 client=$2
    shift 2
    local servers=("$@") run ports spids k
    for run in hs of; do
        ports=() spids=()
        for k in "${!servers[@]}"; do
            ports+=("$(free_port)")
            server "$dir/$name/$run-srv$k" "${servers[$k]}" "${ports[$k]}"
            spids+=("$last")
        done
        mkdir -p "$dir/$name/$run/src"
        cp -r "$(dirname "$client")"/. "$dir/$name/$run/src/"
        client_copy "$client" "$dir/$name/$run/src/$(basename "$client")" "${ports[@]}"
        run_client "$name" "$run" "$(basename "$client")"
        for k in "${spids[@]}"; do wait "$k" 2> /dev/null; done # each ends after its 99
    done
    compare "$name" fail
}

# worker FOLDER SCRIPT PORT: OpenFresco's Worker script (its `element adapter` on PORT) runs in
# OpenSees ($OPENSEES); returns once its adapter listens
worker() {
    mkdir -p "$1"
    cp -r "$(dirname "$2")"/. "$1/"
    sed -E -e 's/\r$//' -e "s/^([ \t]*element[ \t]+adapter[ \t].*[ \t])[0-9]+[ \t]*$/\1$3/" \
        "$2" > "$1/$(basename "$2")"
    (cd "$1" && exec timeout 600 "$OPENSEES" "$(basename "$2")" > worker.log 2>&1 < /dev/null) &
    last=$!
    pids+=("$last")
    listening "$1/worker.log" "Waiting for ECSimAdapter" || fail "worker $2 did not start: $(tail -3 "$1/worker.log")"
}

# adapter_pair NAME MAIN WORKER STEPS: MAIN (expControl SimFEAdapter on a LocalSite) against its
# WORKER (OpenSees' adapter element), in hysim (its opensees-adapter:// client) then in
# OpenFresco, a fresh worker each time, the Main's analysis loop cut to STEPS steps in both
# copies (OpenFresco's SimFEAdapter has no -noDelay: 1600 steps take it 200 s on delayed ACKs);
# the recorder files of the same shape must agree to 1e-8 of each column's peak
adapter_pair() {
    local name=$1 main=$2 wk=$3 steps=$4 run port wpid
    for run in hs of; do
        port=$(free_port)
        worker "$dir/$name/$run-worker" "$wk" "$port"
        wpid=$last
        mkdir -p "$dir/$name/$run/src"
        cp -r "$(dirname "$main")"/. "$dir/$name/$run/src/"
        precise "$main" | sed -E -e 's/\r$//' \
            -e "s/^([ \t]*expControl[ \t]+SimFEAdapter[ \t]+[0-9]+[ \t]+[^ \t]+[ \t]+)[0-9]+/\1$port/" \
            -e "s/\\\$i < [0-9]+\\}/\\\$i < $steps}/" > "$dir/$name/$run/src/$(basename "$main")"
        grep -q "\$i < $steps}" "$dir/$name/$run/src/$(basename "$main")" || fail "$name: no analysis loop to cut"
        run_client "$name" "$run" "$(basename "$main")"
        wait "$wpid" 2> /dev/null # the worker ends after its 99
    done
    compare "$name" list
}

ob=$ex/OneBayFrame/OpenSees
pair onebay "$ob/OneBayFrame_Client1.tcl" "$ob/OneBayFrame_Server1a.tcl" "$ob/OneBayFrame_Server1b.tcl"
ts=$ex/TwoStoryShear
pair twostoryshear "$ts/TwoStoryShear_Client1.tcl" "$ts/TwoStoryShear_Server1a.tcl" "$ts/TwoStoryShear_Server1b.tcl"
td=$ex/TwoDOFModel
pair twodof "$td/TwoDOF_Client1.tcl" "$td/TwoDOF_Server1.tcl"
# the setup on the client side (expSite ShadowSite 1 -setup 1 ...): its actuator's displacement
# and velocity go to the server's ActorSite -control
pair twodof2 "$td/TwoDOF_Client2.tcl" "$td/TwoDOF_Server2.tcl"
if have_opensees; then
    cv=$ex/Cantilever
    adapter_pair cantilever2d "$cv/Cantilever2D_Main.tcl" "$cv/Cantilever2D_Worker.tcl" 400
    # the 3-D expElement beamColumn (EEBeamColumn3d) on two actuators of opposite factors; past
    # step 384 the Worker's Steel02 yields, and its adapter commits every trial it gets: equal
    # only because hysim sends a trial only when the basic deformations moved (as OpenFresco)
    adapter_pair cantilever3d "$cv/Cantilever3D_Main.tcl" "$cv/Cantilever3D_Worker.tcl" 400
else
    echo "$me: SKIP (the Cantilever pairs): set OPENSEES to run their Workers"
fi
echo "$me: PASS"
