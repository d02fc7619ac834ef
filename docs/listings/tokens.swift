// Context "tokens": a bearer-token credential and its Authenticator, for the listings that use a
// TokenAuthenticator without declaring it (the one KeepingASessionAlive declares). Stand-ins for
// the reader's token service and keychain.
import SwiftErr

/// Access and refresh token.
public struct Token: Sendable {
    public var access: String
    public var refresh: String
    public init(access: String, refresh: String) {
        self.access = access
        self.refresh = refresh
    }
}
public let savedToken = Token(access: "t-0", refresh: "r-0")
public let token = savedToken

/// The backend's token endpoint.
public struct TokenService: Sendable {
    public init() {}
    /// A token service reached through `client` (a client without the session it renews).
    public init(client: ResponseClient) {}
    public func renew(using refreshToken: String) async throws -> Token { Token(access: "t-1", refresh: refreshToken) }
}
public let service = TokenService()
public let tokenService = service

/// Where the credential is kept.
public struct Keychain: Sendable {
    public var token: Token { savedToken }
    public func save(_ token: Token?) {}
}
public let keychain = Keychain()

/// Authenticates a request with `Authorization: Bearer <access token>`.
public struct TokenAuthenticator: Authenticator {
    public var tokens: TokenService
    public init(tokens: TokenService = TokenService()) { self.tokens = tokens }
    public func apply(_ credential: Token, to request: inout TransportRequest) {
        request.setValue("Bearer \(credential.access)", forHeader: "Authorization")
    }
    public func refresh(_ credential: Token) async throws -> Token {
        try await tokens.renew(using: credential.refresh)
    }
    public func isRequest(_ request: TransportRequest, authenticatedWith credential: Token) -> Bool {
        request.value(forHeader: "Authorization") == "Bearer \(credential.access)"
    }
}
