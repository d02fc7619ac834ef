import Foundation
import InMemoryTracing
import MetricsTestKit
import SwiftErrDefaultCatalog
import SwiftErrObservability
import SwiftErrTesting
import SwiftErrURLSession
import Testing
import Tracing

/// ResponseClient over an ObservingTransport over URLSession, against a real HTTP server on
/// 127.0.0.1 (`LoopbackHTTPServer`).
@Suite("ObservingTransport: every attempt's answer counted and traced, the pipeline unchanged", .timeLimit(.minutes(1)))
struct ObservingTransportTests {
    struct ClassItem: Decodable, Equatable, Sendable {
        let classId: String
    }

    struct Setup {
        let server: LoopbackHTTPServer
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let client: ResponseClient

        init(policy: RetryPolicy) throws {
            server = try LoopbackHTTPServer()
            let observer = ClassificationObserver(
                catalog: .builtIn, factory: metrics, configuration: .init(failureLogLevel: nil))
            let transport = ObservingTransport(
                base: URLSessionTransport(session: URLSession(configuration: .ephemeral)), observer: observer,
                tracer: tracer)
            client = ResponseClient(transport: transport, policy: policy)
        }

        func result(_ path: String) async -> Result<ClassItem, ModuleRespError<StudyGroupCode>> {
            await client.result(
                TransportRequest(url: server.url(path)), returning: ClassItem.self, module: StudyGroupCode.self)
        }
    }

    @Test("a success, a module code and a 503: two classified, three client spans with their status")
    func oneSpanPerAttempt() async throws {
        let setup = try Setup(policy: .never)
        defer { setup.server.stop() }
        setup.server.route("/ok", [.json(#"{"ret":0,"msg":"ok","data":{"classId":"c-1"}}"#)])
        setup.server.route("/team", [.json(#"{"ret":11210005,"msg":"班级码错误"}"#)])
        setup.server.route("/busy", [LoopbackHTTPServer.Reply(status: 503)])

        #expect(try await setup.result("/ok").get() == ClassItem(classId: "c-1"))
        guard case .failure(let team) = await setup.result("/team") else {
            Issue.record("expected a failure")
            return
        }
        #expect(team.moduleCode == .wrongTeamCode)
        guard case .failure(let busy) = await setup.result("/busy") else {
            Issue.record("expected a failure")
            return
        }
        #expect(busy.statusCode == 503)

        #expect(setup.metrics.counterTotal(label: "swifterr_responses_total") == 2)
        #expect(setup.metrics.counterTotal(label: "swifterr_responses_total", dimensions: [("tier", "module")]) == 1)
        let spans = setup.tracer.finishedSpans
        #expect(spans.count == 3)
        #expect(spans.allSatisfy { $0.kind == .client && $0.operationName == "HTTP GET" })
        #expect(
            spans.map { $0.attributes.get("http.response.status_code") } == [.int64(200), .int64(200), .int64(503)])
        #expect(spans[1].attributes.get("swifterr.name") == .string("wrongTeamCode"))
        #expect(spans[2].attributes.get("swifterr.tier") == nil)
    }

    @Test("each attempt is a span of its own: 500 twice, then success, classified once")
    func retriesTraced() async throws {
        let setup = try Setup(
            policy: RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(20)))
        defer { setup.server.stop() }
        setup.server.route(
            "/flaky",
            [
                LoopbackHTTPServer.Reply(status: 500), LoopbackHTTPServer.Reply(status: 500),
                .json(#"{"ret":0,"data":{"classId":"c-2"}}"#),
            ])
        #expect(try await setup.result("/flaky").get() == ClassItem(classId: "c-2"))
        #expect(setup.server.requests().map(\.path) == ["/flaky", "/flaky", "/flaky"])
        #expect(setup.metrics.counterTotal(label: "swifterr_responses_total") == 1)
        #expect(setup.metrics.counterTotal(label: "swifterr_responses_total", dimensions: [("tier", "success")]) == 1)
        let spans = setup.tracer.finishedSpans
        #expect(
            spans.map { $0.attributes.get("http.response.status_code") } == [.int64(500), .int64(500), .int64(200)])
        #expect(spans.map { $0.attributes.get("swifterr.tier") } == [nil, nil, .string("success")])
    }

    @Test("a base code is final: one attempt, one classification, one span")
    func baseCodeOnce() async throws {
        let setup = try Setup(
            policy: RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(20)))
        defer { setup.server.stop() }
        setup.server.route("/always", [.json(#"{"ret":11001,"msg":"token expire"}"#)])
        guard case .failure(let error) = await setup.result("/always") else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.baseCode == .tokenExpire)
        #expect(setup.server.requests().map(\.path) == ["/always"])
        #expect(setup.metrics.counterTotal(label: "swifterr_responses_total", dimensions: [("tier", "base")]) == 1)
        #expect(setup.tracer.finishedSpans.count == 1)
    }
}
