import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@testable import SwiftErr

/// A ``ResponseClient`` with ``UpstreamProtections``, over an upstream in process: every send is
/// admitted and its outcome recorded exactly once, refusals fail at once and are never retried, a
/// refused retry ends with the failure in hand without waiting, a replay after a refresh is not a
/// retry, cancellation counts neither way, and the observer hears of each request once. The
/// protections run on a manual clock, so every change by time is one the test makes.
@Suite("ResponseClient with upstream protection, in process", .timeLimit(.minutes(1)))
struct ResponseClientProtectionTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    struct ClassItem: Decodable, Equatable, Sendable {
        let classId: String
    }

    /// An upstream in process: answers each send by its 0-based number, recording the
    /// ``TransportAttempt/current`` each was sent under and the header `Authorization`.
    final class Upstream: HTTPTransport {
        typealias Answer = @Sendable (Int) async throws -> TransportResponse
        let answer: Answer
        private let sent = Locked<[(attempt: Int, authorization: String?)]>([])

        init(_ answer: @escaping Answer) {
            self.answer = answer
        }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let index = sent.withLock { sent in
                sent.append((TransportAttempt.current, request.value(forHeader: "Authorization")))
                return sent.count - 1
            }
            return try await answer(index)
        }

        var count: Int { sent.withLock { $0.count } }
        var attempts: [Int] { sent.withLock { $0.map(\.attempt) } }
        var authorizations: [String?] { sent.withLock { $0.map(\.authorization) } }

        static let joined = envelope(0, data: #"{"classId":"c-1"}"#)

        static func envelope(_ code: Int64, data: String = "null") -> TransportResponse {
            TransportResponse(statusCode: 200, body: Data(#"{"ret":\#(code),"msg":"m","data":\#(data)}"#.utf8))
        }

        static func status(_ status: Int) -> TransportResponse {
            TransportResponse(statusCode: status, body: Data())
        }
    }

    /// Remembers every request an observer heard of.
    final class Observed: RequestObserver {
        struct Ended: Sendable {
            let description: String?
            let refusal: UpstreamRefusal?
            let sends: Int
        }

        let ended = Locked<[Ended]>([])

        func requestEnded<Code: ModuleCode>(
            _ request: TransportRequest, error: ModuleRespError<Code>?, sends: Int, since start: ContinuousClock.Instant
        ) {
            ended.withLock { $0.append(Ended(description: error?.description, refusal: error?.refusal, sends: sends)) }
        }

        var all: [Ended] { ended.withLock { $0 } }
    }

    /// Three attempts, no wait between them.
    static let quick = RetryPolicy(maxAttempts: 3, initialBackoff: .zero, maxBackoff: .zero, jitter: .none)
    static let url = URL(string: "http://upstream.test:8080/class")!

    /// 50 % failures over at least 4 outcomes, a 5 s break, one probe.
    static func breaker(minimumThroughput: Int = 4) throws -> CircuitBreaker {
        try CircuitBreaker(failureRatio: 0.5, minimumThroughput: minimumThroughput, breakDuration: .seconds(5))
    }

    /// A client over `upstream` whose protections have the given parts, on `clock`.
    static func client(
        _ upstream: Upstream, budget: RetryBudget? = nil, breaker: CircuitBreaker? = nil,
        throttle: AdaptiveThrottle? = nil, clock: ManualClock = ManualClock(), policy: RetryPolicy = quick,
        observer: Observed? = nil
    ) throws -> (ResponseClient, UpstreamProtections) {
        let protections = try UpstreamProtections(
            retryBudget: budget, circuitBreaker: breaker, throttle: throttle, clock: clock)
        let client = ResponseClient(transport: upstream, policy: policy, protections: protections, observer: observer)
        return (client, protections)
    }

    static func result(_ client: ResponseClient, _ url: URL = url) async -> Result<ClassItem, Failure> {
        await client.result(TransportRequest(url: url), returning: ClassItem.self, module: StudyGroupCode.self)
    }

    static func failure(_ result: Result<ClassItem, Failure>) -> Failure? {
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return nil
        }
        return error
    }

    // MARK: - Each send counted once

    @Test("every send is admitted and recorded once: two 503s then a success are 3 outcomes, 2 failures, 2 retries")
    func eachSendCountedOnce() async throws {
        let upstream = Upstream { index in index < 2 ? Upstream.status(503) : Upstream.joined }
        let observed = Observed()
        let (client, protections) = try Self.client(
            upstream, budget: .default, breaker: try Self.breaker(minimumThroughput: 100), observer: observed)
        #expect(try await Self.result(client).get() == ClassItem(classId: "c-1"))
        let protection = try #require(protections.protection(for: Self.url))
        #expect(protection.circuitBreaker?.windowOutcomes == 3)
        #expect(protection.circuitBreaker?.windowFailures == 2)
        #expect(protection.retryBudget?.activeAttempts == 0, "every permit handed back")
        #expect(protection.retryBudget?.activeRetries == 0)
        #expect(protection.retryBudget?.tokens == 8.1, "10 − 2 failures + 0.1 for the success")
        #expect(upstream.attempts == [1, 2, 3], "TransportAttempt numbers each send")
        #expect(observed.all.map(\.sends) == [3])
        #expect(observed.all.map(\.description) == [nil], "a failure retried into a success is no error")
    }

    @Test("business answers at HTTP 200, 100 % of 200 requests, never open the circuit; each is the module's case")
    func businessAnswersKeepItClosed() async throws {
        let upstream = Upstream { _ in Upstream.envelope(11_210_005) }
        let (client, protections) = try Self.client(
            upstream, budget: .default, breaker: try CircuitBreaker(failureRatio: 0.1, minimumThroughput: 10),
            throttle: try AdaptiveThrottle(minimumRequests: 10))
        for _ in 0..<200 {
            #expect(Self.failure(await Self.result(client))?.moduleCode == .wrongTeamCode)
        }
        let protection = try #require(protections.protection(for: Self.url))
        #expect(protection.circuitState == .closed)
        #expect(protection.circuitBreaker?.windowOutcomes == 200)
        #expect(protection.circuitBreaker?.windowFailures == 0)
        #expect(protection.throttle?.rejectionProbability == 0)
        #expect(protection.retryBudget?.tokens == 10)
        #expect(upstream.count == 200, "sent once each: a business answer is final")
    }

    // MARK: - The breaker

    @Test("transport failures open the circuit; then a request is refused at once, untouched, never retried")
    func breakerOpensAndRefuses() async throws {
        let upstream = Upstream { _ in throw POSIXError(.ECONNREFUSED) }
        let observed = Observed()
        let (client, protections) = try Self.client(
            upstream, breaker: try Self.breaker(), policy: .never, observer: observed)
        for _ in 0..<4 {
            let error = Self.failure(await Self.result(client))
            #expect((error?.underlyingError as? POSIXError)?.code == .ECONNREFUSED)
        }
        let protection = try #require(protections.protection(for: Self.url))
        #expect(protection.circuitState == .open)
        var retrying = ResponseClient(transport: upstream, policy: Self.quick, protections: protections)
        retrying.observer = observed
        let error = Self.failure(await Self.result(retrying))
        #expect(error?.refusal?.reason == .circuitOpen)
        #expect(error?.refusal?.retryAfter == .seconds(5), "the whole break: the manual clock has not moved")
        #expect(error?.retryAfter == .seconds(5))
        #expect(error?.suggestedRecovery == .tryAgain)
        #expect(upstream.count == 4, "the refused request never reached the upstream, nor was it retried")
        #expect(observed.all.last?.refusal?.reason == .circuitOpen)
        #expect(observed.all.last?.sends == 0)
        #expect(observed.all.count == 5)
    }

    @Test("after the break one probe goes through; its success closes the circuit")
    func recoversThroughAProbe() async throws {
        let healthy = Locked(false)
        let upstream = Upstream { _ in
            guard healthy.withLock({ $0 }) else { return Upstream.status(503) }
            return Upstream.joined
        }
        let clock = ManualClock()
        let (client, protections) = try Self.client(upstream, breaker: try Self.breaker(), clock: clock, policy: .never)
        #expect(protections.protection(for: Self.url) == nil, "nothing is made before the first send")
        let protection = try #require(protections.protection(forSending: TransportRequest(url: Self.url)))
        let transitions = Locked<[CircuitTransition]>([])
        let listening = Task {
            for await transition in protection.circuitTransitions() { transitions.withLock { $0.append(transition) } }
        }
        defer { listening.cancel() }
        #expect(await eventually { protection.listenerCount == 1 }, "listening before the first change")
        for _ in 0..<4 { #expect(Self.failure(await Self.result(client))?.statusCode == 503) }
        #expect(protection.circuitState == .open)
        healthy.withLock { $0 = true }
        clock.advance(by: .seconds(4))
        #expect(Self.failure(await Self.result(client))?.refusal?.retryAfter == .seconds(1))
        #expect(upstream.count == 4)
        clock.advance(by: .seconds(1))
        #expect(try await Self.result(client).get().classId == "c-1", "the probe")
        #expect(protection.circuitState == .closed)
        #expect(try await Self.result(client).get().classId == "c-1")
        #expect(upstream.count == 6)
        let expected = [
            CircuitTransition(from: .closed, to: .open), CircuitTransition(from: .open, to: .halfOpen),
            CircuitTransition(from: .halfOpen, to: .closed),
        ]
        #expect(await eventually { transitions.withLock { $0 } == expected })
    }

    @Test("a failed probe opens the circuit for another break")
    func failedProbeReopens() async throws {
        let upstream = Upstream { _ in Upstream.status(500) }
        let clock = ManualClock()
        let (client, protections) = try Self.client(upstream, breaker: try Self.breaker(), clock: clock, policy: .never)
        for _ in 0..<4 { _ = await Self.result(client) }
        clock.advance(by: .seconds(5))
        #expect(Self.failure(await Self.result(client))?.statusCode == 500, "the probe reached the upstream")
        #expect(protections.protection(for: Self.url)?.circuitState == .open)
        #expect(Self.failure(await Self.result(client))?.refusal?.retryAfter == .seconds(5))
        #expect(upstream.count == 5)
    }

    // MARK: - The budget

    @Test("a retry the budget would refuse ends the request with the failure in hand, without waiting for it")
    func budgetEndsWithFailureInHand() async throws {
        let upstream = Upstream { _ in Upstream.status(503) }
        // A minute between attempts: the request must end long before one would have passed.
        let patient = RetryPolicy(
            maxAttempts: 3, initialBackoff: .seconds(60), maxBackoff: .seconds(60), jitter: .none,
            retryAfterStatusCodes: [])
        let (client, protections) = try Self.client(upstream, budget: try RetryBudget(maxTokens: 2), policy: patient)
        let started = ContinuousClock.now
        let error = Self.failure(await Self.result(client))
        #expect(error?.statusCode == 503, "the failure in hand, not a refusal")
        #expect(!(error?.isRefused ?? true))
        #expect(ContinuousClock.now - started < .seconds(30), "it waited for a retry the budget refuses")
        #expect(upstream.count == 1)
        #expect(protections.protection(for: Self.url)?.retryBudget?.tokens == 1)
    }

    @Test("a retry refused when it is sent (the circuit isolated during the wait) ends with the failure in hand")
    func refusedRetryAtSend() async throws {
        let upstream = Upstream { _ in Upstream.status(502) }
        let (client, protections) = try Self.client(upstream, budget: .default, breaker: .default)
        let protection = try #require(protections.protection(forSending: TransportRequest(url: Self.url)))
        let result = await client.result(
            TransportRequest(url: Self.url), returning: ClassItem.self, module: StudyGroupCode.self
        ) { _ in
            // Asked after the client checked the protection, before the wait: the circuit closes
            // its door now.
            protection.isolate()
            return .retry
        }
        let error = Self.failure(result)
        #expect(error?.statusCode == 502)
        #expect(upstream.count == 1)
        #expect(protection.retryBudget?.activeAttempts == 0)
    }

    @Test("under 50 % failures the budget stops retries: about one send per request, against 1.75 without it")
    func budgetUnderHalfFailures() async throws {
        // Whether the n-th send fails: SplitMix64 of n, so exactly the same sends fail in both runs.
        @Sendable func fails(_ index: Int) -> Bool {
            var z = UInt64(index) &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return (z ^ (z >> 31)) & 1 == 0
        }
        let requests = 400
        let limited = Upstream { index in fails(index) ? Upstream.status(503) : Upstream.joined }
        let (client, _) = try Self.client(limited, budget: .default)
        for _ in 0..<requests { _ = await Self.result(client) }
        let unlimited = Upstream { index in fails(index) ? Upstream.status(503) : Upstream.joined }
        let plain = ResponseClient(transport: unlimited, policy: Self.quick)
        for _ in 0..<requests { _ = await Self.result(plain) }
        let withBudget = Double(limited.count) / Double(requests)
        let without = Double(unlimited.count) / Double(requests)
        #expect(withBudget <= 1.2, "\(withBudget) sends per request with the budget")
        #expect(without >= 1.5, "\(without) sends per request without it")
    }

    // MARK: - The throttle

    @Test(
        "the throttle sheds once the upstream accepts less than one request in k: its probe is sent, the rest refused at once"
    )
    func throttleSheds() async throws {
        let healthy = Locked(false)
        let upstream = Upstream { _ in healthy.withLock { $0 } ? Upstream.joined : Upstream.status(503) }
        let throttle = try AdaptiveThrottle(k: 2, window: .seconds(60), minimumRequests: 10)
        let clock = ManualClock()
        // The random number is fixed at ½: a request is shed exactly when the probability is above it.
        let protections = try UpstreamProtections { _ in
            UpstreamProtection(retryBudget: nil, circuitBreaker: nil, throttle: throttle, clock: clock, random: { 0.5 })
        }
        let client = ResponseClient(transport: upstream, policy: .never, protections: protections)
        for _ in 0..<10 { #expect(Self.failure(await Self.result(client))?.statusCode == 503) }
        #expect(Self.failure(await Self.result(client))?.statusCode == 503, "the probe of the interval is sent")
        for _ in 0..<50 {
            let refusal = Self.failure(await Self.result(client))?.refusal
            #expect(refusal?.reason == .throttled)
            #expect(refusal?.retryAfter == .seconds(6), "until the window's oldest bucket moves on")
        }
        #expect(upstream.count == 11)
        // One probe interval later the next probe is sent; the upstream is back, and accepts it: the
        // throttle's window is emptied, and every request is sent again.
        clock.advance(by: .seconds(5))
        healthy.withLock { $0 = true }
        #expect(try await Self.result(client).get() == ClassItem(classId: "c-1"))
        for _ in 0..<20 { #expect(try await Self.result(client).get() == ClassItem(classId: "c-1")) }
        #expect(upstream.count == 32)
        #expect(protections.protection(for: Self.url)?.throttle?.rejectionProbability == 0)
    }

    // MARK: - Sessions

    @Test(
        "a 401, the refresh and the replay: answers, not failures; the replay is not a retry, even with no budget left")
    func sessionReplay() async throws {
        let server = SessionServer(refusal: SessionServer.status(401))
        let observed = Observed()
        let protections = try UpstreamProtections(
            retryBudget: .default, circuitBreaker: try Self.breaker(minimumThroughput: 1),
            throttle: nil, clock: ManualClock())
        let session = AuthenticationSession(
            authenticator: BearerTokenAuthenticator(server: server), credential: "t-0", clock: ManualClock())
        let client = ResponseClient(
            transport: server, policy: Self.quick, protections: protections, observer: observed,
            authentication: session)
        let protection = try #require(protections.protection(forSending: TransportRequest(url: Self.url)))
        // Spend the budget without opening the circuit: one failure in three, seven times, leaves
        // 4.2 tokens of 10 (−1 a failure, +0.1 an answer), and retries stop; the two answers below
        // give back 0.1 each, not enough to start them again.
        for _ in 0..<7 {
            protection.record(.answer, for: try protection.admit())
            protection.record(.answer, for: try protection.admit())
            protection.record(.failure(.transport), for: try protection.admit())
        }
        #expect(protection.circuitState == .closed)
        #expect(protection.retryBudget?.tokens == 4.2)
        #expect(protection.retryBudget?.tokensPermitRetry == false)
        server.expire()
        #expect(try await Self.result(client).get() == ClassItem(classId: "c-1"))
        #expect(server.tokens == ["t-0", "t-1"], "sent, refreshed, replayed")
        #expect(protection.circuitState == .closed)
        #expect(protection.circuitBreaker?.windowOutcomes == 23, "the 401 and the replay: two outcomes")
        #expect(protection.circuitBreaker?.windowFailures == 7, "neither is a failure")
        #expect(protection.retryBudget?.activeAttempts == 0)
        #expect(protection.retryBudget?.tokens == 4.4, "two answers: +0.1 each")
        #expect(observed.all.map(\.sends) == [2], "the replay is a resend")
    }

    @Test("a replay the circuit refuses (isolated during the refresh) fails with the refusal")
    func replayRefused() async throws {
        let server = SessionServer(refusal: SessionServer.envelope(11001))
        let gate = AsyncGate()
        let protections = try UpstreamProtections(clock: ManualClock())
        let session = AuthenticationSession(
            authenticator: BearerTokenAuthenticator(server: server, gate: gate), credential: "t-0", clock: ManualClock()
        )
        let client = ResponseClient(
            transport: server, policy: Self.quick, protections: protections, authentication: session)
        server.expire()
        let request = Task { await Self.result(client) }
        #expect(await gate.waitForArrivals(1))
        protections.protection(for: Self.url)?.isolate()
        gate.open()
        let error = Self.failure(await request.value)
        #expect(error?.refusal?.reason == .circuitIsolated)
        #expect(server.requests.count == 1)
    }

    // MARK: - Time and cancellation

    @Test("a cancelled send counts neither way, and its permit is handed back")
    func cancellationIsUnjudged() async throws {
        let gate = AsyncGate()
        // Like a transport whose connection is closed under it, it reports a reset, not a
        // cancellation: the client must see that its task was cancelled.
        let upstream = Upstream { _ in
            await gate.pass()
            if Task.isCancelled { throw POSIXError(.ECONNRESET) }
            return Upstream.joined
        }
        let observed = Observed()
        let (client, protections) = try Self.client(
            upstream, budget: .default, breaker: try Self.breaker(minimumThroughput: 1),
            throttle: try AdaptiveThrottle(minimumRequests: 1), observer: observed)
        let request = Task { await Self.result(client) }
        #expect(await gate.waitForArrivals(1))
        let protection = try #require(protections.protection(for: Self.url))
        #expect(protection.retryBudget?.activeAttempts == 1)
        request.cancel()
        gate.open()
        #expect(Self.failure(await request.value)?.isCancelled == true)
        #expect(protection.retryBudget?.activeAttempts == 0)
        #expect(protection.retryBudget?.tokens == 10)
        #expect(protection.circuitBreaker?.windowOutcomes == 0)
        #expect(protection.throttle?.requests == 0)
        #expect(upstream.count == 1)
        #expect(observed.all.map(\.description) == ["cancelled"])
    }

    @Test("an attempt that runs out of time is a timeout of the upstream")
    func attemptTimeoutIsAFailure() async throws {
        let upstream = Upstream { _ in
            try await Task.sleep(for: .seconds(60))
            return Upstream.joined
        }
        let protections = try UpstreamProtections(clock: ManualClock())
        let client = ResponseClient(
            transport: upstream, policy: .never, timeouts: .init(attempt: .milliseconds(50)), protections: protections)
        let error = Self.failure(await Self.result(client))
        #expect((error?.underlyingError as? RequestTimeoutError)?.limit == .attempt)
        let protection = try #require(protections.protection(for: Self.url))
        #expect(protection.circuitBreaker?.windowFailures == 1)
        #expect(protection.retryBudget?.activeAttempts == 0)
    }

    @Test("without protections nothing is consulted; sends are still numbered and the observer still hears once")
    func withoutProtections() async throws {
        let upstream = Upstream { index in index == 0 ? Upstream.status(500) : Upstream.joined }
        let observed = Observed()
        let client = ResponseClient(transport: upstream, policy: Self.quick, observer: observed)
        #expect(try await Self.result(client).get().classId == "c-1")
        #expect(upstream.attempts == [1, 2])
        #expect(observed.all.map(\.sends) == [2])
        let failing = ResponseClient(transport: Upstream { _ in Upstream.envelope(11_210_005) }, observer: observed)
        #expect(Self.failure(await Self.result(failing))?.moduleCode == .wrongTeamCode)
        #expect(observed.all.count == 2)
        #expect(observed.all.last?.description?.hasPrefix("studyGroup.wrongTeamCode") == true)
    }
}
