# scripts/lib.sh — what the CI stages (.ci/run) and their scripts share. Source it from bash:
#
#   . "$(dirname "$0")/lib.sh"          (a script in scripts/; ../lib.sh one folder down)
#
# It sets `set -euo pipefail`, $root (the repository, absolute) and makes it the working folder,
# and defines:
#
#   die MESSAGE...             "<script>: FAIL: MESSAGE" on standard error, exit 1
#   need_debian CMD[=PKG]...   installs, from Debian, the package of each command (or file, when
#                              CMD starts with /) that is missing: as root, or through sudo
#   step LABEL                 "<script>: LABEL took N s", N the seconds since the last step
#   bounded SECONDS CMD...     CMD under `timeout`; one that runs past is stopped and run once more
#                              (SwiftPM has been seen idle with its build folder locked; a second
#                              run also finishes a build that was only slow)
#   gateway_bin PRODUCT...     the release build folder of Examples/Gateway in .build-services, with
#                              PRODUCT... built: by one `swift build` of the whole package, and only
#                              when one is missing or older than a source it is built from (a
#                              SwiftPM run costs the gateway's package 20 s even when nothing is to do)
#   build_compare              builds Benchmarks' `compare` in release, in .build-services (the
#                              service stages' folder, which holds SwiftErr's release build); prints
#                              its path
#   servers_begin LABEL        $work, a new folder for the logs of servers started with `start`;
#                              on exit, every process in $pids and $wrk_pids is stopped, and $work
#                              removed after a success or named after a failure
#   start NAME CMD...          CMD in the background (output in $work/NAME.out and .err); waits
#                              for its "listening on HOST:PORT" line; sets $port and $pid
#   field NAME LINE            the value of NAME=VALUE in a line of such fields
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
script_name=$(basename "$0" .sh)

die() {
    echo "$script_name: FAIL: $*" >&2
    exit 1
}

need_debian() {
    local wanted=() item cmd pkg
    for item in "$@"; do
        cmd=${item%%=*}
        pkg=${item#*=}
        if [[ $cmd == /* ]]; then
            [ -e "$cmd" ] && continue
        else
            command -v "$cmd" >/dev/null && continue
        fi
        wanted+=("$pkg")
    done
    ((${#wanted[@]})) || return 0
    local as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "missing: ${wanted[*]}; neither root nor sudo to install them (Debian: apt-get install ${wanted[*]})"
        as_root=(sudo)
    fi
    echo "$script_name: installing ${wanted[*]} (Debian)"
    "${as_root[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${wanted[@]}" >/dev/null
}

step_started=$(date +%s)
step() {
    local now
    now=$(date +%s)
    echo "$script_name: $1 took $((now - step_started)) s"
    step_started=$now
}

bounded() {
    local limit=$1 status=0
    shift
    timeout "$limit" "$@" || status=$?
    if [ "$status" -eq 124 ]; then
        echo "$script_name: '$*' ran past $limit s; trying once more"
        status=0
        timeout "$limit" "$@" || status=$?
    fi
    return "$status"
}

gateway_bin() {
    local bin=$root/.build-services/release product stale=false
    for product in "$@"; do
        [ -x "$bin/$product" ] && [ -z "$(find "$root/Sources" "$root/Integrations" "$root/Examples/Gateway" \
            -newer "$bin/$product" \( -name '*.swift' -o -name '*.[ch]' -o -name Package.swift \) -print -quit)" ] ||
            stale=true
    done
    if $stale; then
        swift build -c release --package-path "$root/Examples/Gateway" --scratch-path "$root/.build-services" >&2 ||
            return 1
    fi
    echo "$bin"
}

build_compare() {
    local where=(--package-path "$root/Benchmarks" --scratch-path "$root/.build-services" -c release)
    swift build "${where[@]}" --product compare >&2 && echo "$(swift build "${where[@]}" --show-bin-path)/compare"
}

servers_begin() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    pids=()
    wrk_pids=()
    trap servers_end EXIT
    trap 'die "interrupted"' INT TERM
}

servers_end() {
    local status=$?
    trap - EXIT INT TERM
    for pid in "${wrk_pids[@]}" "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${wrk_pids[@]}" "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ "$status" -eq 0 ]; then
        rm -rf "$work"
    else
        echo "$script_name: logs kept in $work" >&2
    fi
    exit "$status"
}

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
            die "$name exited before it listened"
        fi
        sleep 0.1
    done
    die "$name did not listen within 20 s"
}

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }
