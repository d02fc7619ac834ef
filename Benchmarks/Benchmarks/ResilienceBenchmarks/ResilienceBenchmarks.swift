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
// - ClientRequest_withoutProtection / ClientRequest_withProtection: one ResponseClient request
//   through all its stages over an in-process transport that answers at once (the request and the
//   body of SessionBenchmarks' ClientRequest_*), without protections and with UpstreamProtections
//   (all three parts, their defaults): what protecting its upstream adds to a whole request. One
//   sample is one request.
// - ProtectionLookup: what the client does once per request to find its upstream's protection:
//   UpstreamProtections.protection(for:) of the request's URL (its host and port read from the URL,
//   one dictionary lookup under a lock). 1,000 lookups per sample, figures per lookup with --scale.
//
//   cd Benchmarks && swift package benchmark --target ResilienceBenchmarks
//   swift package benchmark thresholds check --metric mallocCountTotal

import Benchmark
import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Synchronization

/// Answers every request with the same small success envelope, in process.
struct StubTransport: HTTPTransport {
    let response = TransportResponse(
        statusCode: 200,
        body: Data(#"{"ret":0,"msg":"OK","data":{"id":42,"name":"Grade 3 maths","members":31,"open":true}}"#.utf8))

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        response
    }
}

/// The payload of the stub's answer.
struct ClassInfo: Decodable, Sendable {
    var id: Int
    var name: String
    var members: Int
    var open: Bool
}

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

    let request = TransportRequest(url: URL(string: "http://in-process/class/c-1")!)
    let unprotected = ResponseClient(transport: StubTransport())
    // The default capacity, 64, is valid: this cannot throw.
    let protected = ResponseClient(transport: StubTransport(), protections: try! UpstreamProtections())
    let requestConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .nanoseconds, maxDuration: .seconds(2),
        maxIterations: 100_000)
    Benchmark("ClientRequest_withoutProtection", configuration: requestConfiguration) { _ in
        blackHole(try? await unprotected.send(request, returning: ClassInfo.self, module: StudyGroupCode.self))
    }
    Benchmark("ClientRequest_withProtection", configuration: requestConfiguration) { _ in
        blackHole(try? await protected.send(request, returning: ClassInfo.self, module: StudyGroupCode.self))
    }

    Benchmark("ProtectionLookup", configuration: decisionConfiguration()) { benchmark in
        // The default capacity, 64, is valid: this cannot throw.
        let protections = try! UpstreamProtections()
        let url = request.url
        blackHole(protections.protection(for: url))
        benchmark.startMeasurement()
        for _ in 0..<decisions { blackHole(protections.protection(for: url)) }
        benchmark.stopMeasurement()
    }

    Benchmark("ProtectionDecision_failing", configuration: decisionConfiguration()) { benchmark in
        let protection = UpstreamProtection()
        benchmark.startMeasurement()
        for index in 0..<decisions { decide(protection, index % 20 == 0 ? .failure(.transport) : .answer) }
        benchmark.stopMeasurement()
        blackHole(protection)
    }
}
