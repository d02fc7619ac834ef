# Sourced by the scripts of scripts/services/: their work folder, the servers they start on free
# ports of 127.0.0.1, and stopping them whatever the exit. The sourcing script defines
# fail MESSAGE (print and exit non-zero) before it calls these.

# servers_begin LABEL: makes $work, a new folder for logs; on exit stops every process in $pids and
# $wrk_pids (the sourcing script's load generators), then removes $work after a success or names it
# after a failure.
servers_begin() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    pids=()
    wrk_pids=()
    trap servers_end EXIT
    trap 'fail "interrupted"' INT TERM
}

servers_end() {
    local status=$?
    trap - EXIT INT TERM
    for pid in "${wrk_pids[@]}" "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${wrk_pids[@]}" "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ "$status" -eq 0 ]; then
        rm -rf "$work"
    else
        echo "$(basename "$0"): logs kept in $work" >&2
    fi
    exit "$status"
}

# start NAME COMMAND...: runs COMMAND in the background (output in $work/NAME.out and .err), waits
# for its "listening on HOST:PORT" line, and sets $port and $pid.
start() {
    local name=$1
    shift
    # Made here, so that the loop below never reads a file the background job has not opened yet
    # (sed would fail on it, and with pipefail and set -e end the script).
    : >"$work/$name.out"
    "$@" >>"$work/$name.out" 2>"$work/$name.err" &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 1 200); do
        port=$(sed -n 's/.* listening on [^ ]*:\([0-9][0-9]*\).*/\1/p' "$work/$name.out" | head -n 1)
        [ -n "$port" ] && return 0
        if ! kill -0 "$pid" 2>/dev/null; then
            cat "$work/$name.err" >&2
            fail "$name exited before it listened"
        fi
        sleep 0.1
    done
    fail "$name did not listen within 20 s"
}

# field NAME LINE: the value of NAME=VALUE in a line of such fields.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }
