import Foundation
import SwiftErr

/// A bearer-token service on a ``LoopbackHTTPServer``: a token endpoint that issues a new token
/// on every request, and protected paths that answer only requests carrying the current one. For
/// testing an `AuthenticationSession` and its authenticator end to end.
///
/// <!-- listing: context=tests -->
/// ```swift
/// let server = try LoopbackHTTPServer()
/// let tokens = LoopbackTokenService(server: server)          // current token "t-0"
/// tokens.protect("/class", payload: .envelope(0, data: #"{"classId":"c-1"}"#))
/// tokens.expire()                                             // "t-0" is refused from now on
/// // … a request with "Bearer t-0" gets {"ret":11001}; POST /token answers "t-1", which /class accepts …
/// #expect(tokens.refreshCount == 1)
/// ```
///
/// The token endpoint answers `{"ret":0,"msg":"ok","data":{"token":"t-N"}}`
/// (``tokenReply(_:)``), N counting from 1, and from then on only `Bearer t-N` is accepted. It
/// can be made to fail or hang (``failRefreshes(with:)``) or to wait at a gate before answering
/// (``refreshGate``).
public final class LoopbackTokenService: Sendable {
    private struct State {
        var current: String?
        var issued = 0
        var failure: LoopbackHTTPServer.Reply?
        var gate: LoopbackGate?
    }

    /// The server the endpoints are on.
    public let server: LoopbackHTTPServer
    /// The token endpoint's path.
    public let tokenPath: String
    private let state: Locked<State>

    /// Adds the token endpoint to a server.
    /// - Parameters:
    ///   - server: The server.
    ///   - tokenPath: The token endpoint's path (`/token`).
    ///   - initialToken: The token accepted before the first refresh (`t-0`).
    public init(server: LoopbackHTTPServer, tokenPath: String = "/token", initialToken: String = "t-0") {
        self.server = server
        self.tokenPath = tokenPath
        let state = Locked(State(current: initialToken))
        self.state = state
        server.route(tokenPath) { _ in
            state.withLock { $0.gate }?.pass()
            return state.withLock { state in
                if let failure = state.failure { return failure }
                state.issued += 1
                let token = "t-\(state.issued)"
                state.current = token
                return Self.tokenReply(token)
            }
        }
    }

    /// The token the protected paths accept, or `nil` after ``expire()`` until the next refresh.
    public var currentToken: String? { state.withLock { $0.current } }

    /// How many requests reached the token endpoint (answered or not).
    public var refreshCount: Int { server.requests(tokenPath).count }

    /// Expires the current token: the protected paths refuse every request until the next refresh.
    public func expire() {
        state.withLock { $0.current = nil }
    }

    /// Makes the token endpoint answer `reply` instead of issuing tokens (a 500, or
    /// ``LoopbackHTTPServer/Reply/hold`` for a refresh that never ends), or issue them again.
    /// - Parameter reply: The answer, or `nil` to issue tokens.
    public func failRefreshes(with reply: LoopbackHTTPServer.Reply?) {
        state.withLock { $0.failure = reply }
    }

    /// A gate the token endpoint passes before answering, or `nil` (the default) for none.
    public var refreshGate: LoopbackGate? {
        get { state.withLock { $0.gate } }
        set { state.withLock { $0.gate = newValue } }
    }

    /// Whether a request carries `Authorization: Bearer <current token>`.
    /// - Parameter request: A request the server received.
    /// - Returns: `true` when it carries the current token.
    public func isAuthorized(_ request: LoopbackHTTPServer.Request) -> Bool {
        Self.isAuthorized(request, in: state)
    }

    private static func isAuthorized(_ request: LoopbackHTTPServer.Request, in state: Locked<State>) -> Bool {
        guard let token = state.withLock({ $0.current }) else { return false }
        return request.header("Authorization") == "Bearer \(token)"
    }

    /// Protects a path: a request with the current token gets `payload`, any other `refusal`.
    /// - Parameters:
    ///   - path: The path.
    ///   - refusal: The answer without the current token (token expiry, 11001, by default).
    ///   - payload: The answer with it.
    public func protect(
        _ path: String, refusal: LoopbackHTTPServer.Reply = .envelope(11001, message: "token expire"),
        payload: LoopbackHTTPServer.Reply
    ) {
        // The route holds the state, not the service: the service holds the server.
        server.route(path) { [state] request in Self.isAuthorized(request, in: state) ? payload : refusal }
    }

    /// The token endpoint's answer issuing `token`: `{"ret":0,"msg":"ok","data":{"token":"…"}}`.
    /// - Parameter token: The token.
    /// - Returns: The reply.
    public static func tokenReply(_ token: String) -> LoopbackHTTPServer.Reply {
        .envelope(0, message: "ok", data: #"{"token":"\#(token)"}"#)
    }
}
