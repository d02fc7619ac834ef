import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@testable import SwiftErr

/// The session mechanism in process: a ``ResponseClient`` with an ``AuthenticationSession`` over a
/// server in process (``SessionServer``), so the concurrency runs fast and under ThreadSanitizer
/// with no sockets. The same behaviour over real HTTP is tested in `SwiftErrURLSessionTests` and
/// the async-http-client package.
@Suite("AuthenticationSession: one refresh, every waiting request replayed", .timeLimit(.minutes(4)))
struct AuthenticationSessionTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    /// A client, its session, its server and what its base handler received.
    struct Setup {
        let server: SessionServer
        let authenticator: BearerTokenAuthenticator
        let session: AuthenticationSession<BearerTokenAuthenticator>
        let log = HandlerLog()
        let client: ResponseClient

        init(
            server: SessionServer = SessionServer(), gate: AsyncGate? = nil, failure: (any Error & Sendable)? = nil,
            matchesRequests: Bool = true, policy: RetryPolicy = .never, timeouts: ResponseClient.Timeouts = .none,
            window: RefreshWindow = .default, clock: ManualClock = ManualClock()
        ) {
            self.server = server
            authenticator = BearerTokenAuthenticator(
                server: server, gate: gate, failure: failure, matchesRequests: matchesRequests)
            session = AuthenticationSession(
                authenticator: authenticator, credential: "t-0", window: window, clock: clock)
            client = ResponseClient(
                transport: server, decoder: ResponseDecoder(baseHandler: log.handler), policy: policy,
                timeouts: timeouts, authentication: session)
        }

        func result(_ method: String = "GET") async -> Result<ClassItemModel, Failure> {
            await client.result(
                TransportRequest(url: URL(string: "http://in-process/class")!, method: method),
                returning: ClassItemModel.self, module: StudyGroupCode.self)
        }

        /// `count` requests at once, each in its own task.
        func concurrent(_ count: Int) async -> [Result<ClassItemModel, Failure>] {
            await withTaskGroup(of: Result<ClassItemModel, Failure>.self) { group in
                for _ in 0..<count { group.addTask { await result() } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
    }

    static func failure<Model>(_ result: Result<Model, Failure>) -> Failure? {
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return nil
        }
        return error
    }

    static let item = ClassItemModel(classId: "c-1", name: "Class 3-2")

    // MARK: - No refresh needed

    @Test("a request carries the current credential; with no refusal nothing is refreshed")
    func appliesCredential() async throws {
        let setup = Setup()
        #expect(try await setup.result().get() == Self.item)
        #expect(setup.server.tokens == ["t-0"])
        #expect(setup.authenticator.refreshCount == 0)
        #expect(setup.session.refreshCount == 0)
        #expect(setup.log.eventCount == 0 && setup.log.refreshCount == 0)
    }

    // MARK: - One refresh for everyone

    @Test("200 concurrent requests all refused with 11001: one refresh, 200 replays with the new token")
    func concurrentExpiry() async throws {
        let arrivals = AsyncGate()
        let server = SessionServer { server, request, index in
            // Hold the first 200 at the server until all have arrived, so every one is refused.
            if index < 200 { await arrivals.pass() }
            return server.isAuthorized(request)
                ? SessionServer.joined : SessionServer.envelope(11001, message: "token expire")
        }
        server.expire()
        let setup = Setup(server: server)
        let results = Task { await setup.concurrent(200) }
        #expect(await arrivals.waitForArrivals(200))
        arrivals.open()
        let outcomes = try #require(await Ending.value(of: results, by: .now + patience))
        #expect(outcomes.count == 200)
        #expect(outcomes.allSatisfy { (try? $0.get()) == Self.item })
        #expect(setup.authenticator.refreshCount == 1)
        #expect(setup.authenticator.refusedTokens == ["t-0"])
        let tokens = server.tokens
        #expect(tokens.count == 400)
        #expect(tokens.prefix(200).allSatisfy { $0 == "t-0" })
        #expect(tokens.dropFirst(200).allSatisfy { $0 == "t-1" })
        // The central handler saw one refresh, and no token expiry one by one.
        #expect(setup.log.eventCount == 0)
        let refreshes = setup.log.refreshes.withLock { $0 }
        #expect(refreshes.count == 1)
        #expect(refreshes.first?.trigger == .code(11001))
        #expect(refreshes.first?.module == "studyGroup")
        #expect(refreshes.first?.serverMessage == "token expire")
        #expect(refreshes.first?.flags.contains(.reauthenticate) == true)
        #expect(refreshes.first?.isFailure == false)
    }

    @Test("a request that starts during a refresh waits for it and is sent with the new token only")
    func startsDuringRefresh() async throws {
        let gate = AsyncGate()
        let setup = Setup(gate: gate)
        setup.server.expire()
        let first = Task { await setup.result() }
        #expect(await gate.waitForArrivals(1))
        let second = Task { await setup.result() }
        #expect(await eventually { setup.session.waitingRequestCount == 2 })
        gate.open()
        #expect(try await Ending.value(of: first, by: .now + patience)?.get() == Self.item)
        #expect(try await Ending.value(of: second, by: .now + patience)?.get() == Self.item)
        // The first was refused and replayed; the second was never sent with the old token.
        #expect(setup.server.tokens == ["t-0", "t-1", "t-1"])
        #expect(setup.authenticator.refreshCount == 1)
    }

    @Test("a request refused with a credential older than the current one is replayed without a second refresh")
    func olderCredential() async throws {
        let held = AsyncGate()
        let server = SessionServer { server, request, _ in
            if request.url.path == "/slow", request.value(forHeader: "Authorization") == "Bearer t-0" {
                await held.pass()
            }
            return server.isAuthorized(request) ? SessionServer.joined : SessionServer.envelope(11001)
        }
        let setup = Setup(server: server)
        let slow = Task {
            await setup.client.result(
                TransportRequest(url: URL(string: "http://in-process/slow")!), returning: ClassItemModel.self,
                module: StudyGroupCode.self)
        }
        #expect(await held.waitForArrivals(1))
        server.expire()
        #expect(try await setup.result().get() == Self.item)  // refused, refreshed to t-1, replayed
        held.open()
        #expect(try await Ending.value(of: slow, by: .now + patience)?.get() == Self.item)
        #expect(server.tokens == ["t-0", "t-0", "t-1", "t-1"])
        #expect(setup.authenticator.refreshCount == 1)
    }

    // MARK: - Failures

    @Test("a refresh that throws fails every waiting request with one typed error keeping the cause; none is replayed")
    func refreshFails() async throws {
        let arrivals = AsyncGate()
        let server = SessionServer { server, request, index in
            if index < 50 { await arrivals.pass() }
            return server.isAuthorized(request) ? SessionServer.joined : SessionServer.envelope(11001)
        }
        server.expire()
        let setup = Setup(server: server, failure: ServerRefreshFailed())
        let results = Task { await setup.concurrent(50) }
        #expect(await arrivals.waitForArrivals(50))
        arrivals.open()
        let outcomes = try #require(await Ending.value(of: results, by: .now + patience))
        for outcome in outcomes {
            let failure = Self.failure(outcome)?.reauthenticationError
            #expect(failure?.reason == .refreshFailed)
            #expect(failure?.underlyingError is ServerRefreshFailed)
        }
        #expect(setup.authenticator.refreshCount == 1)
        #expect(server.requests.count == 50)
        #expect(setup.log.refreshes.withLock { $0.map(\.isFailure) } == [true])
        // A new request after the failure gets a fresh chance: it starts a refresh of its own.
        #expect(Self.failure(await setup.result())?.reauthenticationError?.reason == .refreshFailed)
        #expect(setup.authenticator.refreshCount == 2)
    }

    @Test("a replay refused again fails with refusedAfterRefresh: no second refresh, no loop")
    func refusedAgain() async throws {
        let server = SessionServer { _, _, _ in SessionServer.envelope(11004, message: "auto login failed") }
        let setup = Setup(server: server)
        let failure = Self.failure(await setup.result())?.reauthenticationError
        #expect(failure?.reason == .refusedAfterRefresh)
        #expect((failure?.underlyingError as? Failure)?.baseCode == .autoLoginFailed)
        #expect(server.tokens == ["t-0", "t-1"])
        #expect(setup.authenticator.refreshCount == 1)
    }

    @Test(
        "when isRequest says the refused request did not carry the current credential, it is replayed without a refresh"
    )
    func isRequestConsulted() async throws {
        let setup = Setup(matchesRequests: false)
        setup.server.expire()
        let failure = Self.failure(await setup.result())?.reauthenticationError
        #expect(failure?.reason == .refusedAfterRefresh)
        #expect(setup.server.tokens == ["t-0", "t-0"])
        #expect(setup.authenticator.refreshCount == 0)
    }

    @Test(
        "the refresh window: a sixth refresh within 30 s fails with excessiveRefresh; after the interval it refreshes")
    func window() async throws {
        let clock = ManualClock()
        let setup = Setup(clock: clock)
        for _ in 0..<5 {
            setup.server.expire()
            #expect(try await setup.result().get() == Self.item)
            clock.advance(by: .seconds(5))
        }
        #expect(setup.authenticator.refreshCount == 5)
        setup.server.expire()  // at 25 s: five refreshes started within the last 30 s
        let failure = Self.failure(await setup.result())?.reauthenticationError
        #expect(failure?.reason == .excessiveRefresh(.default))
        #expect(failure?.underlyingError == nil)
        #expect(setup.authenticator.refreshCount == 5)
        clock.advance(by: .seconds(6))  // 31 s: the first refresh (at 0 s) has left the window
        #expect(try await setup.result().get() == Self.item)
        #expect(setup.authenticator.refreshCount == 6)
    }

    @Test("a refresh window with no refreshes or no time is a configuration error, not a crash")
    func windowValidation() throws {
        #expect(throws: RefreshWindow.ConfigurationError.nonPositiveMaximum(0)) {
            try RefreshWindow(maximumRefreshes: 0)
        }
        #expect(throws: RefreshWindow.ConfigurationError.nonPositiveMaximum(-3)) {
            try RefreshWindow(maximumRefreshes: -3, interval: .seconds(1))
        }
        #expect(throws: RefreshWindow.ConfigurationError.nonPositiveInterval(.zero)) {
            try RefreshWindow(interval: .zero)
        }
        #expect(throws: RefreshWindow.ConfigurationError.nonPositiveInterval(.seconds(-1))) {
            try RefreshWindow(maximumRefreshes: 2, interval: .seconds(-1))
        }
        #expect(
            RefreshWindow.ConfigurationError.nonPositiveMaximum(0).description
                == "a refresh window needs at least one refresh, not 0")
        let window = try RefreshWindow(maximumRefreshes: 1, interval: .milliseconds(500))
        #expect(window.maximumRefreshes == 1 && window.interval == .milliseconds(500))
        #expect(RefreshWindow.default == (try RefreshWindow()))
        #expect(RefreshWindow.default.description == "5 refreshes in 30.0 seconds")
    }

    // MARK: - Waiting ends on its own terms

    @Test("a waiting request ends at its deadline; the refresh goes on for the others")
    func deadlineWhileWaiting() async throws {
        let gate = AsyncGate()
        let setup = Setup(gate: gate)
        setup.server.expire()
        let patient = Task { await setup.result() }
        #expect(await gate.waitForArrivals(1))
        let hurried = ResponseClient(
            transport: setup.server, timeouts: .init(overall: .milliseconds(200)), authentication: setup.session)
        let started = ContinuousClock.now
        let timedOut = await hurried.result(
            TransportRequest(url: URL(string: "http://in-process/class")!), returning: ClassItemModel.self,
            module: StudyGroupCode.self)
        let waited = ContinuousClock.now - started
        let timeout = Self.failure(timedOut)?.underlyingError as? RequestTimeoutError
        #expect(timeout?.limit == .deadline)
        #expect(waited >= .milliseconds(200))
        #expect(setup.session.isRefreshing)
        gate.open()
        #expect(try await Ending.value(of: patient, by: .now + patience)?.get() == Self.item)
    }

    @Test("cancelling one of ten waiting requests ends it alone; the refresh and the nine others go on")
    func cancelOneWaiter() async throws {
        let gate = AsyncGate()
        let setup = Setup(gate: gate)
        setup.server.expire()
        let tasks = (0..<10).map { _ in Task { await setup.result() } }
        #expect(await eventually { setup.session.waitingRequestCount == 10 })
        tasks[3].cancel()
        let cancelled = try #require(await Ending.value(of: tasks[3], by: .now + patience))
        #expect(Self.failure(cancelled)?.isCancelled == true)
        #expect(setup.session.isRefreshing)
        #expect(setup.session.waitingRequestCount == 9)
        gate.open()
        for (index, task) in tasks.enumerated() where index != 3 {
            #expect(try await Ending.value(of: task, by: .now + patience)?.get() == Self.item)
        }
        #expect(setup.authenticator.refreshCount == 1)
        #expect(setup.server.tokens.filter { $0 == "t-1" }.count == 9)
    }

    @Test(
        "waiters cancelled at the moment the refresh ends: each ends exactly once, replayed or cancelled",
        arguments: 0..<20)
    func cancelAtRelease(round: Int) async throws {
        let gate = AsyncGate()
        let setup = Setup(gate: gate)
        setup.server.expire()
        let tasks = (0..<40).map { _ in Task { await setup.result() } }
        #expect(await eventually { setup.session.waitingRequestCount == 40 })
        // Release and cancel at the same time, from two tasks.
        async let release: Void = gate.open()
        async let cancel: Void = { for (index, task) in tasks.enumerated() where index % 2 == 0 { task.cancel() } }()
        _ = await (release, cancel)
        var replayed = 0
        for task in tasks {
            switch await Ending.value(of: task, by: .now + patience) {
            case .success(let item)?:
                #expect(item == Self.item)
                replayed += 1
            case .failure(let error)?:
                #expect(error.isCancelled, "round \(round): \(error)")
            case nil:
                break
            }
        }
        #expect(replayed >= 20, "round \(round): the 20 requests not cancelled are replayed")
        #expect(setup.authenticator.refreshCount == 1)
    }

    // MARK: - Credential set by the app

    @Test("setting the credential during a refresh releases the waiters with it; the refresh's result is ignored")
    func credentialSetDuringRefresh() async throws {
        let gate = AsyncGate()
        let setup = Setup(gate: gate)
        setup.server.expire()
        let waiting = Task { await setup.result() }
        #expect(await gate.waitForArrivals(1))
        let signedIn = setup.server.issue()  // "t-1": the person signed in elsewhere
        setup.session.credential = signedIn
        #expect(try await Ending.value(of: waiting, by: .now + patience)?.get() == Self.item)
        #expect(setup.server.tokens == ["t-0", "t-1"])
        gate.open()  // the abandoned refresh ends now and issues "t-2", which the session ignores
        #expect(await eventually { setup.server.state.withLock { $0.issued } == 2 })
        #expect(setup.session.credential == "t-1")
        #expect(setup.log.refreshCount == 0)
    }

    @Test("without a credential, requests are sent as they are and answers reach the caller and base handler as before")
    func signedOut() async throws {
        let setup = Setup()
        setup.session.credential = nil
        let error = Self.failure(await setup.result())
        #expect(error?.baseCode == .tokenExpire)
        #expect(setup.server.tokens == ["-"])
        #expect(setup.authenticator.refreshCount == 0)
        #expect(setup.log.eventCount == 1)
        #expect(setup.log.refreshCount == 0)
    }

    // MARK: - Replays and the retry policy

    @Test("a replay is not an attempt: with RetryPolicy.never a refused request is still replayed once")
    func replayIsNotAnAttempt() async throws {
        let setup = Setup(policy: .never)
        setup.server.expire()
        #expect(try await setup.result("POST").get() == Self.item)
        #expect(setup.server.requests.map(\.method) == ["POST", "POST"])
    }

    @Test(
        "a 503 after the replay goes to the policy as the attempt's failure; the decision hook never sees the refusal")
    func replayThenRetry() async throws {
        let server = SessionServer { server, request, index in
            guard server.isAuthorized(request) else { return SessionServer.envelope(11001) }
            return index == 1 ? SessionServer.status(503) : SessionServer.joined
        }
        server.expire()
        let policy = RetryPolicy(maxAttempts: 2, initialBackoff: .milliseconds(1), jitter: .none)
        let setup = Setup(server: server, policy: policy)
        let asked = Locked<[Int?]>([])
        let item = try await setup.client.send(
            TransportRequest(url: URL(string: "http://in-process/class")!), returning: ClassItemModel.self,
            module: StudyGroupCode.self,
            decide: { context in
                asked.withLock { $0.append(context.error.statusCode) }
                #expect(context.attempt == 1)
                return .retry
            })
        #expect(item == Self.item)
        #expect(server.tokens == ["t-0", "t-1", "t-1"])
        #expect(asked.withLock { $0 } == [503])
        #expect(setup.authenticator.refreshCount == 1)
    }

    @Test("a plain 401 starts the refresh; a status outside the session's statusCodes does not")
    func statusTrigger() async throws {
        let setup = Setup(server: SessionServer(refusal: SessionServer.status(401)))
        setup.server.expire()
        #expect(try await setup.result().get() == Self.item)
        #expect(setup.log.refreshes.withLock { $0.first?.trigger } == .status(401))
        #expect(setup.log.refreshes.withLock { $0.first?.flags } == [])

        let forbidden = Setup(server: SessionServer(refusal: SessionServer.status(403)))
        forbidden.server.expire()
        #expect(Self.failure(await forbidden.result())?.statusCode == 403)
        #expect(forbidden.authenticator.refreshCount == 0)
    }

    @Test("other base codes still reach the base handler once per response")
    func otherBaseCodes() async throws {
        let setup = Setup(server: SessionServer { _, _, _ in SessionServer.envelope(11002, message: "code expired") })
        #expect(Self.failure(await setup.result())?.baseCode == .verifyCodeExpire)
        #expect(Self.failure(await setup.result())?.baseCode == .verifyCodeExpire)
        #expect(setup.log.events.withLock { $0.map(\.code) } == [.verifyCodeExpire, .verifyCodeExpire])
        #expect(setup.log.events.withLock { $0.first?.serverMessage } == "code expired")
        #expect(setup.authenticator.refreshCount == 0)
    }

    @Test("a replay carries the new credential only: it is applied to the request as the caller made it")
    func replayStartsFromTheOriginal() async throws {
        /// Marks each request with a header field named after its credential, besides the token.
        struct Tagging: Authenticator {
            let server: SessionServer
            func apply(_ credential: String, to request: inout TransportRequest) {
                request.setValue("Bearer \(credential)", forHeader: "Authorization")
                request.setValue("1", forHeader: "X-Credential-\(credential)")
            }
            func refresh(_ credential: String) async throws -> String { server.issue() }
            func isRequest(_ request: TransportRequest, authenticatedWith credential: String) -> Bool {
                request.value(forHeader: "Authorization") == "Bearer \(credential)"
            }
        }
        let server = SessionServer()
        server.expire()
        let session = AuthenticationSession(authenticator: Tagging(server: server), credential: "t-0")
        let client = ResponseClient(transport: server, authentication: session)
        var request = TransportRequest(url: URL(string: "http://in-process/class")!)
        request.setValue("kept", forHeader: "X-Caller")
        let item = try await client.send(request, returning: ClassItemModel.self, module: StudyGroupCode.self)
        #expect(item == Self.item)
        let replay = try #require(server.requests.last)
        #expect(replay.value(forHeader: "X-Credential-t-1") == "1")
        #expect(replay.value(forHeader: "X-Credential-t-0") == nil)
        #expect(replay.value(forHeader: "X-Caller") == "kept")
    }

    // MARK: - The session without a client

    @Test("authenticate and reauthenticate, for pipelines of their own")
    func publicPipeline() async throws {
        let server = SessionServer()
        let authenticator = BearerTokenAuthenticator(server: server)
        let session = AuthenticationSession(authenticator: authenticator, credential: "t-0")
        let first = try await session.authenticate(TransportRequest(url: URL(string: "http://in-process/x")!))
        #expect(first.request.value(forHeader: "Authorization") == "Bearer t-0")
        server.expire()
        let log = HandlerLog()
        let again = try await session.reauthenticate(
            first, trigger: .code(11001), module: "studyGroup", observer: log.handler)
        #expect(again?.request.value(forHeader: "Authorization") == "Bearer t-1")
        #expect(log.refreshCount == 1)
        // The first request again (sent with t-0, now stale): replayed with t-1 without a refresh.
        let stale = try await session.reauthenticate(first, trigger: .status(401), module: "studyGroup")
        #expect(stale?.request.value(forHeader: "Authorization") == "Bearer t-1")
        #expect(authenticator.refreshCount == 1)
        session.credential = nil
        #expect(try await session.reauthenticate(first, trigger: .status(401), module: "studyGroup") == nil)
    }
}
