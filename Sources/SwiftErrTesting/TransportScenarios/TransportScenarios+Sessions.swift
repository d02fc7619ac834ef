import Foundation
import SwiftErr
import SwiftErrDefaultCatalog

extension TransportScenarios {
    /// Keeping a session alive: one refresh for every request refused at once, each replayed with
    /// the new token; a refresh that fails, hangs, or is refused by the refresh window; a waiting
    /// request cancelled; what asks for a refresh (a plain 401, the codes the catalog flags
    /// `reauthenticate`) and what does not; the completion-handler form.
    ///
    /// The server's token endpoint is a ``LoopbackTokenService`` and the authenticator refreshes
    /// there through the transport under test (``BearerTokenAuthenticator/loopback(_:through:)``).
    /// To make "every request is refused" certain rather than likely, a protected path holds its
    /// first requests at a ``LoopbackGate`` until all of them have reached the server; nothing else
    /// waits in real time but the deadlines under test.
    public static var sessions: [Scenario] {
        [
            Scenario(
                "100 concurrent requests all answered 11001: exactly 1 refresh, 100 replays with the new token, 100 successes",
                hundredConcurrent),
            Scenario(
                "a request in flight with the old token when the refresh completes is replayed, with no second refresh",
                inFlightDuringRefresh),
            Scenario(
                "the token endpoint failing: all 100 requests fail with the typed error keeping the cause, none replayed",
                refreshFailing),
            Scenario("the refresh hanging: each waiting request ends at its own deadline; one refresh", refreshHanging),
            Scenario(
                "6 expiries in 30 s (manual clock): the sixth fails with the window; after the interval, a refresh again",
                refreshWindow),
            Scenario(
                "one of 10 waiting requests cancelled: it ends at once; the refresh and the 9 others go on",
                cancelOneWaiter),
            Scenario("a plain 401 without an envelope starts the refresh; the request is replayed", plain401),
            Scenario("a POST refused with 11001 is replayed with its body, whatever its method", postReplayed),
            Scenario("11001, flagged reauthenticate by the catalog, starts the refresh") { transport, checks in
                try await flaggedBaseCode(11001, transport, checks)
            },
            Scenario("11004, flagged reauthenticate by the catalog, starts the refresh") { transport, checks in
                try await flaggedBaseCode(11004, transport, checks)
            },
            Scenario(
                "a code the catalog does not flag is the caller's: no refresh, the base handler sees it", unflagged),
            Scenario(
                "the completion-handler form, with a session: one call back, after the refresh and the replay",
                completionHandler),
        ]
    }

    typealias Failure = ModuleRespError<StudyGroupCode>

    /// The payload the protected paths answer.
    static let joined = #"{"classId":"c-1","name":"Class 3-2"}"#

    /// The payload of a study-group request.
    struct ClassItem: Decodable, Equatable, Sendable {
        let classId: String
        let name: String
    }

    static let item = ClassItem(classId: "c-1", name: "Class 3-2")

    /// How long a wait for what must happen may take: far beyond a correct run on a loaded machine.
    static let patience: Duration = .seconds(150)

    /// A server with a token service, a session whose authenticator refreshes at the token endpoint
    /// through the transport, and a client whose base handler records what it receives.
    struct SessionSetup: Sendable {
        let server: LoopbackHTTPServer
        let tokens: LoopbackTokenService
        let transport: any HTTPTransport
        let session: AuthenticationSession<BearerTokenAuthenticator>
        let events = Locked<[BaseCodeEvent]>([])
        let refreshes = Locked<[SessionRefreshEvent]>([])
        let client: ResponseClient

        init(_ transport: any HTTPTransport, clock: ManualClock = ManualClock()) throws {
            server = try LoopbackHTTPServer()
            tokens = LoopbackTokenService(server: server)
            self.transport = transport
            session = AuthenticationSession(
                authenticator: .loopback(tokens, through: transport), credential: "t-0", clock: clock)
            let events = self.events
            let refreshes = self.refreshes
            let handler = BaseCodeHandler(
                { event in events.withLock { $0.append(event) } },
                sessionRefresh: { event in refreshes.withLock { $0.append(event) } })
            client = ResponseClient(
                transport: transport, decoder: ResponseDecoder(baseHandler: handler), policy: .never,
                authentication: session)
        }

