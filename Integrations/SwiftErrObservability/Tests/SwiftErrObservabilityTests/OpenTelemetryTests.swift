import Foundation
import InMemoryTracing
import MetricsTestKit
import SwiftErrDefaultCatalog
import SwiftErrObservability
import SwiftErrTesting
import SwiftErrURLSession
import Testing
import Tracing

/// OpenTelemetry's semantic conventions: a bounded `error.type`, not set on success; one
/// `http.client.request.duration` per attempt and `http.request.resend_count` on resends; the
/// operation's duration apart, whose `error.type` ignores failures that a retry made good.
@Suite("OpenTelemetry conventions: error.type, resend count, attempt and operation durations", .timeLimit(.minutes(1)))
struct OpenTelemetryTests {
    static let observer = ClassificationObserver(
        catalog: .builtIn, factory: TestMetrics(), configuration: .init(failureLogLevel: nil))

    @Test(
        "error.type: <module>.<name> for catalog codes, the tier otherwise, kinds for the rest, one fallback",
        arguments: [
            (ModuleRespError<StudyGroupCode>.module(.wrongTeamCode), "studyGroup.wrongTeamCode"),
            (.base(.tokenExpire), "base.tokenExpire"),
            (.module(.unrecognised(11_219_999)), "studyGroup.unrecognised"),
            (.unexpectedCode(11_160_003), "tag.alreadyExistsTagName"),
            (.unexpectedCode(99_999_999), "unknown"),
            (.unacceptableStatus(503), "503"),
            (.unacceptableStatus(700), "_OTHER"),
            (.transportFailed(underlying: POSIXError(.ECONNREFUSED)), "transport"),
            (.transportFailed(underlying: URLError(.timedOut)), "timeout"),
            (.transportFailed(underlying: ResponseBodyTooLargeError(limit: 1, contentLength: 2)), "body_too_large"),
            (
                .transportFailed(underlying: UpstreamRefusal(reason: .circuitOpen, retryAfter: .seconds(1))),
                "circuit_open"
            ),
            (.invalidEnvelope(EnvelopeError(reason: .missingCode, offset: 0)), "invalid_envelope"),
            (.cancelled, "cancelled"),
            (.refused(UpstreamRefusal(reason: .throttled, retryAfter: .seconds(6))), "throttled"),
            (.refused(UpstreamRefusal(reason: .circuitHalfOpen, retryAfter: nil)), "circuit_half_open"),
            (.reauthenticationFailed(ReauthenticationError(reason: .refreshFailed)), "reauthentication_failed"),
        ])
    func errorType(error: ModuleRespError<StudyGroupCode>, expected: String) {
        #expect(ErrorType.value(for: error, labelsFrom: Self.observer) == expected)
    }

    @Test("10,000 distinct codes outside the catalog give one error.type")
    func errorTypeIsBounded() {
        var values = Set<String>()
        for code in Int64(50_000_000)..<50_010_000 {
            values.insert(
                ErrorType.value(for: ModuleRespError<StudyGroupCode>.unexpectedCode(code), labelsFrom: Self.observer))
        }
        #expect(values == ["unknown"])
    }

    @Test("each attempt: its duration in seconds with method, status and error.type; a resend carries its count")
    func attempts() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/flaky", [.status(500), .json(#"{"ret":0,"data":{"classId":"c"}}"#)])
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let observer = ClassificationObserver(
            catalog: .builtIn, factory: metrics, configuration: .init(failureLogLevel: nil))
        let transport = ObservingTransport(
            base: URLSessionTransport(session: URLSession(configuration: .ephemeral)), observer: observer,
            tracer: tracer, factory: metrics)
        let request = TransportRequest(url: server.url("/flaky"))
        let first = try await transport.send(request)
        let second = try await TransportAttempt.$current.withValue(2) { try await transport.send(request) }
        #expect(first.statusCode == 500)
        #expect(second.statusCode == 200)
        let spans = tracer.finishedSpans
        #expect(spans.count == 2)
        #expect(spans[0].attributes.get("error.type") == .string("500"))
        #expect(spans[0].attributes.get("http.request.resend_count") == nil)
        #expect(spans[1].attributes.get("error.type") == nil, "not set on success")
        #expect(spans[1].attributes.get("http.request.resend_count") == .int64(1))
        #expect(spans.allSatisfy { $0.attributes.get("http.request.method") == .string("GET") })
        let failed = try metrics.expectTimer(
            ObservingTransport.durationLabel,
            [("http.request.method", "GET"), ("http.response.status_code", "500"), ("error.type", "500")])
        let succeeded = try metrics.expectTimer(
            ObservingTransport.durationLabel, [("http.request.method", "GET"), ("http.response.status_code", "200")])
        #expect(failed.values.count == 1)
        #expect(succeeded.values.count == 1)
        #expect(succeeded.displayUnit == .seconds)
    }

    @Test("no answer: error.type is the kind of failure, and the attempt is still timed")
    func noAnswer() async throws {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let transport = ObservingTransport(
            base: URLSessionTransport(session: URLSession(configuration: .ephemeral)),
            observer: ClassificationObserver(
                catalog: .builtIn, factory: metrics, configuration: .init(failureLogLevel: nil)),
            tracer: tracer, factory: metrics)
        await #expect(throws: (any Error).self) {
            _ = try await transport.send(TransportRequest(url: try LoopbackHTTPServer.refusingURL("/x")))
        }
        let type = tracer.finishedSpans.first?.attributes.get("error.type")
        #expect(type == .string("transport") || type == .string("timeout"))
        #expect(metrics.timers.filter { $0.label == ObservingTransport.durationLabel }.count == 1)
    }

    @Test("the operation: a failure retried into a success records no error; a final failure records its error.type")
    func operation() throws {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let operations = OperationObserver(observer: Self.observer, factory: metrics)
        let retried = tracer.startAnySpan("retried", context: .topLevel)
        operations.record(nil as ModuleRespError<StudyGroupCode>?, attempts: 2, since: .now, span: retried)
        retried.end()
        let failed = tracer.startAnySpan("failed", context: .topLevel)
        operations.record(
            ModuleRespError<StudyGroupCode>.module(.wrongTeamCode), attempts: 1, since: .now, span: failed)
        failed.end()
        let spans = tracer.finishedSpans
        #expect(spans[0].attributes.get("error.type") == nil)
        #expect(spans[0].attributes.get("http.request.resend_count") == .int64(1))
        #expect(spans[1].attributes.get("error.type") == .string("studyGroup.wrongTeamCode"))
        #expect(try metrics.expectTimer(OperationObserver.durationLabel).values.count == 1)
        #expect(
            try metrics.expectTimer(OperationObserver.durationLabel, [("error.type", "studyGroup.wrongTeamCode")])
                .values.count == 1)
        #expect(metrics.timers.filter { $0.label == OperationObserver.durationLabel }.count == 2)
    }

    @Test("as a ResponseClient's observer: one operation per request; its attempts apart, each resend counted")
    func clientOperations() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/flaky", [.status(500), .json(#"{"ret":0,"data":{"classId":"c"}}"#)])
        server.route("/answer", [.json(#"{"ret":11210005,"msg":"wrong team code"}"#)])
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let observer = ClassificationObserver(
            catalog: .builtIn, factory: metrics, configuration: .init(failureLogLevel: nil))
        let transport = ObservingTransport(
            base: URLSessionTransport(session: URLSession(configuration: .ephemeral)), observer: observer,
            tracer: tracer, factory: metrics)
        let protections = try UpstreamProtections(clock: ManualClock())
        let client = ResponseClient(
            transport: transport, policy: RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(1)),
            protections: protections, observer: OperationObserver(observer: observer, factory: metrics))
        struct Item: Decodable { let classId: String }
        _ = try await client.send(
            TransportRequest(url: server.url("/flaky")), returning: Item.self, module: StudyGroupCode.self)
        // The client numbers its sends: the retry's span carries its resend count.
        let spans = tracer.finishedSpans
        #expect(spans.map { $0.attributes.get("http.request.resend_count") } == [nil, .int64(1)])
        #expect(spans[0].attributes.get("error.type") == .string("500"))
        #expect(metrics.timers.filter { $0.label == ObservingTransport.durationLabel }.count == 2)
        // One operation, a success: the failed attempt is not its error.
        #expect(try metrics.expectTimer(OperationObserver.durationLabel).values.count == 1)
        #expect(metrics.timers.filter { $0.label == OperationObserver.durationLabel }.count == 1)
        // A business answer is the operation's error, with its code's error.type.
        _ = await client.result(
            TransportRequest(url: server.url("/answer")), returning: Item.self, module: StudyGroupCode.self)
        #expect(
            try metrics.expectTimer(OperationObserver.durationLabel, [("error.type", "studyGroup.wrongTeamCode")])
                .values.count == 1)
        // A refused request: an operation with the refusal's reason, and no attempt at all.
        protections.protection(for: server.url("/flaky"))?.isolate()
        let refused = await client.result(
            TransportRequest(url: server.url("/flaky")), returning: Item.self, module: StudyGroupCode.self)
        guard case .failure(let error) = refused else {
            Issue.record("expected a refusal")
            return
        }
        #expect(error.refusal?.reason == .circuitIsolated)
        #expect(
            try metrics.expectTimer(OperationObserver.durationLabel, [("error.type", "circuit_isolated")])
                .values.count == 1)
        #expect(tracer.finishedSpans.count == 3, "two attempts of the first request, one of the second")
        #expect(server.requests().count == 3)
    }

    @Test("the protection's series: state gauges, transitions, shed requests, budget exhaustion, retries")
    func protectionMetrics() throws {
        let metrics = TestMetrics()
        let series = UpstreamProtectionMetrics(upstream: "orders", factory: metrics)
        let state: (CircuitState) throws -> Double? = { state in
            try metrics.expectGauge("swifterr_circuit_state", [("upstream", "orders"), ("state", state.rawValue)])
                .lastValue
        }
        #expect(try state(.closed) == 1)
        #expect(try state(.open) == 0)
        series.record(CircuitTransition(from: .closed, to: .open))
        #expect(try state(.open) == 1)
        #expect(try state(.closed) == 0)
        series.record(UpstreamRefusal(reason: .circuitOpen, retryAfter: .seconds(2)))
        series.record(UpstreamRefusal(reason: .throttled, retryAfter: nil))
        series.record(UpstreamRefusal(reason: .retryBudgetExhausted, retryAfter: nil))
        #expect(
            metrics.counterTotal(
                label: "swifterr_circuit_transitions_total",
                dimensions: [("upstream", "orders"), ("from", "closed"), ("to", "open")]) == 1)
        #expect(metrics.counterTotal(label: "swifterr_shed_requests_total") == 2)
        #expect(
            metrics.counterTotal(
                label: "swifterr_shed_requests_total", dimensions: [("upstream", "orders"), ("reason", "throttled")])
                == 1)
        #expect(metrics.counterTotal(label: "swifterr_retry_budget_exhausted_total") == 1)
        let protection = UpstreamProtection(circuitBreaker: nil, throttle: nil, clock: ManualClock())
        series.recordAttempt(try protection.admit(isRetry: true))
        series.recordAttempt(try protection.admit())
        #expect(metrics.counterTotal(label: "swifterr_retries_total") == 1)
    }
}
