// Context "auth-session": `session` is the AuthenticationSession KeepingASessionAlive sets up,
// for its later listings (with the contexts "app" and "tokens").
import SwiftErr

let session = AuthenticationSession(authenticator: TokenAuthenticator(tokens: service), credential: keychain.token)

// LISTING
