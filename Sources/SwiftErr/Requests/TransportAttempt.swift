/// Which attempt of a request the current task is sending, for transports and observers that
/// want to know (OpenTelemetry's `http.request.resend_count` is ``current`` − 1).
///
/// A retry loop binds it around each attempt; a transport reads it:
///
/// ```swift
/// let response = try await TransportAttempt.$current.withValue(attempt) {
///     try await transport.send(request)
/// }
/// ```
///
/// Outside such a binding it is `1`: a request sent once.
public enum TransportAttempt {
    /// The attempt being sent, 1-based (`1` when no retry loop has bound it).
    @TaskLocal public static var current: Int = 1
}
