/// Which send of a request the current task is making, for transports and observers that want to
/// know (OpenTelemetry's `http.request.resend_count` is ``current`` − 1).
///
/// A ``ResponseClient`` binds it around each send: 1 for the first, and one more for each retry and
/// for the replay after a session's refresh (OpenTelemetry counts a request sent again for any
/// reason, an authorization failure included). A retry loop of your own binds it the same way, and
/// a transport reads it:
///
/// <!-- listing: context=app -->
/// ```swift
/// let response = try await TransportAttempt.$current.withValue(attempt) {
///     try await transport.send(request)
/// }
/// ```
///
/// Outside such a binding it is `1`: a request sent once.
public enum TransportAttempt {
    /// The send being made, 1-based (`1` when nothing has bound it).
    @TaskLocal public static var current: Int = 1
}
