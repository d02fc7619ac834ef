import Foundation
import Metrics
import SwiftErr
import Tracing

/// A ``SwiftErr/HTTPTransport`` that records every response it passes on with a
/// ``ClassificationObserver``, each in a client span of its own: plugged into a
/// ``SwiftErr/ResponseClient``, every attempt's answer is counted, timed, logged and traced, and the
/// rest of the pipeline (status, envelope, base handler, retry, decoding) is unchanged.
///
/// <!-- listing: context=server,observability,ahc -->
/// <!-- listing: package=Integrations/SwiftErrObservability,Integrations/SwiftErrAsyncHTTPClient -->
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
///
/// ## OpenTelemetry
/// Each attempt is an HTTP client request in OpenTelemetry's terms, and is recorded as the
/// semantic conventions for HTTP say:
/// - the span gets `http.request.method`, `http.response.status_code`, `error.type` when the attempt
///   failed (a status of 400 or more, or no answer: ``ErrorType``), and `http.request.resend_count`
///   when it is a retry (``SwiftErr/TransportAttempt/current`` above 1);
/// - the timer `http.client.request.duration` (seconds) gets one value per attempt, with the
///   dimensions `http.request.method`, `http.response.status_code` (when there was a response)
///   and `error.type` (when it failed).
///
/// A business answer in a 2xx envelope is not an error of the HTTP request: it is classified (the
/// `swifterr.*` attributes and series), and the whole operation's `error.type` is recorded by
/// ``OperationObserver``, once per request, after the retries.
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
    /// The metrics backend of `http.client.request.duration`.
    public var factory: any MetricsFactory

    /// The name of the attempts' timer: `http.client.request.duration`.
    public static let durationLabel = "http.client.request.duration"
    /// The request methods OpenTelemetry knows; any other is recorded as `_OTHER`.
    static let knownMethods: Set<String> = [
        "CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE",
    ]

    /// Creates a transport.
    /// - Parameters:
    ///   - base: The transport that sends the requests.
    ///   - observer: Records the classifications.
    ///   - statusValidator: The statuses whose bodies are classified (2xx).
    ///   - spanName: The span name (`"HTTP <method>"` when `nil`).
    ///   - tracer: The tracer (the bootstrapped one when `nil`).
    ///   - factory: The metrics backend of `http.client.request.duration` (the bootstrapped one).
    public init(
        base: any HTTPTransport, observer: ClassificationObserver, statusValidator: HTTPStatusValidator = .successful,
        spanName: String? = nil, tracer: (any Tracer)? = nil, factory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.base = base
        self.observer = observer
        self.statusValidator = statusValidator
        self.spanName = spanName
        self.tracer = tracer
        self.factory = factory
    }

    /// Sends the request through ``base`` in a client span and records its response.
    /// - Parameter request: The request.
    /// - Returns: The base transport's response, unchanged.
    /// - Throws: The base transport's error (recorded on the span).
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let name = spanName ?? "HTTP \(request.method)"
        let tracer: any Tracer = self.tracer ?? InstrumentationSystem.tracer
        let method = Self.knownMethods.contains(request.method.uppercased()) ? request.method.uppercased() : "_OTHER"
        let start = ContinuousClock.now
        return try await Self.traced(tracer, name: name) { span in
            span.attributes["http.request.method"] = method
            let attempt = TransportAttempt.current
            if attempt > 1 { span.attributes["http.request.resend_count"] = attempt - 1 }
            let response: TransportResponse
            do {
                response = try await base.send(request)
            } catch {
                let errorType = ErrorType.value(forTransportError: error)
                span.attributes["error.type"] = errorType
                recordDuration(since: start, method: method, status: nil, errorType: errorType)
                throw error
            }
            let status = response.statusCode
            if let status {
                span.attributes["http.response.status_code"] = status
            }
            let errorType = status.flatMap { $0 >= 400 ? ErrorType.value(forStatus: $0) : nil }
            if let errorType { span.attributes["error.type"] = errorType }
            if statusValidator.failure(for: response) == nil {
                _ = try? observer.observe(body: response.body, span: span)
            }
            recordDuration(since: start, method: method, status: status, errorType: errorType)
            return response
        }
    }

    /// Records one attempt in `http.client.request.duration`.
    private func recordDuration(since start: ContinuousClock.Instant, method: String, status: Int?, errorType: String?)
    {
        var dimensions = [("http.request.method", method)]
        if let status { dimensions.append(("http.response.status_code", String(status))) }
        if let errorType { dimensions.append(("error.type", errorType)) }
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        Metrics.Timer(
            label: Self.durationLabel, dimensions: dimensions, preferredDisplayUnit: .seconds, factory: factory
        )
        .recordNanoseconds(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
    }

    /// Runs `operation` in a client span of `tracer` (a generic function, so that an `any Tracer`
    /// is opened to its concrete type).
    private static func traced<T: Tracer>(
        _ tracer: T, name: String, _ operation: (any Span) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        try await tracer.withSpan(name, ofKind: .client) { span in try await operation(span) }
    }
}
