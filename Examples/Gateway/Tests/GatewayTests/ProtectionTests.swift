import Foundation
import GatewayKit
import SwiftErr
import SwiftErrTesting
import Synchronization
import Testing

/// A flag a test flips while the upstream's handler reads it.
final class Flag: Sendable {
    private let value: Atomic<Bool>

    init(_ value: Bool) { self.value = Atomic(value) }

    var isSet: Bool { value.load(ordering: .relaxed) }

    func set(_ newValue: Bool) { value.store(newValue, ordering: .relaxed) }
}

/// The gateway's retry budget, circuit breaker and throttle against a real upstream on 127.0.0.1,
/// with bounded loops: what reaches the upstream, what is answered, and what `/metrics` shows.
@Suite("Gateway: per-upstream budget, breaker and throttle", .timeLimit(.minutes(2)))
struct ProtectionTests {
    /// The value of the one series of `name` whose labels include every `labels` pair.
    static func value(_ metrics: [String: Double], _ name: String, _ labels: [String: String] = [:]) -> Double? {
        metrics.first { key, _ in
            (key == name || key.hasPrefix(name + "{"))
                && labels.allSatisfy { key.contains("\($0.key)=\"\($0.value)\"") }
        }?.value
    }

    @Test("the breaker opens on failures: 503 with Retry-After at once, the upstream untouched; a probe closes it")
    func breakerOpensAndRecovers() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let down = Flag(true)
        server.route("/api/item") { _ in down.isSet ? .status(503) : .envelope(0) }
        let breaker = try CircuitBreaker(
            failureRatio: 0.5, minimumThroughput: 10, samplingDuration: .seconds(10), breakDuration: .seconds(1))
        try await GatewayHarness.run(upstream: "http://127.0.0.1:\(server.port)") { configuration in
            configuration.retryPolicy = .never
            configuration.circuitBreaker = breaker
        } _: { harness in
            for _ in 0..<10 { #expect(try await harness.send("/api/item").status == 503) }
            #expect(harness.gateway.protection?.circuitState == .open)
            let reached = server.requests("/api/item").count
            #expect(reached == 10)
            let start = ContinuousClock.now
            let shed = try await harness.send("/api/item")
            let elapsed = ContinuousClock.now - start
            #expect(shed.status == 503)
            #expect(shed.header("Retry-After") == "1")
            #expect(shed.body.contains("circuit_open"))
            #expect(elapsed < .milliseconds(500), "shed after \(elapsed)")
            #expect(server.requests("/api/item").count == reached, "the upstream saw nothing")
            let upstream = "127.0.0.1:\(server.port)"
            let open = try await harness.metrics()
            #expect(Self.value(open, "swifterr_circuit_state", ["upstream": upstream, "state": "open"]) == 1)
            #expect(Self.value(open, "swifterr_circuit_state", ["upstream": upstream, "state": "closed"]) == 0)
            #expect(Self.value(open, "swifterr_circuit_transitions_total", ["from": "closed", "to": "open"]) == 1)
            #expect(Self.value(open, "swifterr_shed_requests_total", ["reason": "circuit_open"]) == 1)
            // Back after the break: the first request is the probe, and it closes the circuit.
            down.set(false)
            try await Task.sleep(for: .milliseconds(1_100))
            #expect(try await harness.send("/api/item").status == 200)
            #expect(harness.gateway.protection?.circuitState == .closed)
            let closed = try await harness.metrics()
            #expect(Self.value(closed, "swifterr_circuit_state", ["state": "closed"]) == 1)
            #expect(
                Self.value(closed, "swifterr_circuit_transitions_total", ["from": "half_open", "to": "closed"]) == 1)
        }
    }

    @Test(
        "an upstream answering business codes 100 % of the time: the breaker stays closed, nothing is shed or retried")
    func businessAnswers() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/join", [.envelope(11_210_005, message: "wrong team code")])
        let breaker = try CircuitBreaker(failureRatio: 0.1, minimumThroughput: 10)
        try await GatewayHarness.run(upstream: "http://127.0.0.1:\(server.port)") { configuration in
            configuration.circuitBreaker = breaker
        } _: { harness in
            for _ in 0..<150 {
                let answer = try await harness.send("/api/join")
                #expect(answer.status == 200)
                #expect(answer.body.contains("11210005"))
            }
            #expect(server.requests("/api/join").count == 150)
            #expect(harness.gateway.protection?.circuitState == .closed)
            let metrics = try await harness.metrics()
            #expect(Self.value(metrics, "swifterr_circuit_state", ["state": "closed"]) == 1)
            #expect(GatewayTests.total(metrics, "swifterr_shed_requests_total") == 0)
            #expect(GatewayTests.total(metrics, "swifterr_retries_total") == 0)
            #expect(
                metrics[#"swifterr_codes_total{tier="module",module="studyGroup",name="wrongTeamCode"}"#] == 150)
        }
    }

    /// Sends 100 GETs to an upstream that drops every other connection without answering, and
    /// returns the requests that reached it per client request.
    static func attemptsPerRequest(budget: RetryBudget?) async throws -> (Double, [String: Double]) {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/flaky") { request in request.index % 2 == 0 ? .close : .envelope(0) }
        var result: (Double, [String: Double]) = (0, [:])
        try await GatewayHarness.run(upstream: "http://127.0.0.1:\(server.port)") { configuration in
            configuration.retryBudget = budget
            configuration.circuitBreaker = nil
            configuration.throttle = nil
        } _: { harness in
            for _ in 0..<100 { _ = try await harness.send("/api/flaky") }
            result = (Double(server.requests("/api/flaky").count) / 100, try await harness.metrics())
        }
        return result
    }

    @Test(
        "half the upstream's answers lost: the budget keeps requests reaching it per client request ≤ 1.2; without it, 2"
    )
    func retryBudget() async throws {
        let (with, metrics) = try await Self.attemptsPerRequest(budget: .default)
        #expect(with <= 1.2, "\(with) upstream requests per client request")
        #expect((GatewayTests.total(metrics, "swifterr_retry_budget_exhausted_total")) > 0)
        let (without, _) = try await Self.attemptsPerRequest(budget: nil)
        #expect(without == 2, "each failed first attempt is retried once, and the retry gets an answer")
    }
}
