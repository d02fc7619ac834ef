import AsyncHTTPClient
import Foundation
import SwiftErr
import SwiftErrAsyncHTTPClient
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

/// A ``SwiftErr/ResponseClient`` on async-http-client with ``SwiftErr/UpstreamProtections``,
/// against real HTTP servers on 127.0.0.1: the mechanism is the client's, whatever the transport;
/// these tests check it end to end over this one. The server counts what reaches it; every
/// protection runs on a manual clock.
@Suite("ResponseClient on async-http-client: upstream protection against a loopback server", .timeLimit(.minutes(2)))
struct ProtectionTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    struct ClassItem: Decodable, Equatable, Sendable {
        let classId: String
    }

    /// 50 % failures over at least 5 outcomes, breaks of 60 s.
    static func breaker() throws -> CircuitBreaker {
        try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 5, breakDuration: .seconds(60))
    }

    /// Runs `body` with an `HTTPClient` of its own that does not retry failed connections (so a
    /// refused connection fails the send at once, as the gateway configures it), shut down after.
    static func withClient(_ body: (AsyncHTTPClientTransport) async throws -> Void) async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await body(AsyncHTTPClientTransport(client: httpClient))
        } catch {
            try await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
    }

    static func result(_ client: ResponseClient, _ url: URL) async -> Result<ClassItem, Failure> {
        await client.result(TransportRequest(url: url), returning: ClassItem.self, module: StudyGroupCode.self)
    }

    static func failure(_ result: Result<ClassItem, Failure>) -> Failure? {
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return nil
        }
        return error
    }

    @Test("503s open the circuit; then requests are refused at once, never reach the server, and are not retried")
    func serverErrorsOpenIt() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/class", [.status(503)])
        let protections = try UpstreamProtections(
            retryBudget: nil, circuitBreaker: try Self.breaker(), throttle: nil, clock: ManualClock())
        try await Self.withClient { transport in
            let client = ResponseClient(transport: transport, policy: .never, protections: protections)
            for _ in 0..<5 {
                #expect(Self.failure(await Self.result(client, server.url("/class")))?.statusCode == 503)
            }
            let retrying = ResponseClient(transport: transport, protections: protections)
            for _ in 0..<20 {
                let refusal = Self.failure(await Self.result(retrying, server.url("/class")))?.refusal
                #expect(refusal == UpstreamRefusal(reason: .circuitOpen, retryAfter: .seconds(60)))
            }
        }
        #expect(server.requests("/class").count == 5)
    }

    @Test("a port that refuses connections opens the circuit too")
    func refusingPortOpensIt() async throws {
        let url = try LoopbackHTTPServer.refusingURL("/class")
        let protections = try UpstreamProtections(
            retryBudget: nil, circuitBreaker: try Self.breaker(), throttle: nil, clock: ManualClock())
        try await Self.withClient { transport in
            let client = ResponseClient(transport: transport, policy: .never, protections: protections)
            for _ in 0..<5 { #expect(Self.failure(await Self.result(client, url))?.isTransport == true) }
            #expect(Self.failure(await Self.result(client, url))?.refusal?.reason == .circuitOpen)
        }
    }

    @Test("business answers (11210005 at HTTP 200, every time) never open the circuit")
    func businessAnswersNeverOpenIt() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/class", [.envelope(11_210_005, message: "班级码错误")])
        let protections = try UpstreamProtections(
            circuitBreaker: try CircuitBreaker(failureRatio: 0.1, minimumThroughput: 20), clock: ManualClock())
        try await Self.withClient { transport in
            let client = ResponseClient(transport: transport, protections: protections)
            for _ in 0..<60 {
                #expect(Self.failure(await Self.result(client, server.url("/class")))?.moduleCode == .wrongTeamCode)
            }
        }
        let protection = try #require(protections.protection(for: server.url("/class")))
        #expect(protection.circuitState == .closed)
        #expect(protection.circuitBreaker?.windowOutcomes == 60)
        #expect(protection.circuitBreaker?.windowFailures == 0)
        #expect(server.requests("/class").count == 60)
    }

    @Test("keyed by host and port: one failing server does not refuse another")
    func perUpstream() async throws {
        let failing = try LoopbackHTTPServer()
        let healthy = try LoopbackHTTPServer()
        defer {
            failing.stop()
            healthy.stop()
        }
        failing.route("/class", [.status(500)])
        healthy.route("/class", [.envelope(0, data: #"{"classId":"c-1"}"#)])
        let protections = try UpstreamProtections(
            retryBudget: nil, circuitBreaker: try Self.breaker(), throttle: nil, clock: ManualClock())
        try await Self.withClient { transport in
            let client = ResponseClient(transport: transport, policy: .never, protections: protections)
            for _ in 0..<5 { _ = await Self.result(client, failing.url("/class")) }
            #expect(Self.failure(await Self.result(client, failing.url("/class")))?.isRefused == true)
            for _ in 0..<10 {
                let item = try await Self.result(client, healthy.url("/class")).get()
                #expect(item == ClassItem(classId: "c-1"))
            }
        }
        #expect(failing.requests("/class").count == 5)
        #expect(healthy.requests("/class").count == 10)
    }
}
