/// Sends one HTTP request and returns the response, whatever its status: the one piece of a
/// ``ResponseClient`` that touches the network.
///
/// `SwiftErr` has no HTTP client of its own, so it loads no networking library. The
/// `SwiftErrURLSession` product has `URLSessionTransport`; the `SwiftErrAsyncHTTPClient` package
/// (in `Integrations/`) has one over async-http-client. Any other client (a socket library, a test
/// double) plugs in by conforming: turn the ``TransportRequest`` into the client's request, send
/// it, and return the status, header fields and body.
///
/// <!-- listing: context=app -->
/// ```swift
/// struct LoggingTransport: HTTPTransport {
///     let base: any HTTPTransport
///     func send(_ request: TransportRequest) async throws -> TransportResponse {
///         let response = try await base.send(request)
///         log(request.method, request.url, response.statusCode)
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
    /// - Throws: The transport's error when no response arrived, best reported in the vocabulary
    ///   ``RetryPolicy`` reads (`URLError`, `POSIXError`, `CancellationError`); ``ResponseClient``
    ///   maps it by the one mapping of foreign errors (``ModuleRespError/init(adapting:)``).
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
