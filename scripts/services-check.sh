#!/usr/bin/env bash
# services-check.sh — builds and tests every package under Integrations/ and Examples/Gateway,
# then runs the gateway load test (scripts/services/gateway-loadtest.sh), the resilience
# figures (scripts/services/resilience-figures.sh) and the real-time recovery comparison
# (scripts/services/recovery-comparison.sh), each with its self-test where it gates, and last compiles the code listings of the
# Integrations packages' documentation against those builds (scripts/docs/listings.py --package).
#
# The packages share one build folder (SERVICES_SCRATCH, default .build-services): they depend on
# the same swift-nio, swift-log, swift-metrics, async-http-client and SwiftErr, and SwiftPM reuses
# what an earlier package of the folder built, so each dependency is compiled once per run.
# Everything is built in release mode, the tests included: the load test needs a release build,
# and one configuration instead of two halves a cold build (the tests use no @testable import).
#
# It installs wrk (Debian) when missing, as root or through sudo, and prints the seconds each step
# took and the total. It stops at the first failure, with a non-zero status.
#
# Environment: SERVICES_SCRATCH (build folder), SERVICES_LISTINGS=0 (skip the packages' documentation
# listings), SERVICES_LOAD=0 (skip the load test),
# SERVICES_FIGURES=0 (skip the resilience figures; FIGURES_LIMIT_SECONDS, 600, is their limit),
# SERVICES_RECOVERY=0 (skip the real-time recovery comparison, scripts/services/recovery-comparison.sh),
# SERVICES_STEP_LIMIT (900: the seconds one build or test may take before it is tried again),
# LOAD_LIMIT_SECONDS (900: the load test's time limit), and the LOAD_* settings of scripts/services/gateway-loadtest.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=${SERVICES_SCRATCH:-$root/.build-services}
packages=(
    Integrations/SwiftErrObservability
    Integrations/SwiftErrOpenAPI
    Integrations/SwiftErrAsyncHTTPClient
    Examples/Gateway
)

fail() {
    echo "services-check: FAIL: $*" >&2
    exit 1
}

# bounded COMMAND...: runs COMMAND under `timeout` (SERVICES_STEP_LIMIT seconds, 900). SwiftPM was
# seen once sitting idle, using no CPU, with its build folder locked: a run past the limit is
# stopped and tried once more, which also finishes a build that was only slow (the second run
# starts from what the first had built).
step_limit=${SERVICES_STEP_LIMIT:-900}
bounded() {
    local status=0
    timeout "$step_limit" "$@" || status=$?
    if [ "$status" -eq 124 ]; then
        echo "services-check: '$*' ran past $step_limit s; trying once more"
        status=0
        timeout "$step_limit" "$@" || status=$?
    fi
    return "$status"
}

started=$(date +%s)
step_started=$started
step() {
    local now
    now=$(date +%s)
    echo "services-check: $1 took $((now - step_started)) s"
    step_started=$now
}

