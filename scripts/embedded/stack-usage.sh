#!/bin/sh
# stack-usage.sh — worst-case stack use of each public C core function on
# a cross target, from the compiler's own numbers (run by `make cross`).
#
# Usage: scripts/embedded/stack-usage.sh DIR
#   DIR/*.su  -fstack-usage reports (one frame size per function)
#   DIR/*.o   the objects, whose call relocations give the call graph
#
# For every public errcore_* function prints its own frame and the deepest
# chain of frames through the core's functions it can call (a tail call is
# counted as a call, so this is an upper bound). Calls that leave the core
# (memcpy, strlen, compiler helpers) are listed: their stack is the C
# runtime's and is not included. Exits 1 if a frame is dynamic, if the call
# graph has a cycle (the core has no recursion), or if a called core
# function has no frame size.
#
# Environment: OBJDUMP (default llvm-objdump).
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 DIR" >&2
    exit 2
fi
dir=$1
OBJDUMP=${OBJDUMP:-llvm-objdump}

sus=$(ls "$dir"/*.su 2>/dev/null || true)
objs=$(ls "$dir"/*.o 2>/dev/null || true)
if [ -z "$sus" ] || [ -z "$objs" ]; then
    echo "error: no .su or .o files in $dir" >&2
    exit 1
fi

{
    for su in $sus; do
        awk -F '\t' '{ n = split($1, p, ":"); print "FRAME", p[n], $2, $3 }' "$su"
    done
    "$OBJDUMP" -dr --no-show-raw-insn $objs | awk '
        /^[0-9a-f]+ <[^>]+>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
        /R_(ARM_THM_CALL|ARM_THM_JUMP24|ARM_THM_JUMP19|ARM_CALL|ARM_JUMP24|RISCV_CALL|RISCV_CALL_PLT)[ \t]/ {
            target = $NF
            sub(/\+0x[0-9a-f]+$/, "", target)
            if (fn != "" && target !~ /^\./ && target != fn) print "CALL", fn, target
        }'
} | awk '
    $1 == "FRAME" { frame[$2] = $3; kind[$2] = $4; next }
    $1 == "CALL"  { key = $2 SUBSEP $3; if (!(key in seen)) { seen[key] = 1; calls[$2] = calls[$2] " " $3 } }

    # Deepest stack from f down; ext[f] collects the external calls below f.
    function depth(f,    n, i, list, d, best, c) {
        if (f in memo) return memo[f]
        if (onpath[f]) { cycle = cycle " " f; return 0 }
        onpath[f] = 1
        best = 0
        ext[f] = ""
        n = split(calls[f], list, " ")
        for (i = 1; i <= n; i++) {
            c = list[i]
            if (!(c in frame)) { ext[f] = ext[f] " " c; continue }
            d = depth(c)
            ext[f] = ext[f] " " ext[c]
            if (d > best) best = d
        }
        onpath[f] = 0
        memo[f] = frame[f] + best
        return memo[f]
    }

    END {
        status = 0
        printf "%-28s %7s %9s  %s\n", "function", "frame", "worst", "calls outside the core (not counted)"
        count = 0
        for (f in frame) if (f ~ /^errcore_/ && f !~ /^errcore__/) names[++count] = f
        # sort by name (insertion sort; a few dozen names)
        for (i = 2; i <= count; i++) {
            v = names[i]; j = i - 1
            while (j > 0 && names[j] > v) { names[j + 1] = names[j]; j-- }
            names[j + 1] = v
        }
        for (i = 1; i <= count; i++) {
            root = names[i]
            d = depth(root)
            # unique external names
            m = split(ext[root], e, " "); out = ""; split("", u)
            for (k = 1; k <= m; k++) if (!(e[k] in u)) { u[e[k]] = 1; out = out " " e[k] }
            printf "%-28s %7d %9d  %s\n", root, frame[root], d, (out == "" ? "-" : substr(out, 2))
        }
        for (f in kind) if (kind[f] !~ /^static/) {
            print "error: " f " has a " kind[f] " stack frame" > "/dev/stderr"
            status = 1
        }
        if (cycle != "") { print "error: recursion through" cycle > "/dev/stderr"; status = 1 }
        exit status
    }'
