import AsyncHTTPClient
import Foundation
import NIOCore
import SwiftErr
import SwiftErrAsyncHTTPClient
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Synchronization
import Testing

/// Keeping a session alive on async-http-client, against a real HTTP server on 127.0.0.1 with a
/// token endpoint (`LoopbackTokenService`): the authenticator refreshes by POSTing to `/token`
/// through the same `HTTPClient`, and the protected paths answer only the current token. The
/// mechanism is `ResponseClient`'s, whatever the transport; these tests check it over this one.
@Suite("Sessions on async-http-client: one refresh, every waiting request replayed", .timeLimit(.minutes(4)))
struct SessionTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    struct ClassItem: Decodable, Equatable, Sendable {
        let classId: String
        let name: String
    }

    static let joined = #"{"classId":"c-1","name":"Class 3-2"}"#
    static let item = ClassItem(classId: "c-1", name: "Class 3-2")

    /// What the base handler received.
    final class Log: Sendable {
        let events = Mutex<[BaseCodeEvent]>([])
        let refreshes = Mutex<[SessionRefreshEvent]>([])

        var handler: BaseCodeHandler {
            BaseCodeHandler(
                { [self] event in self.events.withLock { $0.append(event) } },
                sessionRefresh: { [self] event in self.refreshes.withLock { $0.append(event) } })
        }
    }

    /// A server with a token service, an `HTTPClient` of the test's own that opens up to 128
    /// connections to it, a session refreshing at the token endpoint, and a client over them.
    struct Setup {
        let server: LoopbackHTTPServer
        let tokens: LoopbackTokenService
        let httpClient: HTTPClient
        let transport: AsyncHTTPClientTransport
        let session: AuthenticationSession<BearerAuthenticator>
        let log = Log()
        let client: ResponseClient

        init(clock: ManualClock = ManualClock(), policy: RetryPolicy = .never) throws {
            server = try LoopbackHTTPServer()
            tokens = LoopbackTokenService(server: server)
            var configuration = HTTPClient.Configuration()
            // 100 requests at once, each on a connection of its own (the server closes each one).
            configuration.connectionPool = .init(
                idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 128)
            httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            transport = AsyncHTTPClientTransport(client: httpClient)
            session = AuthenticationSession(
                authenticator: BearerAuthenticator(transport: transport, tokenURL: server.url("/token")),
                credential: "t-0", clock: clock)
            client = ResponseClient(
                transport: transport, decoder: ResponseDecoder(baseHandler: log.handler), policy: policy,
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
            -> Result<ClassItem, Failure>
        {
            await (client ?? self.client).result(
                request(path, method: method), returning: ClassItem.self, module: StudyGroupCode.self)
        }

        /// Protects `path`; its first `held` requests wait at `gate` before being judged.
        func protect(_ path: String, held: Int, at gate: LoopbackGate, refusal: LoopbackHTTPServer.Reply) {
            let tokens = self.tokens
            server.route(path) { request in
                if request.index < held { gate.pass() }
                return tokens.isAuthorized(request) ? .envelope(0, data: SessionTests.joined) : refusal
            }
        }

        func concurrent(_ count: Int) async -> [Result<ClassItem, Failure>] {
            await withTaskGroup(of: Result<ClassItem, Failure>.self) { group in
                for _ in 0..<count { group.addTask { await result() } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }

        func tokensSent(to path: String = "/class") -> [String] {
            server.requests(path).map { $0.header("Authorization") ?? "-" }
        }

        func tearDown() async throws {
            server.stop()
            try await httpClient.shutdown()
        }
    }

    /// Runs `body` with a new setup and always shuts its client and server down.
    static func withSetup(
        clock: ManualClock = ManualClock(), policy: RetryPolicy = .never, _ body: (Setup) async throws -> Void
    ) async throws {
        let setup = try Setup(clock: clock, policy: policy)
        do {
            try await body(setup)
        } catch {
            try await setup.tearDown()
            throw error
        }
        try await setup.tearDown()
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
        try await Self.withSetup { setup in
            let gate = LoopbackGate()
            setup.protect("/class", held: 100, at: gate, refusal: .envelope(11001, message: "token expire"))
            setup.tokens.expire()
            let started = ContinuousClock.now
            let task = Task { await setup.concurrent(100) }
            #expect(await gate.waitForWaiting(100), "all 100 requests reach the server before any is answered")
            gate.open()
            let results = await task.value
            let elapsed = ContinuousClock.now - started
            #expect(results.filter { (try? $0.get()) == Self.item }.count == 100)
            #expect(setup.tokens.refreshCount == 1, "the server saw exactly one refresh")
            let sent = setup.tokensSent()
            #expect(sent.count == 200)
            #expect(sent.prefix(100).allSatisfy { $0 == "Bearer t-0" })
            #expect(sent.dropFirst(100).allSatisfy { $0 == "Bearer t-1" })
            #expect(setup.log.events.withLock { $0.count } == 0)
            #expect(setup.log.refreshes.withLock { $0.map(\.trigger) } == [.code(11001)])
            print("sessions: 100 concurrent requests answered 11001 on async-http-client: 1 refresh, in \(elapsed)")
        }
    }

    @Test("a request in flight with the old token when the refresh completes is replayed, with no second refresh")
    func inFlightDuringRefresh() async throws {
        try await Self.withSetup { setup in
            let slowGate = LoopbackGate()
            setup.protect("/slow", held: 1, at: slowGate, refusal: .envelope(11001))
            setup.tokens.protect("/class", payload: .envelope(0, data: Self.joined))
            let slow = Task { await setup.result("/slow") }
            #expect(await slowGate.waitForWaiting(1))
            setup.tokens.expire()
            let replayed = try await setup.result().get()
            #expect(replayed == Self.item)
            slowGate.open()
            let slowItem = try await slow.value.get()
            #expect(slowItem == Self.item)
            #expect(setup.tokensSent(to: "/slow") == ["Bearer t-0", "Bearer t-1"])
            #expect(setup.tokens.refreshCount == 1)
        }
    }

    // MARK: - The refresh fails, hangs, or is refused by the window

    @Test("the token endpoint failing: all 100 requests fail with the typed error keeping the cause, none replayed")
    func refreshFailing() async throws {
        try await Self.withSetup { setup in
            let gate = LoopbackGate()
            setup.protect("/class", held: 100, at: gate, refusal: .envelope(11001))
            setup.tokens.expire()
            setup.tokens.failRefreshes(with: .status(500))
            let task = Task { await setup.concurrent(100) }
            #expect(await gate.waitForWaiting(100))
            gate.open()
            let results = await task.value
            #expect(results.count == 100)
            for result in results {
                let session = Self.failure(result)?.reauthenticationError
                #expect(session?.reason == .refreshFailed)
                #expect((session?.underlyingError as? Failure)?.statusCode == 500)
            }
            #expect(setup.tokens.refreshCount == 1)
            #expect(setup.server.requests("/class").count == 100, "none was replayed")
        }
    }

    @Test("the refresh hanging: each waiting request ends at its own deadline; one refresh")
    func refreshHanging() async throws {
        try await Self.withSetup { setup in
            setup.tokens.protect("/class", payload: .envelope(0, data: Self.joined))
            setup.tokens.expire()
            setup.tokens.failRefreshes(with: .hold)
            let short = ResponseClient(
                transport: setup.transport, timeouts: .init(overall: .milliseconds(300)),
                authentication: setup.session)
            let long = ResponseClient(
                transport: setup.transport, timeouts: .init(overall: .seconds(6)), authentication: setup.session)
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
            for (isShort, elapsed, failure) in outcomes {
                let timeout = failure?.underlyingError as? RequestTimeoutError
                #expect(timeout?.limit == .deadline)
                #expect(elapsed >= (isShort ? .milliseconds(300) : .seconds(6)))
                if isShort { #expect(elapsed < .seconds(6)) }
            }
            #expect(outcomes.count == 10)
            #expect(setup.tokens.refreshCount == 1)
        }
    }

    @Test("6 expiries in 30 s (manual clock): the sixth fails with the window; after the interval, a refresh again")
    func refreshWindow() async throws {
        let clock = ManualClock()
        try await Self.withSetup(clock: clock) { setup in
            setup.tokens.protect("/class", payload: .envelope(0, data: Self.joined))
            for _ in 0..<5 {
                setup.tokens.expire()
                let refreshed = try await setup.result().get()
                #expect(refreshed == Self.item)
                clock.advance(by: .seconds(5))
            }
            setup.tokens.expire()
            #expect(Self.failure(await setup.result())?.reauthenticationError?.reason == .excessiveRefresh(.default))
            #expect(setup.tokens.refreshCount == 5)
            clock.advance(by: .seconds(6))
            let afterWindow = try await setup.result().get()
            #expect(afterWindow == Self.item)
            #expect(setup.tokens.refreshCount == 6)
        }
    }

    @Test("one of 10 waiting requests cancelled: it ends at once; the refresh and the 9 others go on")
    func cancelOneWaiter() async throws {
        try await Self.withSetup { setup in
            let refreshGate = LoopbackGate()
            setup.tokens.refreshGate = refreshGate
            setup.tokens.protect("/class", payload: .envelope(0, data: Self.joined))
            setup.tokens.expire()
            let tasks = (0..<10).map { _ in Task { await setup.result() } }
            #expect(await refreshGate.waitForWaiting(1))
            let deadline = ContinuousClock.now + .seconds(30)
            while setup.session.waitingRequestCount < 10, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            #expect(setup.session.waitingRequestCount == 10)
            tasks[3].cancel()
            #expect(Self.failure(await tasks[3].value)?.isCancelled == true)
            #expect(setup.session.isRefreshing)
            refreshGate.open()
            for (index, task) in tasks.enumerated() where index != 3 {
                let waited = try await task.value.get()
                #expect(waited == Self.item)
            }
            #expect(setup.tokens.refreshCount == 1)
            #expect(setup.tokensSent().filter { $0 == "Bearer t-1" }.count == 9)
        }
    }

    // MARK: - What asks for a refresh

    @Test("a plain 401 without an envelope starts the refresh; the request is replayed")
    func plain401() async throws {
        try await Self.withSetup { setup in
            let unauthorized = LoopbackHTTPServer.Reply(
                status: 401, headers: ["Content-Type": "text/plain"], body: Data("Unauthorized".utf8))
            setup.tokens.protect("/class", refusal: unauthorized, payload: .envelope(0, data: Self.joined))
            setup.tokens.expire()
            let replayed = try await setup.result().get()
            #expect(replayed == Self.item)
            #expect(setup.tokensSent() == ["Bearer t-0", "Bearer t-1"])
            #expect(setup.log.refreshes.withLock { $0.map(\.trigger) } == [.status(401)])
        }
    }

    @Test("a POST refused with 11001 is replayed with its body")
    func postReplayed() async throws {
        try await Self.withSetup { setup in
            setup.tokens.protect("/class/join", payload: .envelope(0, data: Self.joined))
            setup.tokens.expire()
            let joined = try await setup.result("/class/join", method: "POST").get()
            #expect(joined == Self.item)
            let received = setup.server.requests("/class/join")
            #expect(received.map(\.method) == ["POST", "POST"])
            #expect(received.allSatisfy { String(decoding: $0.body, as: UTF8.self) == #"{"teamCode":"T-1"}"# })
            #expect(received.map { $0.header("Authorization") } == ["Bearer t-0", "Bearer t-1"])
        }
    }

    @Test("both codes the catalog flags reauthenticate start the refresh", arguments: [Int64(11001), 11004])
    func flaggedBaseCodes(code: Int64) async throws {
        try await Self.withSetup { setup in
            setup.tokens.protect("/class", refusal: .envelope(code), payload: .envelope(0, data: Self.joined))
            setup.tokens.expire()
            let replayed = try await setup.result().get()
            #expect(replayed == Self.item)
            #expect(setup.tokens.refreshCount == 1)
            #expect(setup.log.refreshes.withLock { $0.map(\.trigger) } == [.code(code)])
        }
    }

    @Test(
        "a catalog built in code that flags a new base code and a module's code reauthenticate: both refresh",
        arguments: [Int64(11090), 11_300_002])
    func catalogFlaggedCodes(code: Int64) async throws {
        try await Self.withSetup { setup in
            setup.tokens.protect("/lesson", refusal: .envelope(code), payload: .envelope(0, data: Self.joined))
            setup.tokens.expire()
            let item = try await setup.client.send(
                setup.request("/lesson"), returning: ClassItem.self, module: LessonCode.self)
            #expect(item == Self.item)
            #expect(setup.tokens.refreshCount == 1)
            // The same code for a module of the built-in catalog, which does not know it: no refresh.
            setup.tokens.expire()
            let other = Self.failure(
                await setup.client.result(
                    setup.request("/lesson"), returning: ClassItem.self, module: StudyGroupCode.self))
            #expect(other?.isUnexpectedCode == true)
            #expect(other?.rawCode == code)
            #expect(setup.tokens.refreshCount == 1)
        }
    }

    @Test("the completion-handler form, with a session: one call back, after the refresh and the replay")
    func completionHandler() async throws {
        try await Self.withSetup { setup in
            setup.tokens.protect("/class", payload: .envelope(0, data: Self.joined))
            setup.tokens.expire()
            let result: Result<ClassItem, Failure> = await withCheckedContinuation { continuation in
                setup.client.send(setup.request("/class")) { (result: Result<ClassItem, Failure>) in
                    continuation.resume(returning: result)
                }
            }
            let called = try result.get()
            #expect(called == Self.item)
            #expect(setup.tokensSent() == ["Bearer t-0", "Bearer t-1"])
        }
    }
}

/// The token the loopback endpoint issues, in its envelope's `data`.
struct IssuedToken: Decodable, Sendable {
    let token: String
}

/// A bearer-token authenticator whose refresh POSTs to the loopback token endpoint through the
/// transport under test.
struct BearerAuthenticator: Authenticator {
    let transport: any HTTPTransport
    let tokenURL: URL

    func apply(_ credential: String, to request: inout TransportRequest) {
        request.setValue("Bearer \(credential)", forHeader: "Authorization")
    }

    func refresh(_ credential: String) async throws -> String {
        let request = TransportRequest(
            url: tokenURL, method: "POST", body: Data(#"{"expired":"\#(credential)"}"#.utf8), timeout: .seconds(30))
        let response = try await transport.send(request)
        return try ResponseDecoder().decode(
            IssuedToken.self, module: StudyGroupCode.self, from: response.body, statusCode: response.statusCode
        ).token
    }

    func isRequest(_ request: TransportRequest, authenticatedWith credential: String) -> Bool {
        request.value(forHeader: "Authorization") == "Bearer \(credential)"
    }
}

/// A `lessons` module whose catalog is built in code, as an app without a catalog file would: the
/// built-in base tier plus a new base code flagged `reauthenticate` (11090), and the module with
/// one flagged code (11300002). The enum itself declares no flags.
enum LessonCode: ModuleCode {
    case lessonLocked
    case lessonSessionEnded
    case other(Int64)

    static var moduleName: String { "lessons" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Lessons") }
    static var codeRanges: [ClosedRange<Int64>] { [11_300_000...11_309_999] }
    static var listedCases: [Self] { [.lessonLocked, .lessonSessionEnded] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }

    static let classifier: ModuleClassifier<Self> = {
        var definition = Catalog.builtIn.definition
        definition.base.append(
            EntryDefinition(
                code: 11090, name: "sessionRevoked", flags: .reauthenticate,
                message: LocalizedText(english: "Your session was revoked.")))
        let module = ModuleDefinition(
            name: moduleName, title: moduleTitle, ranges: codeRanges,
            codes: [
                EntryDefinition(
                    code: 11_300_001, name: "lessonLocked", message: LocalizedText(english: "This lesson is locked.")),
                EntryDefinition(
                    code: 11_300_002, name: "lessonSessionEnded", flags: .reauthenticate,
                    message: LocalizedText(english: "Your lesson session ended.")),
            ])
        return ModuleClassifier(building: definition.adding(module))
    }()

    var code: Int64 {
        switch self {
        case .lessonLocked: return 11_300_001
        case .lessonSessionEnded: return 11_300_002
        case .other(let code): return code
        }
    }

    var message: LocalizedText { LocalizedText(english: name) }
}
