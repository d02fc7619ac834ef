import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@testable import SwiftErr

/// ``AuthenticationSession/refreshEvents(bufferingNewest:)``: every listener hears of every refresh
/// once, whichever client's request started it, before the waiting requests go on; a listener that
/// goes away is unregistered; one that falls behind keeps the newest events.
@Suite("AuthenticationSession.refreshEvents: one event per refresh, to every listener", .timeLimit(.minutes(2)))
struct RefreshEventsTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    /// Issues a new token on each refresh, except the refreshes numbered in `failing` (0-based).
    struct ScriptedAuthenticator: Authenticator {
        struct RefreshFailed: Error {}

        let server: SessionServer
        let failing: Set<Int>
        let count = Locked(0)

        func apply(_ credential: String, to request: inout TransportRequest) {
            request.setValue("Bearer \(credential)", forHeader: "Authorization")
        }

        func refresh(_ credential: String) async throws -> String {
            let number = count.withLock { count in
                defer { count += 1 }
                return count
            }
            if failing.contains(number) { throw RefreshFailed() }
            return server.issue()
        }

        func isRequest(_ request: TransportRequest, authenticatedWith credential: String) -> Bool {
            request.value(forHeader: "Authorization") == "Bearer \(credential)"
        }
    }

    /// A server that refuses a request without the current token: `/status` with 401, anything else
    /// with 11001 and the message `expired <n>`, n its request number.
    static func server() -> SessionServer {
        SessionServer { server, request, index in
            if server.isAuthorized(request) { return SessionServer.joined }
            return request.url.path == "/status"
                ? SessionServer.status(401) : SessionServer.envelope(11001, message: "expired \(index)")
        }
    }

    static func result(_ client: ResponseClient, _ path: String = "/class") async -> Result<ClassItemModel, Failure> {
        await client.result(
            TransportRequest(url: URL(string: "http://in-process\(path)")!), returning: ClassItemModel.self,
            module: StudyGroupCode.self)
    }

    /// The first `count` events of a stream, or `nil` when they do not arrive within a minute.
    static func first(_ count: Int, of events: AsyncStream<SessionRefreshEvent>) async -> [SessionRefreshEvent]? {
        let reading = Task {
            var read: [SessionRefreshEvent] = []
            for await event in events {
                read.append(event)
                if read.count == count { break }
            }
            return read
        }
        return await reading.value(by: .now + .seconds(60))
    }

    @Test("each listener gets one event per refresh, in order, whichever client's request started it")
    func everyListenerEveryRefresh() async throws {
        let server = Self.server()
        let session = AuthenticationSession(
            authenticator: ScriptedAuthenticator(server: server, failing: [1]), credential: "t-0",
            clock: ManualClock())
        let first = session.refreshEvents()
        let second = session.refreshEvents()
        #expect(session.refreshListenerCount == 2)
        let log = HandlerLog()
        let one = ResponseClient(
            transport: server, decoder: ResponseDecoder(baseHandler: log.handler), authentication: session)
        let other = ResponseClient(transport: server, authentication: session)
        server.expire()
        #expect(try await Self.result(one).get().classId == "c-1")
        server.expire()
        #expect(
            (try? await Self.result(other).get()) == nil, "the second refresh fails, and so does the request")
        server.expire()
        #expect(try await Self.result(other, "/status").get().classId == "c-1")
        for events in [first, second] {
            let read = try #require(await Self.first(3, of: events))
            #expect(read.map(\.trigger) == [.code(11001), .code(11001), .status(401)])
            #expect(read.map(\.isFailure) == [false, true, false])
            #expect(read.map(\.module) == ["studyGroup", "studyGroup", "studyGroup"])
            #expect(read.map(\.serverMessage) == ["expired 0", "expired 2", nil])
        }
        #expect(session.refreshCount == 3)
        // The base handler hears only of the refresh its client's request started.
        #expect(log.refreshes.withLock { $0.map(\.trigger) } == [.code(11001)])
    }

    @Test(
        "a stream is unregistered when it is dropped unread, when its iteration is cancelled, or when it is read and dropped"
    )
    func unregisters() async throws {
        let server = Self.server()
        let session = AuthenticationSession(
            authenticator: ScriptedAuthenticator(server: server, failing: []), credential: "t-0",
            clock: ManualClock())
        let client = ResponseClient(transport: server, authentication: session)
        _ = session.refreshEvents()
        #expect(session.refreshListenerCount == 0, "dropped unread")

        let cancelled = session.refreshEvents()
        var dropped: AsyncStream<SessionRefreshEvent>? = session.refreshEvents()
        let staying = session.refreshEvents()
        #expect(session.refreshListenerCount == 3)
        let listening = Task {
            for await _ in cancelled {}
        }
        listening.cancel()
        #expect(await listening.value(by: .now + .seconds(60)) != nil, "the iteration ended")
        #expect(await eventually { session.refreshListenerCount == 2 })

        server.expire()
        #expect(try await Self.result(client).get().classId == "c-1")
        do {
            let events = try #require(dropped)
            #expect(try #require(await Self.first(1, of: events)).count == 1)
        }
        #expect(session.refreshListenerCount == 2, "reading an event and stopping leaves the stream registered")
        dropped = nil
        #expect(await eventually { session.refreshListenerCount == 1 }, "read, then dropped")

        server.expire()
        #expect(try await Self.result(client).get().classId == "c-1")
        let read = try #require(await Self.first(2, of: staying))
        #expect(read.map(\.isFailure) == [false, false])
        #expect(session.refreshListenerCount == 1)
    }

    @Test("a listener that falls behind keeps the newest events, as many as it asked for")
    func fallingBehind() async throws {
        let server = Self.server()
        let session = AuthenticationSession(
            authenticator: ScriptedAuthenticator(server: server, failing: []), credential: "t-0",
            clock: ManualClock())
        let client = ResponseClient(transport: server, authentication: session)
        let newest = session.refreshEvents(bufferingNewest: 2)
        for _ in 0..<4 {
            server.expire()
            #expect(try await Self.result(client).get().classId == "c-1")
        }
        // Each refresh's event is buffered before its waiting request goes on: the four are all
        // there, and only the last two are kept.
        let read = try #require(await Self.first(2, of: newest))
        #expect(read.map(\.serverMessage) == ["expired 4", "expired 6"])
    }
}
