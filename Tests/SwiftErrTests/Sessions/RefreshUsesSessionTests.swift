import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@testable import SwiftErr

/// A refresh whose own request goes through a client of the session it refreshes would wait for
/// itself for ever. The session knows which task runs its refresh (and the tasks that task starts),
/// refuses such a request at once with ``ReauthenticationError/Reason/refreshUsesSession``, and so
/// ends the refresh and every request waiting on it. A refresh through a client without the
/// session, or through another session, works; the refresh keeps the task-local values of the
/// request that started it.
@Suite("A refresh that uses its own session: refused at once, nothing hangs", .timeLimit(.minutes(2)))
struct RefreshUsesSessionTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    struct Token: Decodable, Sendable {
        let token: String
    }

    /// How the authenticator's refresh sends its token request.
    enum Sending: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// From the refresh itself.
        case directly
        /// From a child task of the refresh (`async let`).
        case fromAChildTask
        /// From an unstructured task the refresh starts (`Task {}`).
        case fromATask

        var testDescription: String { rawValue }
    }

    /// Asks the server for a token with a request of its own, through ``tokenClient`` (set once the
    /// session exists), as ``sending`` says; keeps what each token request got, and the value of
    /// ``Trace/id`` its refresh saw.
    final class ClientAuthenticator: Authenticator {
        let sending: Sending
        let tokenClient = Locked<ResponseClient?>(nil)
        let tokenResults = Locked<[Result<Token, Failure>]>([])
        let traces = Locked<[String?]>([])

        struct NoTokenClient: Error {}

        init(sending: Sending = .directly) {
            self.sending = sending
        }

        func apply(_ credential: String, to request: inout TransportRequest) {
            request.setValue("Bearer \(credential)", forHeader: "Authorization")
        }

        func refresh(_ credential: String) async throws -> String {
            traces.withLock { $0.append(Trace.id) }
            guard let client = tokenClient.withLock({ $0 }) else { throw NoTokenClient() }
            @Sendable func ask() async -> Result<Token, Failure> {
                await client.result(
                    TransportRequest(url: URL(string: "http://in-process/token")!, method: "POST"),
                    returning: Token.self, module: StudyGroupCode.self)
            }
            let result: Result<Token, Failure>
            switch sending {
            case .directly:
                result = await ask()
            case .fromAChildTask:
                async let asked = ask()
                result = await asked
            case .fromATask:
                result = await Task { await ask() }.value
            }
            tokenResults.withLock { $0.append(result) }
            return try result.get().token
        }

        func isRequest(_ request: TransportRequest, authenticatedWith credential: String) -> Bool {
            request.value(forHeader: "Authorization") == "Bearer \(credential)"
        }
    }

    enum Trace {
        @TaskLocal static var id: String?
    }

    /// A server whose `/token` issues a token and whose `/class` wants the current one; the first
    /// `held` requests to `/class` wait at `arrivals` until it opens.
    static func server(holding held: Int, at arrivals: AsyncGate) -> SessionServer {
        SessionServer { server, request, index in
            if request.url.path == "/token" {
                return SessionServer.envelope(0, data: #"{"token":"\#(server.issue())"}"#)
            }
            if index < held { await arrivals.pass() }
            return server.isAuthorized(request) ? SessionServer.joined : SessionServer.envelope(11001)
        }
    }

    /// `count` requests to `/class` at once, all answered 11001 together: one refresh for all.
    static func concurrent(
        _ count: Int, through client: ResponseClient, arrivals: AsyncGate
    ) async throws -> [Result<ClassItemModel, Failure>] {
        let results = Task {
            await withTaskGroup(of: Result<ClassItemModel, Failure>.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        await client.result(
                            TransportRequest(url: URL(string: "http://in-process/class")!),
                            returning: ClassItemModel.self, module: StudyGroupCode.self)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(await arrivals.waitForArrivals(count))
        arrivals.open()
        // Bounded: a refresh waiting for itself would never end.
        return try #require(await results.value(by: .now + .seconds(60)), "the requests did not end")
    }

    @Test(
        "the refresh's request through its own session fails at once with refreshUsesSession, unsent; every waiting request ends with reauthenticationFailed",
        arguments: Sending.allCases)
    func ownSessionIsRefused(sending: Sending) async throws {
        let arrivals = AsyncGate()
        let server = Self.server(holding: 10, at: arrivals)
        let authenticator = ClientAuthenticator(sending: sending)
        let session = AuthenticationSession(authenticator: authenticator, credential: "t-0", clock: ManualClock())
        let client = ResponseClient(transport: server, authentication: session)
        authenticator.tokenClient.withLock { $0 = client }  // the mistake
        server.expire()
        let outcomes = try await Self.concurrent(10, through: client, arrivals: arrivals)
        #expect(outcomes.count == 10)
        for outcome in outcomes {
            guard case .failure(let error) = outcome else {
                Issue.record("a request succeeded: \(outcome)")
                continue
            }
            let failure = try #require(error.reauthenticationError)
            #expect(failure.reason == .refreshFailed)
            let refused = (failure.underlyingError as? Failure)?.reauthenticationError
            #expect(refused?.reason == .refreshUsesSession)
        }
        let tokenResults = authenticator.tokenResults.withLock { $0 }
        #expect(tokenResults.count == 1)
        if case .failure(let error) = tokenResults.first {
            #expect(error.reauthenticationError?.reason == .refreshUsesSession)
        } else {
            Issue.record("the token request did not fail: \(tokenResults)")
        }
        #expect(server.requests.map(\.url.path) == Array(repeating: "/class", count: 10), "the token request unsent")
        #expect(session.refreshCount == 1)
        #expect(!session.isRefreshing)
        #expect(session.credential == "t-0")
    }

    @Test(
        "the refresh's request through a client without the session gets the token; every waiting request is replayed",
        arguments: Sending.allCases)
    func clientWithoutTheSession(sending: Sending) async throws {
        let arrivals = AsyncGate()
        let server = Self.server(holding: 10, at: arrivals)
        let authenticator = ClientAuthenticator(sending: sending)
        let session = AuthenticationSession(authenticator: authenticator, credential: "t-0", clock: ManualClock())
        let client = ResponseClient(transport: server, authentication: session)
        authenticator.tokenClient.withLock { $0 = ResponseClient(transport: server) }
        server.expire()
        let outcomes = try await Self.concurrent(10, through: client, arrivals: arrivals)
        #expect(try outcomes.map { try $0.get().classId } == Array(repeating: "c-1", count: 10))
        #expect(server.requests.filter { $0.url.path == "/token" }.count == 1)
        #expect(server.tokens.filter { $0 == "t-1" }.count == 10, "ten replays with the new token")
        #expect(session.refreshCount == 1)
        #expect(session.credential == "t-1")
    }

    @Test("the refresh's request through another session is not refused: only its own session waits for it")
    func anotherSession() async throws {
        let arrivals = AsyncGate()
        let server = Self.server(holding: 1, at: arrivals)
        // The token service is reached with a credential of its own, which is valid: its session
        // never refreshes.
        let service = AuthenticationSession(
            authenticator: BearerTokenAuthenticator(server: server), credential: "service-key", clock: ManualClock())
        let authenticator = ClientAuthenticator()
        let session = AuthenticationSession(authenticator: authenticator, credential: "t-0", clock: ManualClock())
        authenticator.tokenClient.withLock { $0 = ResponseClient(transport: server, authentication: service) }
        let client = ResponseClient(transport: server, authentication: session)
        server.expire()
        let outcomes = try await Self.concurrent(1, through: client, arrivals: arrivals)
        #expect(try outcomes.first?.get().classId == "c-1")
        #expect(server.requests.map(\.url.path) == ["/class", "/token", "/class"])
        #expect(server.tokens == ["t-0", "service-key", "t-1"])
        #expect(service.refreshCount == 0)
    }

    @Test("the refresh runs with the task-local values of the request that started it")
    func refreshKeepsTaskLocals() async throws {
        let server = Self.server(holding: 0, at: AsyncGate())
        let authenticator = ClientAuthenticator()
        let session = AuthenticationSession(authenticator: authenticator, credential: "t-0", clock: ManualClock())
        authenticator.tokenClient.withLock { $0 = ResponseClient(transport: server) }
        let client = ResponseClient(transport: server, authentication: session)
        server.expire()
        let result = await Trace.$id.withValue("request-7") {
            await client.result(
                TransportRequest(url: URL(string: "http://in-process/class")!), returning: ClassItemModel.self,
                module: StudyGroupCode.self)
        }
        #expect(try result.get().classId == "c-1")
        #expect(authenticator.traces.withLock { $0 } == ["request-7"])
    }
}
