import Foundation
import HTTPTypes
import OpenAPIRuntime
import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrOpenAPI
import SwiftErrTesting
import Synchronization
import Testing

/// The middleware with an `AuthenticationSession`, called as a generated client calls it; `next`
/// plays the server, which accepts only the current token and answers 11001 (or 401) otherwise.
@Suite("EnvelopeMiddleware with a session: one refresh, each request sent again through next", .timeLimit(.minutes(1)))
struct EnvelopeMiddlewareSessionTests {
    typealias Middleware = EnvelopeMiddleware<StudyGroupCode>
    typealias Failure = ModuleRespError<StudyGroupCode>

    static let baseURL = URL(string: "https://api.example.com/v1")!
    static let joined = #"{"ret":0,"msg":"ok","data":{"classId":"c-1","name":"Class 3-2"}}"#

    /// The server behind `next`: the current token, what it received, and how it refuses.
    final class Server: Sendable {
        struct Received: Sendable {
            let authorization: String?
            let path: String?
            let body: String
        }

        private struct State {
            var current: String? = "t-0"
            var issued = 0
            var received: [Received] = []
        }

        private let state = Mutex(State())
        let refusal: @Sendable () -> (HTTPResponse, HTTPBody?)
        /// Holds the first `held` requests until that many have arrived.
        let held: Int
        /// Refuses every request, whatever its token.
        let refusesAll: Bool
        private let arrivals = Mutex<(count: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

        init(
            held: Int = 0, refusesAll: Bool = false,
            refusal: @escaping @Sendable () -> (HTTPResponse, HTTPBody?) = { json(#"{"ret":11001}"#) }
        ) {
            self.held = held
            self.refusesAll = refusesAll
            self.refusal = refusal
        }

        /// Answers a request as `next` does, reading its body as a transport would.
        func answer(_ request: HTTPRequest, _ body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody?) {
            var text = ""
            if let body { text = try await String(collecting: body, upTo: 1 << 16) }
            let authorization = request.headerFields[.authorization]
            let index = state.withLock { state in
                state.received.append(Received(authorization: authorization, path: request.path, body: text))
                return state.received.count - 1
            }
            if index < held { await arrive() }
            let current = state.withLock { $0.current }
            let accepted = !refusesAll && current != nil && authorization == "Bearer \(current!)"
            return accepted ? json(joined) : refusal()
        }

        private func arrive() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready: [CheckedContinuation<Void, Never>] = arrivals.withLock { arrivals in
                    arrivals.count += 1
                    arrivals.waiting.append(continuation)
                    guard arrivals.count >= held else { return [] }
                    defer { arrivals.waiting = [] }
                    return arrivals.waiting
                }
                for waiter in ready { waiter.resume() }
            }
        }

        func issue() -> String {
            state.withLock { state in
                state.issued += 1
                state.current = "t-\(state.issued)"
                return state.current!
            }
        }

        func expire() { state.withLock { $0.current = nil } }
        var received: [Received] { state.withLock { $0.received } }
        var authorizations: [String?] { received.map(\.authorization) }
    }

    /// What a refresh made to fail throws.
    struct Refused: Error {}

    /// SwiftErrTesting's bearer authenticator over the server: its refresh issues the server's next
    /// token, or throws ``Refused``.
    static func authenticator(_ server: Server, fails: Bool = false) -> BearerTokenAuthenticator {
        BearerTokenAuthenticator { _ in
            if fails { throw Refused() }
            return server.issue()
        }
    }

    /// What the base handler received.
    final class Log: Sendable {
        let events = Mutex<[BaseCodeEvent]>([])
        let refreshes = Mutex<[SessionRefreshEvent]>([])
        var decoder: ResponseDecoder {
            ResponseDecoder(
                baseHandler: BaseCodeHandler(
                    { [self] event in self.events.withLock { $0.append(event) } },
                    sessionRefresh: { [self] event in self.refreshes.withLock { $0.append(event) } }))
        }
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> (HTTPResponse, HTTPBody?) {
        var response = HTTPResponse(status: status)
        response.headerFields[.contentType] = "application/json"
        return (response, HTTPBody(text))
    }

    static func request(_ method: HTTPRequest.Method = .get) -> HTTPRequest {
        var request = HTTPRequest(method: method, scheme: "https", authority: "api.example.com", path: "/class/c-1?x=1")
        request.headerFields[.accept] = "application/json"
        return request
    }

    static func run(
        _ middleware: Middleware, _ server: Server, body: HTTPBody? = nil, method: HTTPRequest.Method = .get
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        try await middleware.intercept(request(method), body: body, baseURL: baseURL, operationID: "getClass") {
            request, body, _ in try await server.answer(request, body)
        }
    }

    static func text(_ body: HTTPBody?) async throws -> String {
        guard let body else { return "" }
        return try await String(collecting: body, upTo: 1 << 20)
    }

    /// The typed error a run throws, as `withModuleErrors` gives it to the app.
    static func failure(_ operation: () async throws -> (HTTPResponse, HTTPBody?)) async -> Failure? {
        do {
            _ = try await withModuleErrors(StudyGroupCode.self) { try await operation() }
            Issue.record("expected a failure")
            return nil
        } catch {
            return error
        }
    }

