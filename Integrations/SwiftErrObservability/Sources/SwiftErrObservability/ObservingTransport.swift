import Foundation
import SwiftErr
import Tracing

/// A ``SwiftErr/HTTPTransport`` that records every response it passes on with a
/// ``ClassificationObserver``, each in a client span of its own: plugged into a
/// ``SwiftErr/ResponseClient``, every attempt's answer is counted, timed, logged and traced, and the
/// rest of the pipeline (status, envelope, base handler, retry, decoding) is unchanged.
///
/// ```swift
/// let observer = ClassificationObserver(factory: prometheus, logger: logger)
/// let client = ResponseClient(
///     transport: ObservingTransport(base: AsyncHTTPClientTransport(client: .shared), observer: observer))
/// ```
///
/// A response whose status ``statusValidator`` accepts is read and classified; its body is read
/// once more by the client's decoder (the envelope scan is a single pass over the bytes). A response
/// with another status, or a body that is not an envelope, is passed on unclassified (the second is
/// counted in `swifterr_invalid_envelopes_total`); the client reports both.
public struct ObservingTransport: HTTPTransport {
    /// The transport that sends the requests.
    public var base: any HTTPTransport
    /// Records the classifications.
    public var observer: ClassificationObserver
    /// The statuses whose bodies are classified (2xx, as ``SwiftErr/ResponseDecoder`` accepts by default).
    public var statusValidator: HTTPStatusValidator
    /// The name of each attempt's client span (`"HTTP <method>"` when `nil`).
    public var spanName: String?
    /// The tracer spans are started with (`InstrumentationSystem.tracer`, read at each request, when
    /// `nil`).
    public var tracer: (any Tracer)?

    /// Creates a transport.
    /// - Parameters:
    ///   - base: The transport that sends the requests.
    ///   - observer: Records the classifications.
    ///   - statusValidator: The statuses whose bodies are classified (2xx).
    ///   - spanName: The span name (`"HTTP <method>"` when `nil`).
    ///   - tracer: The tracer (the bootstrapped one when `nil`).
    public init(
        base: any HTTPTransport, observer: ClassificationObserver, statusValidator: HTTPStatusValidator = .successful,
        spanName: String? = nil, tracer: (any Tracer)? = nil
    ) {
        self.base = base
        self.observer = observer
        self.statusValidator = statusValidator
        self.spanName = spanName
        self.tracer = tracer
    }

    /// Sends the request through ``base`` in a client span and records its response.
    /// - Parameter request: The request.
    /// - Returns: The base transport's response, unchanged.
    /// - Throws: The base transport's error (recorded on the span).
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let name = spanName ?? "HTTP \(request.method)"
        let tracer: any Tracer = self.tracer ?? InstrumentationSystem.tracer
        return try await Self.traced(tracer, name: name) { span in
            let response = try await base.send(request)
            if let status = response.statusCode {
                span.attributes["http.response.status_code"] = status
            }
            if statusValidator.failure(for: response) == nil {
                _ = try? observer.observe(body: response.body, span: span)
            }
            return response
        }
    }

    /// Runs `operation` in a client span of `tracer` (a generic function, so that an `any Tracer`
    /// is opened to its concrete type).
    private static func traced<T: Tracer>(
        _ tracer: T, name: String, _ operation: (any Span) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        try await tracer.withSpan(name, ofKind: .client) { span in try await operation(span) }
    }
}
