/// How requests carry a credential and how the credential is renewed: what an
/// ``AuthenticationSession`` needs to keep a session alive.
///
/// An authenticator holds no state of its own: the session keeps the current credential and
/// calls these methods. ``apply(_:to:)`` and ``isRequest(_:authenticatedWith:)`` run on every
/// request and must be quick and synchronous; ``refresh(_:)`` runs once for every request that is
/// waiting, never twice at the same time for one session.
///
/// <!-- listing: context=app,token-service -->
/// ```swift
/// struct Token: Sendable {
///     var access: String
///     var refresh: String
/// }
///
/// struct TokenAuthenticator: Authenticator {
///     let tokens: TokenService
///
///     func apply(_ credential: Token, to request: inout TransportRequest) {
///         request.setValue("Bearer \(credential.access)", forHeader: "Authorization")
///     }
///
///     func refresh(_ credential: Token) async throws -> Token {
///         try await tokens.renew(using: credential.refresh)
///     }
///
///     func isRequest(_ request: TransportRequest, authenticatedWith credential: Token) -> Bool {
///         request.value(forHeader: "Authorization") == "Bearer \(credential.access)"
///     }
/// }
/// ```
public protocol Authenticator: Sendable {
    /// What authenticates a request: a token, a pair of tokens, a signed cookie.
    associatedtype Credential: Sendable

    /// Sets the credential on a request, typically as a header field.
    ///
    /// Only what this method changes is sent; for the OpenAPI middleware, only the header fields
    /// it sets.
    /// - Parameters:
    ///   - credential: The session's current credential.
    ///   - request: The request about to be sent.
    func apply(_ credential: Credential, to request: inout TransportRequest)

    /// Gets a new credential from the one the server refused.
    ///
    /// Called by the session once for every request waiting on it, in a task of its own:
    /// cancelling a waiting request does not cancel it. Give the refresh's own request a time
    /// limit: requests without a deadline wait for the refresh as long as it runs.
    /// - Parameter credential: The credential the server refused.
    /// - Returns: The new credential.
    /// - Throws: Any error; every waiting request then fails with
    ///   ``ReauthenticationError/Reason/refreshFailed``, which keeps it.
    func refresh(_ credential: Credential) async throws -> Credential

    /// Whether a request was sent with a credential.
    ///
    /// When the server refuses a request that was not sent with the current credential (the
    /// credential changed while it was in flight), the session sends it again with the current
    /// one instead of refreshing.
    /// - Parameters:
    ///   - request: The request as it was sent, ``apply(_:to:)`` included.
    ///   - credential: The session's current credential.
    /// - Returns: `true` when `request` carries `credential`.
    func isRequest(_ request: TransportRequest, authenticatedWith credential: Credential) -> Bool
}
