import Metrics
import SwiftErr
import Tracing

/// Records whole requests, every attempt and wait included, as OpenTelemetry asks for an operation
/// that may be retried: its duration, how many times it was resent, and `error.type` only when the
/// request as a whole failed. A request that failed, was retried and then succeeded is a success
/// here; its failed attempt stays recorded where it happened (``ObservingTransport``).
///
/// ```swift
/// let operations = OperationObserver(observer: observer)
/// let start = ContinuousClock.now
/// let result = await client.result(request, returning: ClassItem.self, module: StudyGroupCode.self)
/// operations.record(result.failureOrNil, attempts: attempts, since: start, span: span)
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
