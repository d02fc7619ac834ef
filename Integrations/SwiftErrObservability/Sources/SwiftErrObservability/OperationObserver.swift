import Metrics
import SwiftErr
import Tracing

/// Records whole requests, every attempt and wait included, as OpenTelemetry asks for an operation
/// that may be retried: its duration, how many times it was resent, and `error.type` only when the
/// request as a whole failed. A request that failed, was retried and then succeeded is a success
/// here; its failed attempt stays recorded where it happened (``ObservingTransport``).
///
/// Give it to a ``SwiftErr/ResponseClient`` as its ``SwiftErr/ResponseClient/observer`` and every
/// request is recorded once, when it has ended (a ``SwiftErr/RequestObserver``); each attempt is
/// recorded by an ``ObservingTransport`` under it:
///
/// <!-- listing: context=server,observability,ahc -->
/// <!-- listing: package=Integrations/SwiftErrObservability,Integrations/SwiftErrAsyncHTTPClient -->
/// ```swift
/// let client = ResponseClient(
///     transport: ObservingTransport(base: AsyncHTTPClientTransport(client: .shared), observer: observer),
///     observer: OperationObserver(observer: observer))
/// ```
///
/// Or record an operation yourself, with its span (a client knows nothing of the caller's span):
///
/// <!-- listing: context=server,observability -->
/// ```swift
/// let start = ContinuousClock.now
/// do {
///     let item = try await retrier.run { try await loadClass(id) }
///     operations.record(ModuleRespError<StudyGroupCode>?.none, attempts: attempts, since: start, span: span)
/// } catch {
///     operations.record(error, attempts: attempts, since: start, span: span)
/// }
/// ```
///
/// - The timer `swifterr.client.operation.duration` (seconds), with the dimension `error.type`
///   (``ErrorType``) when the request failed, and none when it succeeded.
/// - On a span: `error.type` when it failed, `http.request.resend_count` when it was resent.
public struct OperationObserver: Sendable {
    /// The name of the operations' timer: `swifterr.client.operation.duration`.
    public static let durationLabel = "swifterr.client.operation.duration"

    /// Gives the label values of codes for `error.type`.
    public let observer: ClassificationObserver
    /// The metrics backend.
    public let factory: any MetricsFactory
    private let succeeded: Metrics.Timer

    /// Creates an observer of whole requests.
    /// - Parameters:
    ///   - observer: Gives the label values of codes (its catalog) for `error.type`.
    ///   - factory: The metrics backend (the bootstrapped one by default).
    public init(observer: ClassificationObserver, factory: any MetricsFactory = MetricsSystem.factory) {
        self.observer = observer
        self.factory = factory
        succeeded = Metrics.Timer(label: Self.durationLabel, preferredDisplayUnit: .seconds, factory: factory)
    }

    /// Records one whole request.
    /// - Parameters:
    ///   - error: The error the request ended with, or `nil` when it succeeded (whatever its
    ///     attempts met on the way).
    ///   - attempts: The attempts it took, the first included.
    ///   - start: When the request started, on the `ContinuousClock`.
    ///   - span: The request's span, or `nil`.
    public func record<Code: ModuleCode>(
        _ error: ModuleRespError<Code>?, attempts: Int, since start: ContinuousClock.Instant, span: (any Span)? = nil
    ) {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        let nanoseconds = seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
        if attempts > 1 { span?.attributes["http.request.resend_count"] = attempts - 1 }
        guard let error else {
            succeeded.recordNanoseconds(nanoseconds)
            return
        }
        let errorType = ErrorType.value(for: error, labelsFrom: observer)
        span?.attributes["error.type"] = errorType
        Metrics.Timer(
            label: Self.durationLabel, dimensions: [("error.type", errorType)], preferredDisplayUnit: .seconds,
            factory: factory
        ).recordNanoseconds(nanoseconds)
    }
}

extension OperationObserver: RequestObserver {
    /// Records a request a ``SwiftErr/ResponseClient`` has ended (``record(_:attempts:since:span:)``
    /// with its sends as the attempts, and no span: the client does not know the caller's).
    /// - Parameters:
    ///   - request: The request.
    ///   - error: The error it ended with, or `nil`.
    ///   - sends: How many times it went to the transport.
    ///   - start: When it started.
    public func requestEnded<Code: ModuleCode>(
        _ request: TransportRequest, error: ModuleRespError<Code>?, sends: Int, since start: ContinuousClock.Instant
    ) {
        record(error, attempts: sends, since: start, span: nil)
    }
}
