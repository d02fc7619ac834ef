// ResilienceBenchmarks — what UpstreamProtection costs a request: one admit and one record with the
// retry budget, the circuit breaker and the adaptive throttle all on (their documented defaults),
// on the default clock. One measured sample is 1,000 decisions; with --scale the figures are per
// decision.
//
// - ProtectionDecision_single: one thread.
// - ProtectionDecision_contended: the same, while a second thread makes decisions on the same
//   protection without pause (two threads contending for its lock).
// - ProtectionDecision_failing: one thread, one attempt in 20 failing, so the breaker's window and
//   the throttle's probability are read on the failure path (5 % stays under the breaker's 10 %).
//
//   cd Benchmarks && swift package benchmark --target ResilienceBenchmarks
//   swift package benchmark thresholds check --metric mallocCountTotal

import Benchmark
import Foundation
import SwiftErr
import Synchronization

/// Decisions per measured sample.
let decisions = 1_000

func decisionConfiguration() -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 5_000
    )
}

/// One request's decision: admit, then record the outcome.
@inline(__always)
func decide(_ protection: UpstreamProtection, _ outcome: UpstreamOutcome) {
    do {
        let permit = try protection.admit()
        protection.record(outcome, for: permit)
    } catch {
        blackHole(error)
    }
}

/// A thread that makes decisions on a protection until stopped.
final class Contender: Sendable {
    let running = Atomic<Bool>(true)
    let started = Atomic<Bool>(false)

    init(_ protection: UpstreamProtection) {
        let thread = Thread { [self] in
            started.store(true, ordering: .releasing)
            while running.load(ordering: .relaxed) { decide(protection, .success) }
        }
        thread.start()
        while !started.load(ordering: .acquiring) {}
    }

    func stop() {
        running.store(false, ordering: .relaxed)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark("ProtectionDecision_single", configuration: decisionConfiguration()) { benchmark in
        let protection = UpstreamProtection()
        decide(protection, .success)
        benchmark.startMeasurement()
        for _ in 0..<decisions { decide(protection, .success) }
        benchmark.stopMeasurement()
        blackHole(protection)
    }

    Benchmark("ProtectionDecision_contended", configuration: decisionConfiguration()) { benchmark in
        let protection = UpstreamProtection()
        let contender = Contender(protection)
        benchmark.startMeasurement()
        for _ in 0..<decisions { decide(protection, .success) }
        benchmark.stopMeasurement()
        contender.stop()
    }

    Benchmark("ProtectionDecision_failing", configuration: decisionConfiguration()) { benchmark in
        let protection = UpstreamProtection()
        benchmark.startMeasurement()
        for index in 0..<decisions { decide(protection, index % 20 == 0 ? .failure(.transport) : .answer) }
        benchmark.stopMeasurement()
        blackHole(protection)
    }
}