    @Test("11001: one refresh, the request sent again through next with the new credential, the success passed on")
    func refreshedAndSentAgain() async throws {
        let server = Server()
        let authenticator = Self.authenticator(server)
        let log = Log()
        let middleware = Middleware(
            decoder: log.decoder,
            authentication: AuthenticationSession(authenticator: authenticator, credential: "t-0"))
        #expect(try await Self.text(Self.run(middleware, server).1) == Self.joined)  // t-0 still accepted
        server.expire()
        let (response, body) = try await Self.run(middleware, server, body: HTTPBody(#"{"n":1}"#), method: .post)
        #expect(response.status == .ok)
        #expect(try await Self.text(body) == Self.joined)
        #expect(server.authorizations == ["Bearer t-0", "Bearer t-0", "Bearer t-1"])
        #expect(server.received.last?.body == #"{"n":1}"#, "the body is sent again")
        #expect(server.received.last?.path == "/class/c-1?x=1")
        #expect(authenticator.refreshCount == 1)
        #expect(log.events.withLock { $0.count } == 0)
        #expect(log.refreshes.withLock { $0.map(\.trigger) } == [.code(11001)])
    }

    @Test("a 401, which the middleware otherwise passes on, starts the refresh; the request is sent again")
    func unauthorized() async throws {
        let server = Server(refusal: { (HTTPResponse(status: .unauthorized), HTTPBody("Unauthorized")) })
        server.expire()
        let authenticator = Self.authenticator(server)
        let middleware = Middleware(
            authentication: AuthenticationSession(authenticator: authenticator, credential: "t-0"))
        let (response, body) = try await Self.run(middleware, server)
        #expect(response.status == .ok)
        #expect(try await Self.text(body) == Self.joined)
        #expect(server.authorizations == ["Bearer t-0", "Bearer t-1"])
    }

    @Test("50 operations refused at once: one refresh, each sent again once")
    func concurrent() async throws {
        let server = Server(held: 50)
        server.expire()
        let authenticator = Self.authenticator(server)
        let middleware = Middleware(
            authentication: AuthenticationSession(authenticator: authenticator, credential: "t-0"))
        let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
            for _ in 0..<50 { group.addTask { try await Self.run(middleware, server).0.status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: .ok, count: 50))
        #expect(authenticator.refreshCount == 1)
        let authorizations = server.authorizations
        #expect(authorizations.prefix(50).allSatisfy { $0 == "Bearer t-0" })
        #expect(authorizations.dropFirst(50).count == 50)
        #expect(authorizations.dropFirst(50).allSatisfy { $0 == "Bearer t-1" })
    }

    @Test("a streamed body (iterated once) is not sent again: the session is renewed, the request ends with its answer")
    func streamedBody() async throws {
        let server = Server()
        server.expire()
        let authenticator = Self.authenticator(server)
        let log = Log()
        let middleware = Middleware(
            decoder: log.decoder,
            authentication: AuthenticationSession(authenticator: authenticator, credential: "t-0"))
        let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
            continuation.yield(ArraySlice(#"{"n":1}"#.utf8))
            continuation.finish()
        }
        let body = HTTPBody(stream, length: .known(7))
        #expect(body.iterationBehavior == .single)
        let failure = await Self.failure { try await Self.run(middleware, server, body: body, method: .post) }
        #expect(failure?.baseCode == .tokenExpire)
        #expect(server.received.count == 1, "not sent again")
        #expect(authenticator.refreshCount == 1, "the session is renewed")
        #expect(log.refreshes.withLock { $0.count } == 1)
        // The next request carries the new credential.
        #expect(try await Self.run(middleware, server).0.status == .ok)
        #expect(server.authorizations.last == "Bearer t-1")
    }

    @Test("a request refused again after the refresh fails with refusedAfterRefresh, not a loop")
    func refusedAgain() async throws {
        let server = Server(refusesAll: true, refusal: { Self.json(#"{"ret":11004}"#) })
        let authenticator = Self.authenticator(server)
        let middleware = Middleware(
            authentication: AuthenticationSession(authenticator: authenticator, credential: "x"))
        let failure = await Self.failure { try await Self.run(middleware, server) }
        #expect(failure?.reauthenticationError?.reason == .refusedAfterRefresh)
        #expect((failure?.reauthenticationError?.underlyingError as? Failure)?.baseCode == .autoLoginFailed)
        #expect(server.received.count == 2)
        #expect(authenticator.refreshCount == 1)
    }

    @Test("a refresh that throws: the typed error, keeping the cause, through ClientError and withModuleErrors")
    func refreshFails() async throws {
        let server = Server()
        server.expire()
        let authenticator = Self.authenticator(server, fails: true)
        let middleware = Middleware(
            authentication: AuthenticationSession(authenticator: authenticator, credential: "t-0"))
        let failure = await Self.failure {
            do {
                return try await Self.run(middleware, server)
            } catch {
                // As a generated client wraps what a middleware throws.
                throw ClientError(
                    operationID: "getClass", operationInput: "c-1", causeDescription: "Middleware threw an error.",
                    underlyingError: error)
            }
        }
        #expect(failure?.reauthenticationError?.reason == .refreshFailed)
        #expect(failure?.reauthenticationError?.underlyingError is Refused)
        #expect(failure?.suggestedRecovery == .signIn)
        #expect(server.received.count == 1)
    }

    @Test("without a credential, requests go as they are and the answer is the caller's, as without a session")
    func signedOut() async throws {
        let server = Server()
        let authenticator = Self.authenticator(server)
        let log = Log()
        let middleware = Middleware(
            decoder: log.decoder, authentication: AuthenticationSession(authenticator: authenticator, credential: nil))
        let failure = await Self.failure { try await Self.run(middleware, server) }
        #expect(failure?.baseCode == .tokenExpire)
        #expect(server.authorizations == [nil])
        #expect(authenticator.refreshCount == 0)
        #expect(log.events.withLock { $0.count } == 1)
    }
}
