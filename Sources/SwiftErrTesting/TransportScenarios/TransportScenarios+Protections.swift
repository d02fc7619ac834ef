import Foundation
import SwiftErr
import SwiftErrDefaultCatalog

extension TransportScenarios {
    /// A ``SwiftErr/ResponseClient`` with ``SwiftErr/UpstreamProtections`` against real servers: a
    /// refusing port and 503s open the circuit, business answers never do, the retry budget under
    /// half failures, the throttle's probe, recovery through the breaker's probe, keying by host and
    /// port, a session's 401 and replay counted as answers, and a cancelled request counted neither
    /// way.
    ///
    /// The server counts what reaches it, so "refused without touching the upstream" is a count,
    /// not a guess. Every protection runs on a ``ManualClock``: breaks end when a scenario moves the
    /// clock, never by waiting.
    public static var protections: [Scenario] {
        [
            Scenario(
                "a port that refuses connections opens the circuit; the next request is refused at once", refusingPort),
            Scenario(
                "503s open the circuit; the refused requests never reach the server, and are not retried", serverErrors),
            Scenario("business answers (11210005 at HTTP 200, every time) never open the circuit", businessAnswers),
            Scenario(
                "under 50 % failures the retry budget keeps the server's load near one request per client request",
                budget),
            Scenario(
                "the throttle sheds once the server accepts less than one request in k; only its probe, one per interval, is sent",
                throttleSheds),
            Scenario(
                "after the break a probe finds the server back; the circuit closes and requests flow again", probe),
            Scenario(
                "keyed by host and port: one failing server refuses only itself, for every client sharing the registry",
                perUpstream),
            Scenario(
                "a 401, the refresh and the replay are not failures of the upstream: a breaker opening on one failure stays closed",
                sessionsAreAnswers),
            Scenario("a request cancelled while the server holds it counts neither way", cancellation),
        ]
    }

