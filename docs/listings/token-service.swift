// Context "token-service": the token service and keychain of a listing that declares its own
// `Token` (and its authenticator); they are in the listing's module, so they use its `Token`.
// LISTING

/// The backend's token endpoint.
struct TokenService: Sendable {
    func renew(using refreshToken: String) async throws -> Token { Token(access: "t-1", refresh: refreshToken) }
}
let service = TokenService()
let tokenService = service

/// Where the credential is kept.
struct Keychain: Sendable {
    var token: Token { Token(access: "t-0", refresh: "r-0") }
    func save(_ token: Token?) {}
}
let keychain = Keychain()