        func request(_ path: String, method: String = "GET") -> TransportRequest {
            var request = TransportRequest(url: server.url(path), method: method)
            if method == "POST" {
                request.body = Data(#"{"teamCode":"T-1"}"#.utf8)
                request.setValue("application/json", forHeader: "Content-Type")
            }
            return request
        }

        func result(_ path: String = "/class", method: String = "GET", client: ResponseClient? = nil) async
            -> Swift.Result<ClassItem, Failure>
        {
            await (client ?? self.client).result(
                request(path, method: method), returning: ClassItem.self, module: StudyGroupCode.self)
        }

        /// Protects `path`; its first `held` requests wait at `gate` before being judged.
        func protect(_ path: String, held: Int, at gate: LoopbackGate, refusal: LoopbackHTTPServer.Reply) {
            let tokens = self.tokens
            server.route(path) { request in
                if request.index < held { gate.pass() }
                return tokens.isAuthorized(request) ? .envelope(0, data: TransportScenarios.joined) : refusal
            }
        }

        /// `count` requests at once.
        func concurrent(_ count: Int, _ path: String = "/class") -> Task<[Swift.Result<ClassItem, Failure>], Never> {
            Task {
                await withTaskGroup(of: Swift.Result<ClassItem, Failure>.self) { group in
                    for _ in 0..<count { group.addTask { await result(path) } }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
        }

        /// The tokens the requests to `path` carried, in the order they arrived.
        func tokensSent(to path: String = "/class") -> [String] {
            server.requests(path).map { $0.header("Authorization") ?? "-" }
        }
    }

    /// Runs `body` with a new setup on `transport`, and stops its server after.
    static func withSession(
        _ transport: any HTTPTransport, clock: ManualClock = ManualClock(),
        _ body: (SessionSetup) async throws -> Void
    ) async throws {
        let setup = try SessionSetup(transport, clock: clock)
        defer { setup.server.stop() }
        try await body(setup)
    }

    /// What `task` returned, or a failure (and the scenario's end) when it did not end within
    /// ``patience``.
    static func value<Value: Sendable>(
        of task: Task<Value, Never>, _ checks: ScenarioChecks, line: UInt = #line
    ) async throws -> Value {
        try checks.require(await task.value(by: .now + patience), "did not end in time", line: line)
    }

    /// Waits, polling every 2 ms, until `condition` holds; `false` after ``patience``.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + patience
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    /// The failure of a result, or `nil` (recorded) for a success.
    static func failure<Model>(
        _ result: Swift.Result<Model, Failure>, _ checks: ScenarioChecks, line: UInt = #line
    ) -> Failure? {
        guard case .failure(let error) = result else {
            checks.record("line \(line): expected a failure, got \(result)")
            return nil
        }
        return error
    }

    // MARK: - One refresh

    static func hundredConcurrent(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withSession(transport) { setup in
            let gate = LoopbackGate()
            setup.protect("/class", held: 100, at: gate, refusal: .envelope(11001, message: "token expire"))
            setup.tokens.expire()
            let started = ContinuousClock.now
            let task = setup.concurrent(100)
            checks.expect(await gate.waitForWaiting(100), "all 100 requests reach the server before any is answered")
            gate.open()
            let results = try await value(of: task, checks)
            let elapsed = ContinuousClock.now - started
            checks.expect(results.count, equals: 100, "results")
            checks.expect(results.filter { (try? $0.get()) == item }.count, equals: 100, "successes")
            checks.expect(setup.tokens.refreshCount, equals: 1, "refreshes the server saw")
            let sent = setup.tokensSent()
            checks.expect(sent.count, equals: 200, "requests to /class")
            checks.expect(sent.prefix(100).allSatisfy { $0 == "Bearer t-0" }, "the first 100 carry t-0")
            checks.expect(sent.dropFirst(100).allSatisfy { $0 == "Bearer t-1" }, "the replays carry t-1")
            checks.expect(
                setup.events.withLock { $0.count }, equals: 0, "token expiries the base handler got one by one")
            checks.expect(setup.refreshes.withLock { $0.map(\.trigger) }, equals: [.code(11001)], "refresh events")
            checks.note("100 concurrent requests answered 11001: 1 refresh, 100 replays, in \(elapsed)")
        }
    }

    static func inFlightDuringRefresh(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withSession(transport) { setup in
            let slowGate = LoopbackGate()
            setup.protect("/slow", held: 1, at: slowGate, refusal: .envelope(11001))
            setup.tokens.protect("/class", payload: .envelope(0, data: joined))
            let slow = Task { await setup.result("/slow") }
            checks.expect(await slowGate.waitForWaiting(1), "the slow request is at the server with t-0")
            setup.tokens.expire()
            // Refused, refreshed to t-1, replayed.
            checks.expect(try? await setup.result("/class").get(), equals: item, "the request refused first")
            checks.expect(setup.tokens.refreshCount, equals: 1, "refreshes")
            slowGate.open()  // the slow request is judged now: t-0 is refused
            checks.expect(try? await value(of: slow, checks).get(), equals: item, "the slow request")
            checks.expect(
                setup.tokensSent(to: "/slow"), equals: ["Bearer t-0", "Bearer t-1"], "the slow request's tokens")
            checks.expect(setup.tokens.refreshCount, equals: 1, "refreshes after the slow request")
            checks.expect(setup.session.refreshCount, equals: 1, "the session's refreshes")
        }
    }

    // MARK: - The refresh fails, hangs, or is refused by the window

    static func refreshFailing(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withSession(transport) { setup in
            let gate = LoopbackGate()
            setup.protect("/class", held: 100, at: gate, refusal: .envelope(11001))
            setup.tokens.expire()
            setup.tokens.failRefreshes(with: .status(500))
            let task = setup.concurrent(100)
            checks.expect(await gate.waitForWaiting(100), "all 100 requests reach the server")
            gate.open()
            let results = try await value(of: task, checks)
            checks.expect(results.count, equals: 100, "results")
            for result in results {
                let failure = failure(result, checks)
                let session = failure?.reauthenticationError
                checks.expect(session?.reason, equals: .refreshFailed, "the session's failure")
                checks.expect(
                    (session?.underlyingError as? Failure)?.statusCode, equals: 500, "the refresh's own error, kept")
                checks.expect(failure?.isRetryable, equals: false, "retryable")
                checks.expect(failure?.suggestedRecovery, equals: .signIn, "the recovery")
            }
            checks.expect(setup.tokens.refreshCount, equals: 1, "refreshes")
            checks.expect(setup.server.requests("/class").count, equals: 100, "requests (none replayed)")
            checks.expect(setup.refreshes.withLock { $0.map(\.isFailure) }, equals: [true], "refresh events")
        }
    }

    static func refreshHanging(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withSession(transport) { setup in
            setup.tokens.protect("/class", payload: .envelope(0, data: joined))
            setup.tokens.expire()
            setup.tokens.failRefreshes(with: .hold)
            // The deadlines run on a manual clock: what is asserted is which deadline ends which
            // request, and in what order, whatever the machine's speed.
            let clock = ManualClock()
            let time = PipelineClock(clock)
            let short = ResponseClient(
                transport: transport, timeouts: .init(overall: .milliseconds(300)), authentication: setup.session,
                clock: time)
            let long = ResponseClient(
                transport: transport, timeouts: .init(overall: .seconds(6)), authentication: setup.session,
                clock: time)
            let longEnded = Locked(0)
            func requests(_ client: ResponseClient, count: Int, ended: Locked<Int>? = nil)
                -> Task<[(Duration, Failure?)], Never>
            {
                Task {
                    await withTaskGroup(of: (Duration, Failure?).self) { group in
                        for _ in 0..<count {
                            group.addTask {
                                let result = await setup.result(client: client)
                                ended?.withLock { $0 += 1 }
                                return (time.now, failure(result, checks))
                            }
                        }
                        return await group.reduce(into: []) { $0.append($1) }
                    }
                }
            }
            let shortTask = requests(short, count: 5)
            let longTask = requests(long, count: 5, ended: longEnded)
            checks.expect(
                await eventually { setup.server.requests("/class").count == 10 && setup.tokens.refreshCount == 1 },
                "all 10 requests answered 11001 and one refresh sent")
            await clock.waitForSleepers(10)
            clock.advance(by: .milliseconds(300))
            let shortOutcomes = try await value(of: shortTask, checks)
            checks.expect(longEnded.withLock { $0 }, equals: 0, "6 s requests ended when the 300 ms deadline passed")
            clock.advance(by: .seconds(6) - .milliseconds(300))
            let longOutcomes = try await value(of: longTask, checks)
            for (deadline, outcomes) in [(Duration.milliseconds(300), shortOutcomes), (.seconds(6), longOutcomes)] {
                checks.expect(outcomes.count, equals: 5, "results with a \(deadline) deadline")
                for (endedAt, failure) in outcomes {
                    let timeout = failure?.underlyingError as? RequestTimeoutError
                    checks.expect(timeout?.limit, equals: .deadline, "the limit that ended the request")
                    checks.expect(timeout?.duration, equals: deadline, "the deadline")
                    checks.expect(endedAt, equals: deadline, "ended on the client's clock at")
                }
            }
            checks.expect(setup.tokens.refreshCount, equals: 1, "refreshes")
            checks.expect(setup.session.isRefreshing, "the refresh still runs")
        }
    }

    static func refreshWindow(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        let clock = ManualClock()
        try await withSession(transport, clock: clock) { setup in
            setup.tokens.protect("/class", payload: .envelope(0, data: joined))
            for expiry in 0..<5 {
                setup.tokens.expire()
                checks.expect(try? await setup.result().get(), equals: item, "the request after expiry \(expiry + 1)")
                clock.advance(by: .seconds(5))
            }
            setup.tokens.expire()  // the sixth expiry, 25 s after the first refresh
            let failure = failure(await setup.result(), checks)
            checks.expect(
                failure?.reauthenticationError?.reason, equals: .excessiveRefresh(.default), "the sixth's failure")
            checks.expect(failure?.requiresReauthentication, equals: true, "requires reauthentication")
            checks.expect(setup.tokens.refreshCount, equals: 5, "refreshes within the window")
            clock.advance(by: .seconds(6))
            checks.expect(try? await setup.result().get(), equals: item, "the request after the interval")
            checks.expect(setup.tokens.refreshCount, equals: 6, "refreshes after the interval")
        }
    }

    static func cancelOneWaiter(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withSession(transport) { setup in
            let refreshGate = LoopbackGate()
            setup.tokens.refreshGate = refreshGate
            setup.tokens.protect("/class", payload: .envelope(0, data: joined))
            setup.tokens.expire()
            let tasks = (0..<10).map { _ in Task { await setup.result() } }
            checks.expect(await refreshGate.waitForWaiting(1), "the refresh is at the token endpoint")
            checks.expect(await eventually { setup.session.waitingRequestCount == 10 }, "10 requests wait")
            tasks[3].cancel()
            let cancelled = try await value(of: tasks[3], checks)
            checks.expect(failure(cancelled, checks)?.isCancelled, equals: true, "the cancelled request's end")
            checks.expect(setup.session.isRefreshing, "the refresh goes on")
            refreshGate.open()
            for (index, task) in tasks.enumerated() where index != 3 {
                checks.expect(try? await value(of: task, checks).get(), equals: item, "request \(index)")
            }
            checks.expect(setup.tokens.refreshCount, equals: 1, "refreshes")
            checks.expect(setup.tokensSent().filter { $0 == "Bearer t-1" }.count, equals: 9, "replays with t-1")
        }
    }

    // MARK: - What asks for a refresh

    static func plain401(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withSession(transport) { setup in
            let unauthorized = LoopbackHTTPServer.Reply(
                status: 401, headers: ["Content-Type": "text/plain", "WWW-Authenticate": "Bearer"],
                body: Data("Unauthorized".utf8))
            setup.tokens.protect("/class", refusal: unauthorized, payload: .envelope(0, data: joined))
            setup.tokens.expire()
            checks.expect(try? await setup.result().get(), equals: item, "the replayed request")
            checks.expect(setup.tokensSent(), equals: ["Bearer t-0", "Bearer t-1"], "tokens sent")
            checks.expect(setup.refreshes.withLock { $0.map(\.trigger) }, equals: [.status(401)], "refresh events")
        }
    }

    static func postReplayed(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withSession(transport) { setup in
            setup.tokens.protect("/class/join", payload: .envelope(0, data: joined))
            setup.tokens.expire()
            checks.expect(try? await setup.result("/class/join", method: "POST").get(), equals: item, "the POST")
            let received = setup.server.requests("/class/join")
            checks.expect(received.map(\.method), equals: ["POST", "POST"], "methods received")
            checks.expect(
                received.map { String(decoding: $0.body, as: UTF8.self) },
                equals: Array(repeating: #"{"teamCode":"T-1"}"#, count: 2), "bodies received")
            checks.expect(
                received.map { $0.header("Authorization") }, equals: ["Bearer t-0", "Bearer t-1"], "tokens received")
        }
    }

    static func flaggedBaseCode(_ code: Int64, _ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withSession(transport) { setup in
            setup.tokens.protect(
                "/class", refusal: .envelope(code, message: "again"), payload: .envelope(0, data: joined))
            setup.tokens.expire()
            checks.expect(try? await setup.result().get(), equals: item, "the replayed request")
            checks.expect(setup.tokens.refreshCount, equals: 1, "refreshes")
            let refresh = setup.refreshes.withLock { $0.first }
            checks.expect(refresh?.trigger, equals: .code(code), "the refresh's trigger")
            checks.expect(refresh?.serverMessage, equals: "again", "the refresh's server message")
            checks.expect(refresh?.flags.contains(.reauthenticate), equals: true, "the code's flags")
        }
    }

    static func unflagged(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withSession(transport) { setup in
            setup.tokens.protect("/class", refusal: .envelope(11005), payload: .envelope(0, data: joined))
            setup.tokens.expire()
            checks.expect(failure(await setup.result(), checks)?.baseCode, equals: .appidLoginFailed, "the answer")
            checks.expect(setup.tokens.refreshCount, equals: 0, "refreshes")
            checks.expect(setup.events.withLock { $0.map(\.code) }, equals: [.appidLoginFailed], "base handler events")
        }
    }

    // MARK: - Forms

    static func completionHandler(_ transport: any HTTPTransport, _ checks: ScenarioChecks) async throws {
        try await withSession(transport) { setup in
            setup.tokens.protect("/class", payload: .envelope(0, data: joined))
            setup.tokens.expire()
            let calls = Locked(0)
            let result: Swift.Result<ClassItem, Failure> = await withCheckedContinuation { continuation in
                setup.client.send(setup.request("/class")) { (result: Swift.Result<ClassItem, Failure>) in
                    calls.withLock { $0 += 1 }
                    continuation.resume(returning: result)
                }
            }
            checks.expect(try? result.get(), equals: item, "the result called back")
            checks.expect(calls.withLock { $0 }, equals: 1, "calls back")
            checks.expect(setup.tokensSent(), equals: ["Bearer t-0", "Bearer t-1"], "tokens sent")
        }
    }
}
