import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import SwiftErrURLSession
import Testing

/// A ``ResponseClient`` on URLSession with ``UpstreamProtections``, against real HTTP servers on
/// 127.0.0.1 (``LoopbackHTTPServer``): the server counts what reaches it, so "refused without
/// touching the upstream" is a count, not a guess. Every protection runs on a manual clock: the
/// breaks end when a test moves the clock, never by waiting.
@Suite("ResponseClient on URLSession: upstream protection against a loopback server", .timeLimit(.minutes(2)))
struct ProtectionTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    static let joined = #"{"classId":"c-1","name":"Class 3-2"}"#

    /// A breaker that opens at 50 % failures over at least 5 outcomes; breaks of 60 s.
    static func breaker() throws -> CircuitBreaker {
        try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 5, breakDuration: .seconds(60))
    }

    /// Three attempts, 1 ms apart.
    static let quick = RetryPolicy(
        maxAttempts: 3, initialBackoff: .milliseconds(1), maxBackoff: .milliseconds(1), jitter: .none)

    /// A client on an ephemeral URLSession of its own.
    static func client(
        _ protections: UpstreamProtections?, policy: RetryPolicy = .never, observer: (any RequestObserver)? = nil
    ) -> ResponseClient {
        ResponseClient(
            session: URLSession(configuration: .ephemeral), policy: policy, protections: protections, observer: observer
        )
    }

    static func result(_ client: ResponseClient, _ url: URL) async -> Result<ClassItemModel, Failure> {
        await client.result(URLRequest(url: url), returning: ClassItemModel.self, module: StudyGroupCode.self)
    }

    static func failure(_ result: Result<ClassItemModel, Failure>) -> Failure? {
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return nil
        }
        return error
    }

    @Test("a port that refuses connections opens the circuit; the next request is refused at once")
    func refusingPortOpensIt() async throws {
        let url = try LoopbackHTTPServer.refusingURL("/class")
        let protections = try UpstreamProtections(
            retryBudget: nil, circuitBreaker: try Self.breaker(), throttle: nil, clock: ManualClock())
        let client = Self.client(protections)
        for _ in 0..<5 {
            let error = Self.failure(await Self.result(client, url))
            #expect(error?.underlyingError is URLError, "\(String(describing: error))")
        }
        #expect(protections.protection(for: url)?.circuitState == .open)
        let started = ContinuousClock.now
        let error = Self.failure(await Self.result(client, url))
        // Nothing is sent, so nothing can take long: 10 s stays far from the 60 s break even when
        // the machine is loaded.
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(error?.refusal == UpstreamRefusal(reason: .circuitOpen, retryAfter: .seconds(60)))
        #expect(error?.retryAfter == .seconds(60))
        #expect(error?.errorDescription(in: .english) == "The service is temporarily unavailable.")
        #expect(
            ErrorPresentation(error: try #require(error), language: .english).actions.map(\.title) == [
                "Try Again", "Cancel",
            ])
    }

    @Test("503s open the circuit; the refused requests never reach the server, and are not retried")
    func serverErrorsOpenIt() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/class", [.status(503)])
        let protections = try UpstreamProtections(
            retryBudget: nil, circuitBreaker: try Self.breaker(), throttle: nil, clock: ManualClock())
        let client = Self.client(protections)
        for _ in 0..<5 { #expect(Self.failure(await Self.result(client, server.url("/class")))?.statusCode == 503) }
        let retrying = Self.client(protections, policy: Self.quick)
        for _ in 0..<20 {
            #expect(Self.failure(await Self.result(retrying, server.url("/class")))?.refusal?.reason == .circuitOpen)
        }
        #expect(server.requests("/class").count == 5)
    }

    @Test("business answers (11210005 at HTTP 200, every time) never open the circuit")
    func businessAnswersNeverOpenIt() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/class", [.envelope(11_210_005, message: "班级码错误")])
        let breaker = try CircuitBreaker(failureRatio: 0.1, minimumThroughput: 20)
        let protections = try UpstreamProtections(
            circuitBreaker: breaker, throttle: try AdaptiveThrottle(minimumRequests: 20), clock: ManualClock())
        let client = Self.client(protections, policy: Self.quick)
        for _ in 0..<100 {
            #expect(Self.failure(await Self.result(client, server.url("/class")))?.moduleCode == .wrongTeamCode)
        }
        let protection = try #require(protections.protection(for: server.url("/class")))
        #expect(protection.circuitState == .closed)
        #expect(protection.circuitBreaker?.windowOutcomes == 100)
        #expect(protection.circuitBreaker?.windowFailures == 0)
        #expect(protection.throttle?.rejectionProbability == 0)
        #expect(server.requests("/class").count == 100)
    }

    @Test("under 50 % failures the retry budget keeps the server's load near one request per client request")
    func budgetUnderHalfFailures() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // Whether the server fails its n-th request on a path: SplitMix64 of n, the same in both runs.
        let halfFailing: LoopbackHTTPServer.Handler = { request in
            var z = UInt64(request.index) &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return (z ^ (z >> 31)) & 1 == 0 ? .status(503) : .envelope(0, data: Self.joined)
        }
        server.route("/budget", halfFailing)
        server.route("/none", halfFailing)
        let requests = 200
        let protections = try UpstreamProtections(circuitBreaker: nil, throttle: nil, clock: ManualClock())
        let budgeted = Self.client(protections, policy: Self.quick)
        for _ in 0..<requests { _ = await Self.result(budgeted, server.url("/budget")) }
        let unbudgeted = Self.client(nil, policy: Self.quick)
        for _ in 0..<requests { _ = await Self.result(unbudgeted, server.url("/none")) }
        let withBudget = Double(server.requests("/budget").count) / Double(requests)
        let without = Double(server.requests("/none").count) / Double(requests)
        #expect(withBudget <= 1.2, "\(withBudget) server requests per client request with the budget")
        #expect(without >= 1.5, "\(without) server requests per client request without it")
    }

    @Test(
        "the throttle sheds once the server accepts less than one request in k; only its probe, one per interval, is sent"
    )
    func throttleSheds() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let healthy = Locked(false)
        server.route("/class") { _ in healthy.withLock { $0 } ? .envelope(0, data: Self.joined) : .status(500) }
        let throttle = try AdaptiveThrottle(k: 2, window: .seconds(60), minimumRequests: 10)
        let clock = ManualClock()
        // A fixed random number of ½: shed exactly while the probability is above it.
        let protections = try UpstreamProtections { _ in
            UpstreamProtection(retryBudget: nil, circuitBreaker: nil, throttle: throttle, clock: clock, random: { 0.5 })
        }
        let client = Self.client(protections)
        for _ in 0..<10 { #expect(Self.failure(await Self.result(client, server.url("/class")))?.statusCode == 500) }
        // The first request while shedding is the throttle's probe of its interval: sent, and failed.
        #expect(Self.failure(await Self.result(client, server.url("/class")))?.statusCode == 500)
        for _ in 0..<30 {
            let refusal = Self.failure(await Self.result(client, server.url("/class")))?.refusal
            #expect(refusal?.reason == .throttled)
            #expect(refusal?.retryAfter == .seconds(6))
        }
        #expect(server.requests("/class").count == 11)
        // The server is back; the next interval's probe is accepted, and shedding stops at once.
        healthy.withLock { $0 = true }
        clock.advance(by: .seconds(5))
        for _ in 0..<10 { #expect(try await Self.result(client, server.url("/class")).get().classId == "c-1") }
        #expect(server.requests("/class").count == 21)
    }

    @Test("after the break a probe finds the server back; the circuit closes and requests flow again")
    func recoversThroughAProbe() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let healthy = Locked(false)
        server.route("/class") { _ in healthy.withLock { $0 } ? .envelope(0, data: Self.joined) : .status(503) }
        let clock = ManualClock()
        let protections = try UpstreamProtections(
            retryBudget: nil, circuitBreaker: try Self.breaker(), throttle: nil, clock: clock)
        let client = Self.client(protections)
        let url = server.url("/class")
        for _ in 0..<5 { _ = await Self.result(client, url) }
        healthy.withLock { $0 = true }
        clock.advance(by: .seconds(59))
        #expect(Self.failure(await Self.result(client, url))?.refusal?.retryAfter == .seconds(1))
        #expect(server.requests("/class").count == 5)
        clock.advance(by: .seconds(1))
        #expect(try await Self.result(client, url).get().classId == "c-1")
        #expect(protections.protection(for: url)?.circuitState == .closed)
        for _ in 0..<3 { #expect(try await Self.result(client, url).get().classId == "c-1") }
        #expect(server.requests("/class").count == 9)
    }

    @Test("keyed by host and port: one failing server refuses only itself, for every client sharing the registry")
    func perUpstream() async throws {
        let failing = try LoopbackHTTPServer()
        let healthy = try LoopbackHTTPServer()
        defer {
            failing.stop()
            healthy.stop()
        }
        failing.route("/class", [.status(502)])
        healthy.route("/class", [.envelope(0, data: Self.joined)])
        let protections = try UpstreamProtections(
            retryBudget: nil, circuitBreaker: try Self.breaker(), throttle: nil, clock: ManualClock())
        let client = Self.client(protections)
        let other = Self.client(protections)
        for _ in 0..<5 { _ = await Self.result(client, failing.url("/class")) }
        #expect(Self.failure(await Self.result(other, failing.url("/class")))?.refusal?.reason == .circuitOpen)
        for _ in 0..<10 {
            #expect(try await Self.result(client, healthy.url("/class")).get().classId == "c-1")
            #expect(try await Self.result(other, healthy.url("/class")).get().classId == "c-1")
        }
        #expect(failing.requests("/class").count == 5)
        #expect(healthy.requests("/class").count == 20)
        #expect(Set(protections.upstreams.map(\.port)) == [Int(failing.port), Int(healthy.port)])
    }

    @Test(
        "a 401, the refresh and the replay are not failures of the upstream: a breaker opening on one failure stays closed"
    )
    func sessionsAreAnswers() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let tokens = LoopbackTokenService(server: server)
        tokens.protect("/class", refusal: .status(401), payload: .envelope(0, data: Self.joined))
        let transport = URLSessionTransport(session: URLSession(configuration: .ephemeral))
        let session = AuthenticationSession(
            authenticator: LoopbackBearerAuthenticator(transport: transport, tokenURL: server.url("/token")),
            credential: "t-0", clock: ManualClock())
        let touchy = try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 1)
        let protections = try UpstreamProtections(circuitBreaker: touchy, clock: ManualClock())
        let client = ResponseClient(
            transport: transport, policy: Self.quick, protections: protections, authentication: session)
        tokens.expire()
        #expect(try await Self.result(client, server.url("/class")).get().classId == "c-1")
        #expect(server.requests("/class").map { $0.header("Authorization") } == ["Bearer t-0", "Bearer t-1"])
        #expect(tokens.refreshCount == 1)
        let protection = try #require(protections.protection(for: server.url("/class")))
        #expect(protection.circuitState == .closed)
        #expect(protection.circuitBreaker?.windowOutcomes == 2)
        #expect(protection.circuitBreaker?.windowFailures == 0)
        #expect(protection.retryBudget?.activeRetries == 0)
    }

    @Test("a request cancelled while the server holds it counts neither way")
    func cancellation() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/class", [.hold])
        let protections = try UpstreamProtections(
            circuitBreaker: try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 1), clock: ManualClock())
        let client = Self.client(protections, policy: Self.quick)
        let request = Task { await Self.result(client, server.url("/class")) }
        #expect(await Bounded.until { !server.requests("/class").isEmpty })
        request.cancel()
        let error = await Bounded.value(of: request).flatMap(Self.failure)
        #expect(error?.isCancelled == true)
        let protection = try #require(protections.protection(for: server.url("/class")))
        #expect(protection.retryBudget?.activeAttempts == 0)
        #expect(protection.retryBudget?.tokens == 10)
        #expect(protection.circuitBreaker?.windowOutcomes == 0)
        #expect(protection.circuitState == .closed)
        #expect(server.requests("/class").count == 1)
    }
}