    /// A breaker that opens at 50 % failures over at least 5 outcomes; breaks of 60 s.
    static func breaker() throws -> CircuitBreaker {
        try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 5, breakDuration: .seconds(60))
    }

    /// Three attempts, 1 ms apart.
    static let quick = RetryPolicy(
        maxAttempts: 3, initialBackoff: .milliseconds(1), maxBackoff: .milliseconds(1), jitter: .none)

    static func result(_ client: ResponseClient, _ url: URL) async -> Swift.Result<ClassItem, Failure> {
        await client.result(TransportRequest(url: url), returning: ClassItem.self, module: StudyGroupCode.self)
    }

    /// Runs `body` with a new loopback server, stopped after.
    static func withServer(_ body: (LoopbackHTTPServer) async throws -> Void) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        try await body(server)
    }

    static func refusingPort(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        let url = try LoopbackHTTPServer.refusingURL("/class")
        let protections = try UpstreamProtections(
            retryBudget: nil, circuitBreaker: try breaker(), throttle: nil, clock: ManualClock())
        let client = ResponseClient(transport: transport, policy: .never, protections: protections)
        for _ in 0..<5 {
            let error = failure(await result(client, url), checks)
            checks.expect(
                error?.isTransport == true, "a refused connection is a transport failure: \(String(describing: error))")
        }
        checks.expect(protections.protection(for: url)?.circuitState, equals: .open, "the circuit")
        // Refused by the open circuit, not by the port: nothing is sent (a send would fail as a
        // transport failure), and the protections' manual clock has not moved, so the wait is the
        // whole break.
        let error = failure(await result(client, url), checks)
        checks.expect(
            error?.refusal, equals: UpstreamRefusal(reason: .circuitOpen, retryAfter: .seconds(60)), "refusal")
        checks.expect(error?.retryAfter, equals: .seconds(60), "the refusal's Retry-After")
        checks.expect(
            error?.errorDescription(in: .english), equals: "The service is temporarily unavailable.", "the description")
        let presentation = ErrorPresentation(error: try checks.require(error, "a failure"), language: .english)
        checks.expect(presentation.actions.map(\.title), equals: ["Try Again", "Cancel"], "the recovery options")
    }

    static func serverErrors(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withServer { server in
            server.route("/class", [.status(503)])
            let protections = try UpstreamProtections(
                retryBudget: nil, circuitBreaker: try breaker(), throttle: nil, clock: ManualClock())
            let client = ResponseClient(transport: transport, policy: .never, protections: protections)
            for _ in 0..<5 {
                checks.expect(
                    failure(await result(client, server.url("/class")), checks)?.statusCode, equals: 503, "status")
            }
            let retrying = ResponseClient(transport: transport, policy: quick, protections: protections)
            for _ in 0..<20 {
                let refusal = failure(await result(retrying, server.url("/class")), checks)?.refusal
                checks.expect(
                    refusal, equals: UpstreamRefusal(reason: .circuitOpen, retryAfter: .seconds(60)), "refusal")
            }
            checks.expect(server.requests("/class").count, equals: 5, "requests that reached the server")
        }
    }

    static func businessAnswers(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withServer { server in
            server.route("/class", [.envelope(11_210_005, message: "班级码错误")])
            let breaker = try CircuitBreaker(failureRatio: 0.1, minimumThroughput: 20)
            let protections = try UpstreamProtections(
                circuitBreaker: breaker, throttle: try AdaptiveThrottle(minimumRequests: 20), clock: ManualClock())
            let client = ResponseClient(transport: transport, policy: quick, protections: protections)
            for _ in 0..<100 {
                let error = failure(await result(client, server.url("/class")), checks)
                checks.expect(error?.moduleCode, equals: .wrongTeamCode, "the answer")
            }
            let protection = try checks.require(protections.protection(for: server.url("/class")), "a protection")
            checks.expect(protection.circuitState, equals: .closed, "the circuit")
            checks.expect(protection.circuitBreaker?.windowOutcomes, equals: 100, "the breaker's outcomes")
            checks.expect(protection.circuitBreaker?.windowFailures, equals: 0, "the breaker's failures")
            checks.expect(protection.throttle?.rejectionProbability, equals: 0, "the throttle's probability")
            checks.expect(server.requests("/class").count, equals: 100, "requests that reached the server")
        }
    }

    static func budget(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withServer { server in
            // Whether the server fails its n-th request on a path: SplitMix64 of n, the same in both runs.
            let halfFailing: LoopbackHTTPServer.Handler = { request in
                var z = UInt64(request.index) &+ 0x9E37_79B9_7F4A_7C15
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return (z ^ (z >> 31)) & 1 == 0 ? .status(503) : .envelope(0, data: joined)
            }
            server.route("/budget", halfFailing)
            server.route("/none", halfFailing)
            let requests = 200
            let protections = try UpstreamProtections(circuitBreaker: nil, throttle: nil, clock: ManualClock())
            let budgeted = ResponseClient(transport: transport, policy: quick, protections: protections)
            for _ in 0..<requests { _ = await result(budgeted, server.url("/budget")) }
            let unbudgeted = ResponseClient(transport: transport, policy: quick)
            for _ in 0..<requests { _ = await result(unbudgeted, server.url("/none")) }
            let withBudget = Double(server.requests("/budget").count) / Double(requests)
            let without = Double(server.requests("/none").count) / Double(requests)
            checks.expect(withBudget <= 1.2, "\(withBudget) server requests per client request with the budget")
            checks.expect(without >= 1.5, "\(without) server requests per client request without it")
        }
    }

    static func throttleSheds(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withServer { server in
            let healthy = Locked(false)
            server.route("/class") { _ in healthy.withLock { $0 } ? .envelope(0, data: joined) : .status(500) }
            let throttle = try AdaptiveThrottle(k: 2, window: .seconds(60), minimumRequests: 10)
            let clock = ManualClock()
            // A fixed random number of ½: shed exactly while the probability is above it.
            let protections = try UpstreamProtections { _ in
                UpstreamProtection(
                    retryBudget: nil, circuitBreaker: nil, throttle: throttle, clock: clock, random: { 0.5 })
            }
            let client = ResponseClient(transport: transport, policy: .never, protections: protections)
            let url = server.url("/class")
            for _ in 0..<10 {
                checks.expect(failure(await result(client, url), checks)?.statusCode, equals: 500, "status")
            }
            // The first request while shedding is the throttle's probe of its interval: sent, and failed.
            checks.expect(failure(await result(client, url), checks)?.statusCode, equals: 500, "the probe's status")
            for _ in 0..<30 {
                let refusal = failure(await result(client, url), checks)?.refusal
                checks.expect(refusal?.reason, equals: .throttled, "the refusal")
                checks.expect(refusal?.retryAfter, equals: .seconds(6), "the refusal's wait")
            }
            checks.expect(server.requests("/class").count, equals: 11, "requests that reached the server")
            // The server is back; the next interval's probe is accepted, and shedding stops at once.
            healthy.withLock { $0 = true }
            clock.advance(by: .seconds(5))
            for _ in 0..<10 { checks.expect(try? await result(client, url).get(), equals: item, "after the probe") }
            checks.expect(server.requests("/class").count, equals: 21, "requests that reached the server")
        }
    }

    static func probe(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withServer { server in
            let healthy = Locked(false)
            server.route("/class") { _ in healthy.withLock { $0 } ? .envelope(0, data: joined) : .status(503) }
            let clock = ManualClock()
            let protections = try UpstreamProtections(
                retryBudget: nil, circuitBreaker: try breaker(), throttle: nil, clock: clock)
            let client = ResponseClient(transport: transport, policy: .never, protections: protections)
            let url = server.url("/class")
            for _ in 0..<5 { _ = await result(client, url) }
            healthy.withLock { $0 = true }
            clock.advance(by: .seconds(59))
            checks.expect(
                failure(await result(client, url), checks)?.refusal?.retryAfter, equals: .seconds(1), "refusal's wait")
            checks.expect(server.requests("/class").count, equals: 5, "requests during the break")
            clock.advance(by: .seconds(1))
            checks.expect(try? await result(client, url).get(), equals: item, "the probe")
            checks.expect(
                protections.protection(for: url)?.circuitState, equals: .closed, "the circuit after the probe")
            for _ in 0..<3 { checks.expect(try? await result(client, url).get(), equals: item, "after the probe") }
            checks.expect(server.requests("/class").count, equals: 9, "requests that reached the server")
        }
    }

    static func perUpstream(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withServer { failing in
            try await withServer { healthy in
                failing.route("/class", [.status(502)])
                healthy.route("/class", [.envelope(0, data: joined)])
                let protections = try UpstreamProtections(
                    retryBudget: nil, circuitBreaker: try breaker(), throttle: nil, clock: ManualClock())
                let client = ResponseClient(transport: transport, policy: .never, protections: protections)
                let other = ResponseClient(transport: transport, policy: .never, protections: protections)
                for _ in 0..<5 { _ = await result(client, failing.url("/class")) }
                checks.expect(
                    failure(await result(other, failing.url("/class")), checks)?.refusal?.reason, equals: .circuitOpen,
                    "the other client's refusal")
                for _ in 0..<10 {
                    checks.expect(try? await result(client, healthy.url("/class")).get(), equals: item, "healthy")
                    checks.expect(try? await result(other, healthy.url("/class")).get(), equals: item, "healthy")
                }
                checks.expect(failing.requests("/class").count, equals: 5, "requests to the failing server")
                checks.expect(healthy.requests("/class").count, equals: 20, "requests to the healthy server")
                checks.expect(
                    Set(protections.upstreams.map(\.port)), equals: [Int(failing.port), Int(healthy.port)], "upstreams")
            }
        }
    }

    static func sessionsAreAnswers(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withServer { server in
            let tokens = LoopbackTokenService(server: server)
            tokens.protect("/class", refusal: .status(401), payload: .envelope(0, data: joined))
            let session = AuthenticationSession(
                authenticator: BearerTokenAuthenticator.loopback(tokens, through: transport), credential: "t-0",
                clock: ManualClock())
            let touchy = try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 1)
            let protections = try UpstreamProtections(circuitBreaker: touchy, clock: ManualClock())
            let client = ResponseClient(
                transport: transport, policy: quick, protections: protections, authentication: session)
            tokens.expire()
            checks.expect(try? await result(client, server.url("/class")).get(), equals: item, "the replayed request")
            checks.expect(
                server.requests("/class").map { $0.header("Authorization") }, equals: ["Bearer t-0", "Bearer t-1"],
                "tokens received")
            checks.expect(tokens.refreshCount, equals: 1, "refreshes")
            let protection = try checks.require(protections.protection(for: server.url("/class")), "a protection")
            checks.expect(protection.circuitState, equals: .closed, "the circuit")
            checks.expect(protection.circuitBreaker?.windowOutcomes, equals: 2, "the breaker's outcomes")
            checks.expect(protection.circuitBreaker?.windowFailures, equals: 0, "the breaker's failures")
            checks.expect(protection.retryBudget?.activeRetries, equals: 0, "the budget's retries")
        }
    }

    static func cancellation(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withServer { server in
            server.route("/class", [.hold])
            let protections = try UpstreamProtections(
                circuitBreaker: try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 1), clock: ManualClock())
            let client = ResponseClient(transport: transport, policy: quick, protections: protections)
            let request = Task { await result(client, server.url("/class")) }
            checks.expect(await eventually { !server.requests("/class").isEmpty }, "the request reaches the server")
            request.cancel()
            let error = failure(try await value(of: request, checks), checks)
            checks.expect(error?.isCancelled, equals: true, "the request's end")
            let protection = try checks.require(protections.protection(for: server.url("/class")), "a protection")
            checks.expect(protection.retryBudget?.activeAttempts, equals: 0, "the budget's attempts")
            checks.expect(protection.retryBudget?.tokens, equals: 10, "the budget's tokens")
            checks.expect(protection.circuitBreaker?.windowOutcomes, equals: 0, "the breaker's outcomes")
            checks.expect(protection.circuitState, equals: .closed, "the circuit")
            checks.expect(server.requests("/class").count, equals: 1, "requests that reached the server")
        }
    }
}
