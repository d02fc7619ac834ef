import Foundation
import SwiftErr

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `HTTPTransport` over `URLSession` (FoundationNetworking on Linux).
///
/// Each ``TransportRequest`` is sent as the `URLRequest` that ``Foundation/URLRequest/init(_:)``
/// makes of it (URL, method, header fields, body, time limit). Everything else a `URLRequest` can
/// say (cache policy, cellular access, cookies) comes from the session's configuration.
public struct URLSessionTransport: HTTPTransport {
    /// The session requests are sent through.
    public let session: URLSession

    /// Creates a transport.
    /// - Parameter session: The session (`URLSession.shared` by default).
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends a request with `URLSession.data(for:)`.
    /// - Parameter request: The request.
    /// - Returns: The HTTP status and header fields (none for a response that is not HTTP) and the body.
    /// - Throws: The session's `URLError` when no response arrived.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let (body, response) = try await session.data(for: URLRequest(request))
        guard let http = response as? HTTPURLResponse else { return TransportResponse(body: body) }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String { fields[name] = value as? String ?? String(describing: value) }
        }
        return TransportResponse(statusCode: http.statusCode, headerFields: fields, body: body)
    }
}
