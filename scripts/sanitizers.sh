#!/usr/bin/env bash
# sanitizers.sh address|thread — `swift test` under a sanitizer, in a build folder of its own
# (.build-asan, .build-tsan). What each is for, and what it leaves out:
#
# address  Swift is memory-safe but for its unsafe pointers, and the C core runs in every test:
#          every test target runs, so the unsafe-pointer code of each target (the JSON scanner, the
#          envelope, the catalog reader, errcat's chunk reader, parallel classify and merge, the C
#          tables behind Catalog) is exercised under ASan. Left out: the simulated-time scenarios
#          (DefaultsOverTimeTests: millions of requests on one thread, minutes under ASan, through
#          code the pipeline's own tests run), the property test of generated sources (its work is
#          gcc, clang and swiftc compiling errcat's output in other processes; errcat's generators
#          run under ASan in the other gen tests) and the URLSession transport scenarios (Foundation's
#          URLSession in real time; the pipeline under them runs in ResponseClient's loopback tests).
#          LeakSanitizer reports allocations inside XCTest and FoundationEssentials, not ours, so leak
#          detection is off here (the C tests keep it: make test SANITIZE=1). ASan keeps 2 frames of
#          each allocation's stack instead of 30: a report still names the bad access with its whole
#          stack and the allocation's site, and the tests, which allocate a lot, run a quarter faster.
# thread   The code with concurrency: the C core through Swift, the facade, registry, channels,
#          handlers, retry, requests, sessions, protections, stress, and errcat's parallel classify
#          (--jobs) and merge. The simulated-time scenarios run on one thread and are left out.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0
case "${1:-}" in
address)
    ASAN_OPTIONS=detect_leaks=0:malloc_context_size=2 swift test --sanitize=address --scratch-path .build-asan \
        --skip 'DefaultsOverTimeTests|GeneratedSourcePropertyTests|SwiftErrURLSessionTests\.TransportScenario'
    ;;
thread)
    swift test --sanitize=thread --scratch-path .build-tsan --skip DefaultsOverTimeTests \
        --filter "CErrCoreTests|SwiftErrCoreTests|SwiftErrTests|ClassifyJobsTests|MergeTests"
    ;;
*) die "usage: scripts/sanitizers.sh address|thread" ;;
esac