# wrk and curl drive the load test; install them the way this machine can.
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v curl >/dev/null || missing+=(curl)
if ((${#missing[@]})); then
    if [ "$(id -u)" -eq 0 ]; then
        as_root=()
    elif command -v sudo >/dev/null; then
        as_root=(sudo)
    else
        fail "${missing[*]} missing, and neither root nor sudo to install them (Debian: apt-get install ${missing[*]})"
    fi
    echo "services-check: installing ${missing[*]}"
    "${as_root[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${missing[@]}"
    command -v wrk >/dev/null || fail "wrk is still missing after apt-get install"
    step "installing ${missing[*]}"
fi

echo "== swift format lint: Integrations and Examples/Gateway"
lint_paths=()
for package in "${packages[@]}"; do
    for sub in Sources Tests Package.swift; do
        [ -e "$package/$sub" ] && lint_paths+=("$package/$sub")
    done
done
lint=$(swift format lint -r "${lint_paths[@]}" 2>&1)
if [ -n "$lint" ]; then
    echo "$lint"
    fail "swift format lint found problems"
fi
step "lint"

for package in "${packages[@]}"; do
    [ -f "$package/Package.swift" ] || fail "$package/Package.swift is missing"
    echo "== $package: swift build --build-tests, swift test (release, scratch $scratch)"
    bounded swift build -c release --build-tests --package-path "$package" --scratch-path "$scratch" \
        || fail "$package does not build"
    step "$package: build"
    # No backtrace per thrown error (Swift Testing's default): the over-time tests throw millions.
    bounded env SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0 swift test -c release --skip-build --package-path "$package" \
        --scratch-path "$scratch" \
        || fail "$package: swift test failed"
    step "$package: test"
done

if [ "${SERVICES_LOAD:-1}" != 0 ]; then
    echo "== Examples/Gateway: load test (wrk on 127.0.0.1, classification on and off)"
    # Bounded: the runs take about 2 minutes of wrk; past LOAD_LIMIT_SECONDS (15 minutes, the
    # build of the two executables included, which the steps above have already done) it is
    # stopped, and gateway-loadtest.sh stops the servers it started.
    SCRATCH_PATH=$scratch timeout "${LOAD_LIMIT_SECONDS:-900}" scripts/services/gateway-loadtest.sh \
        || fail "the gateway load test failed (or ran past ${LOAD_LIMIT_SECONDS:-900} s)"
    step "load test"
    # The gate's own test: a classification made dearer by a planted CPU cost must fail it.
    SCRATCH_PATH=$scratch timeout "${LOAD_LIMIT_SECONDS:-900}" scripts/services/gateway-loadtest.sh --self-test \
        || fail "the gateway load test's self-test failed: its cost gate let a planted cost through"
    step "load test: self-test"
fi

if [ "${SERVICES_FIGURES:-1}" != 0 ]; then
    echo "== Examples/Gateway: resilience figures (budget, breaker, throttle against a flaky upstream)"
    SCRATCH_PATH=$scratch timeout "${FIGURES_LIMIT_SECONDS:-600}" scripts/services/resilience-figures.sh \
        || fail "the resilience figures missed their aims (or ran past ${FIGURES_LIMIT_SECONDS:-600} s)"
    step "resilience figures"
fi

if [ "${SERVICES_RECOVERY:-1}" != 0 ]; then
    echo "== Examples/Gateway: recovery after an outage, real time against the simulation (gateway, ResponseClient)"
    SCRATCH_PATH=$scratch timeout "${FIGURES_LIMIT_SECONDS:-600}" scripts/services/recovery-comparison.sh \
        || fail "real-time recovery differs from the simulation's (or ran past ${FIGURES_LIMIT_SECONDS:-600} s)"
    SCRATCH_PATH=$scratch timeout "${FIGURES_LIMIT_SECONDS:-600}" scripts/services/recovery-comparison.sh --self-test \
        || fail "the recovery comparison's self-test failed: it let a client that hides an outage through"
    step "recovery: real time against the simulation"
fi

# The listings of the Integrations packages' READMEs and doc comments (scripts/docs/listings.py,
# docs/listings/README.md): one generated package depending on all of them, compiled against what
# the steps above built in the same folder. Last, because building another root package in the
# folder makes SwiftPM remove the checkouts it does not use (the gateway's), which a later build
# of the gateway would then compile again.
if [ "${SERVICES_LISTINGS:-1}" != 0 ]; then
    echo "== Integrations/*: the code listings of their documentation (release, scratch $scratch)"
    listing_packages=()
    for package in Integrations/*/; do
        listing_packages+=(--package "${package%/}")
    done
    bounded python3 scripts/docs/listings.py "${listing_packages[@]}" --scratch-path "$scratch" -c release \
        || fail "a listing of an Integrations package does not compile (scripts/docs/listings.py ${listing_packages[*]})"
    step "listings"
fi

total=$(($(date +%s) - started))
echo "services-check: PASS in $total s ($((total / 60)) min $((total % 60)) s)"
