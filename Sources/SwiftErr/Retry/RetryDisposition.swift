/// Whether a failure may be repeated, and if not, why.
public enum RetryDisposition: Sendable, Hashable {
    /// Repeating may succeed.
    case retry
    /// The failure is final for the given reason.
    case stop(RetryStopReason)
}

/// Why ``Retrier`` did not repeat a failure.
public enum RetryStopReason: Sendable, Hashable {
    /// The server code is flagged `CodeFlags.fatal`.
    case fatalCode
    /// The status or server code is configured to end the flow
    /// (``RetryPolicy/endingStatusCodes``, ``RetryPolicy/endingServerCodes``).
    case endsFlow
    /// The failure is not of a retryable kind.
    case notRetryable
    /// The request was cancelled, or the person chose not to try again.
    case cancelled
}
