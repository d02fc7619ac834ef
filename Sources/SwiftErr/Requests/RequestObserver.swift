/// Told once about every request a ``ResponseClient`` sends, when it has ended: for recording whole
/// requests (operations, in OpenTelemetry's terms), every attempt and wait included, apart from
/// what each attempt records on its own (a transport that observes its sends).
///
/// <!-- listing: context=app -->
/// ```swift
/// struct SlowRequestLog: RequestObserver {
///     func requestEnded<Code: ModuleCode>(
///         _ request: TransportRequest, error: ModuleRespError<Code>?, sends: Int, since start: ContinuousClock.Instant
///     ) {
///         if ContinuousClock.now - start > .seconds(2) { logger.notice("slow: \(request.url) after \(sends) sends") }
///     }
/// }
/// var client = ResponseClient(session: .shared)
/// client.observer = SlowRequestLog()
/// ```
///
/// `SwiftErrObservability`'s `OperationObserver` is one: the operation's duration, and `error.type`
/// only when the request as a whole failed (a failure retried into a success is not the
/// operation's error). SwiftErr itself depends on no metrics or tracing library.
public protocol RequestObserver: Sendable {
    /// Called exactly once per request, when it has ended (successfully, with its error, refused,
    /// cancelled), in the task that sent it, before the caller gets the result.
    /// - Parameters:
    ///   - request: The request as the caller made it.
    ///   - error: The error the request ended with, or `nil` when it succeeded, whatever its earlier
    ///     attempts met.
    ///   - sends: How many times the request went to the transport: its attempts, and a replay after
    ///     a session's refresh (OpenTelemetry's `http.request.resend_count` is `sends − 1`); 0 when
    ///     it never did (refused by the upstream's protection, cancelled first).
    ///   - start: When the request started, on the `ContinuousClock`.
    func requestEnded<Code: ModuleCode>(
        _ request: TransportRequest, error: ModuleRespError<Code>?, sends: Int, since start: ContinuousClock.Instant)
}
