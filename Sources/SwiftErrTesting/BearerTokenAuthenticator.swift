import Foundation
import SwiftErr
import SwiftErrDefaultCatalog

/// The authenticator of a session under test: `Authorization: Bearer <token>`, a refresh that
/// asks a token service of the test's choosing, and a record of every refresh.
///
/// For a session against a ``LoopbackTokenService`` (a real token endpoint on a
/// ``LoopbackHTTPServer``), ``loopback(_:through:)`` refreshes by POSTing to the endpoint through
/// the transport under test, as an app's refresh calls its own token endpoint:
///
/// <!-- listing: context=app,tests -->
/// ```swift
/// let server = try LoopbackHTTPServer()
/// let tokens = LoopbackTokenService(server: server)
/// let transport = URLSessionTransport()
/// let session = AuthenticationSession(
///     authenticator: BearerTokenAuthenticator.loopback(tokens, through: transport),
///     credential: tokens.currentToken!)
/// ```
///
/// For a token service in process, give the refresh yourself:
///
/// <!-- listing: context=app,tests -->
/// ```swift
/// let authenticator = BearerTokenAuthenticator { expired in "\(expired)+" }
/// ```
///
/// A session in a ``PipelineSimulation`` uses ``SimulatedAuthenticator`` instead, whose tokens
/// the simulated upstream checks against simulated time.
public struct BearerTokenAuthenticator: Authenticator {
    /// Asks the token service for a new token, given the one refused.
    private let renew: @Sendable (String) async throws -> String
    /// The refused tokens, one per refresh asked for, in order (shared by copies).
    private let refreshed = Locked<[String]>([])
    /// Whether ``isRequest(_:authenticatedWith:)`` compares the request's token with the session's
    /// (`true`); `false` plays an authenticator that cannot tell which token a request carried, so
    /// that the session refreshes for every refusal.
    public var recognisesRequests: Bool

    /// Creates an authenticator.
    /// - Parameters:
    ///   - recognisesRequests: Whether it tells which token a request carried (`true`).
    ///   - refresh: Asks the token service for a new token, given the refused one; what it throws
    ///     fails the refresh.
    public init(
        recognisesRequests: Bool = true, refresh: @escaping @Sendable (_ refused: String) async throws -> String
    ) {
        self.recognisesRequests = recognisesRequests
        self.renew = refresh
    }

    /// An authenticator whose refresh POSTs `{"expired":"<token>"}` to the token endpoint of
    /// `tokens` through `transport`, and reads the new token from the envelope's `data.token`
    /// (``LoopbackTokenService/tokenReply(_:)``).
    ///
    /// A refresh the endpoint answers with anything but a token fails with the error its answer
    /// makes for the study-group module of the built-in catalog (`ModuleRespError<StudyGroupCode>`:
    /// a 500 is `unacceptableStatus`), so a test can see the endpoint's own answer kept as the
    /// session's cause.
    /// - Parameters:
    ///   - tokens: The token service.
    ///   - transport: The transport under test.
    /// - Returns: The authenticator.
    public static func loopback(
        _ tokens: LoopbackTokenService, through transport: any HTTPTransport
    ) -> BearerTokenAuthenticator {
        let tokenURL = tokens.server.url(tokens.tokenPath)
        return BearerTokenAuthenticator { refused in
            let request = TransportRequest(
                url: tokenURL, method: "POST", headerFields: ["Content-Type": "application/json"],
                body: Data(#"{"expired":"\#(refused)"}"#.utf8), timeout: .seconds(30))
            let response = try await transport.send(request)
            return try ResponseDecoder().decode(
                IssuedToken.self, module: StudyGroupCode.self, from: response.body, statusCode: response.statusCode
            ).token
        }
    }

    /// Sets `Authorization: Bearer <credential>`.
    /// - Parameters:
    ///   - credential: The token.
    ///   - request: The request.
    public func apply(_ credential: String, to request: inout TransportRequest) {
        request.setValue("Bearer " + credential, forHeader: "Authorization")
    }

    /// Records the refresh and asks the token service for a new token.
    /// - Parameter credential: The refused token.
    /// - Returns: The new token.
    /// - Throws: What the token service throws.
    public func refresh(_ credential: String) async throws -> String {
        refreshed.withLock { $0.append(credential) }
        return try await renew(credential)
    }

    /// Whether the request carries `Bearer <credential>` (always `false` when
    /// ``recognisesRequests`` is off).
    /// - Parameters:
    ///   - request: A request as sent.
    ///   - credential: The session's current token.
    /// - Returns: `true` when the request carries the token.
    public func isRequest(_ request: TransportRequest, authenticatedWith credential: String) -> Bool {
        recognisesRequests && request.value(forHeader: "Authorization") == "Bearer " + credential
    }

    /// How many refreshes were asked for, by this authenticator and its copies.
    public var refreshCount: Int { refreshed.withLock { $0.count } }

    /// The refused token of each refresh, in order.
    public var refusedTokens: [String] { refreshed.withLock { $0 } }

    /// The token in the token endpoint's envelope: `{"data":{"token":"t-N"}}`.
    struct IssuedToken: Decodable, Sendable {
        let token: String
    }
}
