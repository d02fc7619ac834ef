import Foundation
import SwiftErr
import SwiftErrTesting

/// How long a test waits for what must happen: far beyond a correct run, even when the whole test
/// run shares two loaded cores and synchronous suites hold the concurrency pool for a minute.
let patience: Duration = .seconds(150)

/// A gate for async code: ``pass()`` suspends until ``open()``. Holds a refresh or a request in
/// flight at a known moment, without real time.
final class AsyncGate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var arrived = 0
    }

    private let state = Locked(State())

    /// Suspends until the gate is open (returns at once when it is).
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                state.arrived += 1
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if open { continuation.resume() }
        }
    }

    /// Opens the gate and resumes everyone waiting.
    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// How many calls to ``pass()`` have arrived (waiting or passed).
    var arrived: Int { state.withLock { $0.arrived } }

    /// Waits, yielding, until `count` calls have arrived; `false` after ``patience``.
    func waitForArrivals(_ count: Int) async -> Bool {
        let deadline = ContinuousClock.now + patience
        while arrived < count {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }
}

/// Waits, yielding, until `condition` holds; `false` after ``patience``.
func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + patience
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// A server in process, reached through ``HTTPTransport``: each request is answered by
/// ``answer``, which can ask ``isAuthorized(_:)`` whether it carries `Authorization: Bearer
/// <current token>` (after holding it, if it holds it); the token service (``issue()``) makes a
/// new current token. Every request is recorded.
final class SessionServer: HTTPTransport {
    struct State {
        var current: String? = "t-0"
        var issued = 0
        var requests: [TransportRequest] = []
    }

    /// How the server answers a request: (the server, the request, its 0-based number).
    typealias Answer = @Sendable (SessionServer, TransportRequest, Int) async -> TransportResponse

    let state = Locked(State())
    let answer: Answer

    /// A server answering `refusal` without the current token, `payload` with it.
    init(refusal: TransportResponse = SessionServer.envelope(11001), payload: TransportResponse = SessionServer.joined)
    {
        self.answer = { server, request, _ in server.isAuthorized(request) ? payload : refusal }
    }

    /// A server answering by `answer`.
    init(answer: @escaping Answer) {
        self.answer = answer
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try Task.checkCancellation()
        let index = state.withLock { state in
            state.requests.append(request)
            return state.requests.count - 1
        }
        return await answer(self, request, index)
    }

    /// Whether a request carries the current token.
    func isAuthorized(_ request: TransportRequest) -> Bool {
        guard let token = state.withLock({ $0.current }) else { return false }
        return request.value(forHeader: "Authorization") == "Bearer \(token)"
    }

    /// Issues a new token, which becomes the only one accepted.
    func issue() -> String {
        state.withLock { state in
            state.issued += 1
            state.current = "t-\(state.issued)"
            return state.current!
        }
    }

    /// Expires the current token.
    func expire() {
        state.withLock { $0.current = nil }
    }

    var requests: [TransportRequest] { state.withLock { $0.requests } }

    /// The tokens the requests carried, in order (`-` for none).
    var tokens: [String] {
        requests.map { $0.value(forHeader: "Authorization").map { String($0.dropFirst("Bearer ".count)) } ?? "-" }
    }

    static let joined = envelope(0, data: #"{"classId":"c-1","name":"Class 3-2"}"#)

    static func envelope(_ code: Int64, message: String = "m", data: String = "null") -> TransportResponse {
        TransportResponse(statusCode: 200, body: Data(#"{"ret":\#(code),"msg":"\#(message)","data":\#(data)}"#.utf8))
    }

    static func status(_ status: Int) -> TransportResponse {
        TransportResponse(statusCode: status, body: Data())
    }
}

/// The refusal of a ``SessionServer``'s token service, for a refresh made to fail.
struct ServerRefreshFailed: Error, Equatable {}

extension BearerTokenAuthenticator {
    /// SwiftErrTesting's authenticator over a ``SessionServer``: `Authorization: Bearer <token>`; its
    /// refresh passes `gate` (if any), then fails with `failure` or issues a new token.
    /// - Parameters:
    ///   - server: The server whose token service issues the tokens.
    ///   - gate: Holds each refresh until opened, or `nil`.
    ///   - failure: What each refresh throws, or `nil` to issue tokens.
    ///   - matchesRequests: Whether the authenticator tells which token a request carried.
    init(
        server: SessionServer, gate: AsyncGate? = nil, failure: (any Error & Sendable)? = nil,
        matchesRequests: Bool = true
    ) {
        self.init(recognisesRequests: matchesRequests) { _ in
            await gate?.pass()
            if let failure { throw failure }
            return server.issue()
        }
    }
}

/// What a base handler received.
final class HandlerLog: Sendable {
    let events = Locked<[BaseCodeEvent]>([])
    let refreshes = Locked<[SessionRefreshEvent]>([])

    var handler: BaseCodeHandler {
        BaseCodeHandler(
            { [events] event in events.withLock { $0.append(event) } },
            sessionRefresh: { [refreshes] event in refreshes.withLock { $0.append(event) } })
    }

    var eventCount: Int { events.withLock { $0.count } }
    var refreshCount: Int { refreshes.withLock { $0.count } }
}
