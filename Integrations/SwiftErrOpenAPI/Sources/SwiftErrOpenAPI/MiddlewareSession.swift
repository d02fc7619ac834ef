import Foundation
import HTTPTypes
import SwiftErr

/// An `AuthenticationSession` as ``EnvelopeMiddleware`` uses it, whatever its credential type:
/// its two steps, and the HTTP statuses that ask for re-authentication.
struct MiddlewareSession: Sendable {
    let statusCodes: Set<Int>
    let authenticate: @Sendable (TransportRequest) async throws -> AuthenticatedRequest
    let reauthenticate:
        @Sendable (AuthenticatedRequest, SessionRefreshEvent.Trigger, String, CodeFlags, String?, BaseCodeHandler?)
            async throws -> AuthenticatedRequest?

    init<A: Authenticator>(_ session: AuthenticationSession<A>) {
        statusCodes = session.statusCodes
        authenticate = { request in try await session.authenticate(request) }
        reauthenticate = { refused, trigger, module, flags, message, observer in
            try await session.reauthenticate(
                refused, trigger: trigger, module: module, flags: flags, serverMessage: message, observer: observer)
        }
    }

    /// The request an authenticator sees for an OpenAPI request: the URL (`baseURL` and the
    /// request's path and query), the method and the header fields (repeated fields joined with
    /// `", "`); no body, which the middleware holds only as a stream.
    static func transportRequest(_ request: HTTPRequest, baseURL: URL) -> TransportRequest {
        let base =
            baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        let url = URL(string: base + (request.path ?? "")) ?? baseURL
        var fields: [String: String] = [:]
        for field in request.headerFields {
            let name = field.name.rawName
            fields[name] = fields[name].map { $0 + ", " + field.value } ?? field.value
        }
        return TransportRequest(url: url, method: request.method.rawValue, headerFields: fields)
    }

    /// `request` with the header fields the authenticator set (or removed) in `authenticated`.
    static func applying(_ authenticated: TransportRequest, to request: HTTPRequest, baseURL: URL) -> HTTPRequest {
        let before = transportRequest(request, baseURL: baseURL).headerFields
        var outgoing = request
        for (name, value) in authenticated.headerFields where before[name] != value {
            guard let fieldName = HTTPField.Name(name) else { continue }
            outgoing.headerFields[fieldName] = value
        }
        for name in before.keys where authenticated.value(forHeader: name) == nil {
            guard let fieldName = HTTPField.Name(name) else { continue }
            outgoing.headerFields[fieldName] = nil
        }
        return outgoing
    }
}
