import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request and returns the response, whatever its status: the one piece of a
/// ``ResponseClient`` that touches the network.
///
/// ``URLSessionTransport`` is the built-in transport (FoundationNetworking on Linux). Another
/// HTTP client (async-http-client, a socket library) plugs in by conforming: convert the
/// `URLRequest`, send it, and return the status, header fields and body.
///
/// ```swift
/// struct LoggingTransport: HTTPTransport {
///     let base: any HTTPTransport
///     func send(_ request: URLRequest) async throws -> TransportResponse {
///         let response = try await base.send(request)
///         log(request, response.statusCode)
///         return response
///     }
/// }
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends a request once.
    ///
    /// A response with any status is a response, not an error: the client validates the status.
    /// When the calling task is cancelled, the call should end promptly (with `CancellationError`
    /// or the transport's own cancel error).
    /// - Parameter request: The request.
    /// - Returns: The response's status, header fields and body.
    /// - Throws: The transport's error when no response arrived (for URLSession, a `URLError`);
    ///   ``ResponseClient`` maps it by the one mapping of foreign errors
    ///   (``ModuleRespError/init(adapting:)``).
    func send(_ request: URLRequest) async throws -> TransportResponse
}

/// A ``HTTPTransport`` over `URLSession`.
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
    public func send(_ request: URLRequest) async throws -> TransportResponse {
        let (body, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { return TransportResponse(body: body) }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String { fields[name] = value as? String ?? String(describing: value) }
        }
        return TransportResponse(statusCode: http.statusCode, headerFields: fields, body: body)
    }
}
