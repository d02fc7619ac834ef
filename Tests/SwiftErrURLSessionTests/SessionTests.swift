import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import SwiftErrURLSession
import Testing

/// Keeping a session alive on URLSession, against a real HTTP server on 127.0.0.1 with a token
/// endpoint (``LoopbackTokenService``): the authenticator refreshes by POSTing to `/token` through
/// URLSession, and the protected paths answer only the current token.
///
/// To make "every request is refused" certain rather than likely, the protected path holds the
/// first requests at a gate until all of them have reached the server; nothing else waits in real
/// time but the deadlines under test.
@Suite("Sessions on URLSession: one refresh, every waiting request replayed", .timeLimit(.minutes(4)))
struct SessionTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    static let joined = #"{"classId":"c-1","name":"Class 3-2"}"#
    static let item = ClassItemModel(classId: "c-1", name: "Class 3-2")

    /// A server with a token service, a URLSession of the test's own, a session whose authenticator
    /// refreshes at the token endpoint, and a client whose base handler records what it receives.
    struct Setup {
        let server: LoopbackHTTPServer
        let tokens: LoopbackTokenService
        let urlSession: URLSession
        let session: AuthenticationSession<LoopbackBearerAuthenticator>
        let events = Locked<[BaseCodeEvent]>([])
        let refreshes = Locked<[SessionRefreshEvent]>([])
        let client: ResponseClient

        init(
            window: RefreshWindow = .default, clock: ManualClock = ManualClock(),
            timeouts: ResponseClient.Timeouts = .none
        ) throws {
            server = try LoopbackHTTPServer()
            tokens = LoopbackTokenService(server: server)
            let configuration = URLSessionConfiguration.ephemeral
            // 100 requests at once, each on a connection of its own (the server closes each one).
            configuration.httpMaximumConnectionsPerHost = 128
            // A held refresh stays held for the whole test, however long a loaded machine makes it
            // (URLSession's own idle limit, 60 s, would end it).
            configuration.timeoutIntervalForRequest = 3600
            urlSession = URLSession(configuration: configuration)
            let transport = URLSessionTransport(session: urlSession)
            session = AuthenticationSession(
                authenticator: LoopbackBearerAuthenticator(transport: transport, tokenURL: server.url("/token")),
                credential: "t-0", window: window, clock: clock)
            let events = self.events
            let refreshes = self.refreshes
            let handler = BaseCodeHandler(
                { event in events.withLock { $0.append(event) } },
                sessionRefresh: { event in refreshes.withLock { $0.append(event) } })
            client = ResponseClient(
                transport: transport, decoder: ResponseDecoder(baseHandler: handler), policy: .never,
                timeouts: timeouts, authentication: session)
        }

        func request(_ path: String, method: String = "GET") -> URLRequest {
            var request = URLRequest(url: server.url(path))
            request.httpMethod = method
            if method == "POST" {
                request.httpBody = Data(#"{"teamCode":"T-1"}"#.utf8)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            return request
        }

        func result(_ path: String = "/class", method: String = "GET", client: ResponseClient? = nil) async
            -> Result<ClassItemModel, Failure>
        {
            await (client ?? self.client).result(
                request(path, method: method), returning: ClassItemModel.self, module: StudyGroupCode.self)
        }

        /// Protects `path`; its first `held` requests wait at `gate` before being judged.
        func protect(_ path: String, held: Int, at gate: LoopbackGate, refusal: LoopbackHTTPServer.Reply) {
            let tokens = self.tokens
            server.route(path) { request in
                if request.index < held { gate.pass() }
                return tokens.isAuthorized(request) ? .envelope(0, data: SessionTests.joined) : refusal
            }
        }

        /// `count` requests at once.
        func concurrent(_ count: Int, _ path: String = "/class") -> Task<[Result<ClassItemModel, Failure>], Never> {
            Task {
                await withTaskGroup(of: Result<ClassItemModel, Failure>.self) { group in
                    for _ in 0..<count { group.addTask { await result(path) } }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
        }

        /// The tokens the requests to `path` carried, in the order they arrived.
        func tokensSent(to path: String = "/class") -> [String] {
            server.requests(path).map { $0.header("Authorization") ?? "-" }
        }

        func tearDown() {
            urlSession.invalidateAndCancel()
            server.stop()
        }
    }

    static func failure<Model>(_ result: Result<Model, Failure>) -> Failure? {
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return nil
        }
        return error
    }

    // MARK: - One refresh

    @Test(
        "100 concurrent requests all answered 11001: exactly 1 refresh, 100 replays with the new token, 100 successes")
    func hundredConcurrent() async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        let gate = LoopbackGate()
        setup.protect("/class", held: 100, at: gate, refusal: .envelope(11001, message: "token expire"))
        setup.tokens.expire()
        let started = ContinuousClock.now
        let task = setup.concurrent(100)
        #expect(await gate.waitForWaiting(100), "all 100 requests reach the server before any is answered")
        gate.open()
        let results = try #require(await Bounded.value(of: task))
        let elapsed = ContinuousClock.now - started
        #expect(results.count == 100)
        #expect(results.filter { (try? $0.get()) == Self.item }.count == 100)
        #expect(setup.tokens.refreshCount == 1, "the server saw exactly one refresh")
        let sent = setup.tokensSent()
        #expect(sent.count == 200)
        #expect(sent.prefix(100).allSatisfy { $0 == "Bearer t-0" })
        #expect(sent.dropFirst(100).allSatisfy { $0 == "Bearer t-1" })
        #expect(setup.events.withLock { $0.count } == 0, "no token expiry reached the base handler one by one")
        #expect(setup.refreshes.withLock { $0.map(\.trigger) } == [.code(11001)])
        print("sessions: 100 concurrent requests answered 11001 on URLSession: 1 refresh, 100 replays, in \(elapsed)")
    }

    @Test("a request in flight with the old token when the refresh completes is replayed, with no second refresh")
    func inFlightDuringRefresh() async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        let slowGate = LoopbackGate()
        setup.protect("/slow", held: 1, at: slowGate, refusal: .envelope(11001))
        setup.tokens.protect("/class", payload: .envelope(0, data: Self.joined))
        let slow = Task { await setup.result("/slow") }
        #expect(await slowGate.waitForWaiting(1), "the slow request is at the server with t-0")
        setup.tokens.expire()
        #expect(try await setup.result("/class").get() == Self.item)  // refused, refreshed to t-1, replayed
        #expect(setup.tokens.refreshCount == 1)
        slowGate.open()  // the slow request is judged now: t-0 is refused
        #expect(try await Bounded.value(of: slow)?.get() == Self.item)
        #expect(setup.tokensSent(to: "/slow") == ["Bearer t-0", "Bearer t-1"])
        #expect(setup.tokens.refreshCount == 1, "no second refresh")
        #expect(setup.session.refreshCount == 1)
    }

    // MARK: - The refresh fails, hangs, or is refused by the window

    @Test("the token endpoint failing: all 100 requests fail with the typed error keeping the cause, none replayed")
    func refreshFailing() async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        let gate = LoopbackGate()
        setup.protect("/class", held: 100, at: gate, refusal: .envelope(11001))
        setup.tokens.expire()
        setup.tokens.failRefreshes(with: .status(500))
        let task = setup.concurrent(100)
        #expect(await gate.waitForWaiting(100))
        gate.open()
        let results = try #require(await Bounded.value(of: task))
        #expect(results.count == 100)
        for result in results {
            let failure = Self.failure(result)
            let session = failure?.reauthenticationError
            #expect(session?.reason == .refreshFailed)
            #expect((session?.underlyingError as? Failure)?.statusCode == 500, "the refresh's own error is kept")
            #expect(failure?.isRetryable == false)
            #expect(failure?.suggestedRecovery == .signIn)
        }
        #expect(setup.tokens.refreshCount == 1)
        #expect(setup.server.requests("/class").count == 100, "none was replayed")
        #expect(setup.refreshes.withLock { $0.map(\.isFailure) } == [true])
    }

    @Test("the refresh hanging: each waiting request ends at its own deadline; one refresh")
    func refreshHanging() async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        setup.tokens.protect("/class", payload: .envelope(0, data: Self.joined))
        setup.tokens.expire()
        setup.tokens.failRefreshes(with: .hold)
        let transport = URLSessionTransport(session: setup.urlSession)
        let short = ResponseClient(
            transport: transport, timeouts: .init(overall: .milliseconds(300)), authentication: setup.session)
        let long = ResponseClient(
            transport: transport, timeouts: .init(overall: .seconds(6)), authentication: setup.session)
        let outcomes = await withTaskGroup(of: (Bool, Duration, Failure?).self) { group in
            for index in 0..<10 {
                let isShort = index % 2 == 0
                group.addTask {
                    let started = ContinuousClock.now
                    let result = await setup.result(client: isShort ? short : long)
                    return (isShort, ContinuousClock.now - started, Self.failure(result))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 10)
        for (isShort, elapsed, failure) in outcomes {
            let timeout = failure?.underlyingError as? RequestTimeoutError
            #expect(timeout?.limit == .deadline)
            #expect(timeout?.duration == (isShort ? .milliseconds(300) : .seconds(6)))
            #expect(elapsed >= (isShort ? .milliseconds(300) : .seconds(6)))
            if isShort { #expect(elapsed < .seconds(6), "a 300 ms deadline does not wait for the 6 s ones") }
        }
        #expect(setup.tokens.refreshCount == 1)
        #expect(setup.session.isRefreshing)
    }

    @Test("6 expiries in 30 s (manual clock): the sixth fails with the window; after the interval, a refresh again")
    func refreshWindow() async throws {
        let clock = ManualClock()
        let setup = try Setup(clock: clock)
        defer { setup.tearDown() }
        setup.tokens.protect("/class", payload: .envelope(0, data: Self.joined))
        for _ in 0..<5 {
            setup.tokens.expire()
            #expect(try await setup.result().get() == Self.item)
            clock.advance(by: .seconds(5))
        }
        setup.tokens.expire()  // the sixth expiry, 25 s after the first refresh
        let failure = Self.failure(await setup.result())
        #expect(failure?.reauthenticationError?.reason == .excessiveRefresh(.default))
        #expect(failure?.requiresReauthentication == true)
        #expect(setup.tokens.refreshCount == 5)
        clock.advance(by: .seconds(6))
        #expect(try await setup.result().get() == Self.item)
        #expect(setup.tokens.refreshCount == 6)
    }

    @Test("one of 10 waiting requests cancelled: it ends at once; the refresh and the 9 others go on")
    func cancelOneWaiter() async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        let refreshGate = LoopbackGate()
        setup.tokens.refreshGate = refreshGate
        setup.tokens.protect("/class", payload: .envelope(0, data: Self.joined))
        setup.tokens.expire()
        let tasks = (0..<10).map { _ in Task { await setup.result() } }
        #expect(await refreshGate.waitForWaiting(1), "the refresh is at the token endpoint")
        #expect(await Bounded.until { setup.session.waitingRequestCount == 10 })
        tasks[3].cancel()
        let cancelled = try #require(await Bounded.value(of: tasks[3]))
        #expect(Self.failure(cancelled)?.isCancelled == true)
        #expect(setup.session.isRefreshing, "the refresh goes on")
        refreshGate.open()
        for (index, task) in tasks.enumerated() where index != 3 {
            #expect(try await Bounded.value(of: task)?.get() == Self.item)
        }
        #expect(setup.tokens.refreshCount == 1)
        #expect(setup.tokensSent().filter { $0 == "Bearer t-1" }.count == 9)
    }

    // MARK: - What asks for a refresh

    @Test("a plain 401 without an envelope starts the refresh; the request is replayed")
    func plain401() async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        let unauthorized = LoopbackHTTPServer.Reply(
            status: 401, headers: ["Content-Type": "text/plain", "WWW-Authenticate": "Bearer"],
            body: Data("Unauthorized".utf8))
        setup.tokens.protect("/class", refusal: unauthorized, payload: .envelope(0, data: Self.joined))
        setup.tokens.expire()
        #expect(try await setup.result().get() == Self.item)
        #expect(setup.tokensSent() == ["Bearer t-0", "Bearer t-1"])
        #expect(setup.refreshes.withLock { $0.map(\.trigger) } == [.status(401)])
    }

    @Test("a POST refused with 11001 is replayed with its body, whatever its method")
    func postReplayed() async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        setup.tokens.protect("/class/join", payload: .envelope(0, data: Self.joined))
        setup.tokens.expire()
        #expect(try await setup.result("/class/join", method: "POST").get() == Self.item)
        let received = setup.server.requests("/class/join")
        #expect(received.map(\.method) == ["POST", "POST"])
        #expect(
            received.map { String(decoding: $0.body, as: UTF8.self) }
                == Array(repeating: #"{"teamCode":"T-1"}"#, count: 2))
        #expect(received.map { $0.header("Authorization") } == ["Bearer t-0", "Bearer t-1"])
    }

    @Test("both codes the catalog flags reauthenticate start the refresh", arguments: [Int64(11001), 11004])
    func flaggedBaseCodes(code: Int64) async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        setup.tokens.protect(
            "/class", refusal: .envelope(code, message: "again"), payload: .envelope(0, data: Self.joined))
        setup.tokens.expire()
        #expect(try await setup.result().get() == Self.item)
        #expect(setup.tokens.refreshCount == 1)
        let refresh = setup.refreshes.withLock { $0.first }
        #expect(refresh?.trigger == .code(code))
        #expect(refresh?.serverMessage == "again")
        #expect(refresh?.flags.contains(.reauthenticate) == true)
    }

    @Test("a code the catalog does not flag is the caller's: no refresh, the base handler sees it")
    func unflaggedBaseCode() async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        setup.tokens.protect("/class", refusal: .envelope(11005), payload: .envelope(0, data: Self.joined))
        setup.tokens.expire()
        #expect(Self.failure(await setup.result())?.baseCode == .appidLoginFailed)
        #expect(setup.tokens.refreshCount == 0)
        #expect(setup.events.withLock { $0.map(\.code) } == [.appidLoginFailed])
    }

    // MARK: - Forms

    @Test("the completion-handler form, with a session: one call back, after the refresh and the replay")
    func completionHandler() async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        setup.tokens.protect("/class", payload: .envelope(0, data: Self.joined))
        setup.tokens.expire()
        let calls = Locked(0)
        let result: Result<ClassItemModel, Failure> = await withCheckedContinuation { continuation in
            setup.client.send(setup.request("/class")) { (result: Result<ClassItemModel, Failure>) in
                calls.withLock { $0 += 1 }
                continuation.resume(returning: result)
            }
        }
        #expect(try result.get() == Self.item)
        #expect(calls.withLock { $0 } == 1)
        #expect(setup.tokensSent() == ["Bearer t-0", "Bearer t-1"])
    }
}

/// The token the loopback endpoint issues, in its envelope's `data`.
struct IssuedToken: Decodable, Sendable {
    let token: String
}

/// A bearer-token authenticator whose refresh POSTs to the loopback token endpoint through the
/// transport under test, as an app's refresh calls its own token endpoint.
struct LoopbackBearerAuthenticator: Authenticator {
    let transport: any HTTPTransport
    let tokenURL: URL

    func apply(_ credential: String, to request: inout TransportRequest) {
        request.setValue("Bearer \(credential)", forHeader: "Authorization")
    }

    func refresh(_ credential: String) async throws -> String {
        let request = TransportRequest(
            url: tokenURL, method: "POST", headerFields: ["Content-Type": "application/json"],
            body: Data(#"{"expired":"\#(credential)"}"#.utf8), timeout: .seconds(30))
        let response = try await transport.send(request)
        return try ResponseDecoder().decode(
            IssuedToken.self, module: StudyGroupCode.self, from: response.body, statusCode: response.statusCode
        ).token
    }

    func isRequest(_ request: TransportRequest, authenticatedWith credential: String) -> Bool {
        request.value(forHeader: "Authorization") == "Bearer \(credential)"
    }
}
