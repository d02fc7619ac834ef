#!/usr/bin/env bash
# services-check.sh — every package under Integrations/ and Examples/Gateway built and tested, in
# release mode, in one build folder (.build-services): they depend on the same swift-nio,
# swift-log, swift-metrics, async-http-client and SwiftErr, and SwiftPM reuses what an earlier
# package of the folder built, so each dependency is compiled once. Release, tests included: the
# gateway's load test, resilience figures and recovery comparison (the stages after this one) need
# release builds, and one configuration instead of two halves a cold build (the tests use no
# @testable import). A build or test run past 15 minutes is stopped and run once more (SwiftPM has
# been seen idle with its build folder locked). Prints the seconds of each step.
. "$(dirname "$0")/lib.sh"
scratch=$root/.build-services
for package in Integrations/SwiftErrObservability Integrations/SwiftErrOpenAPI \
    Integrations/SwiftErrAsyncHTTPClient Examples/Gateway; do
    echo "== $package: swift build --build-tests, swift test (release, scratch $scratch)"
    bounded 900 swift build -c release --build-tests --package-path "$package" --scratch-path "$scratch" ||
        die "$package does not build"
    step "$package: build"
    # No backtrace per thrown error (Swift Testing's default): the over-time tests throw millions.
    bounded 900 env SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0 swift test -c release --skip-build \
        --package-path "$package" --scratch-path "$scratch" || die "$package: swift test failed"
    step "$package: test"
done
