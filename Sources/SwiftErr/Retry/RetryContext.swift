/// What the decision hook is told about a failure the policy would repeat.
public struct RetryContext<Code: ModuleCode>: Sendable {
    /// The attempt that failed, 1-based.
    public let attempt: Int
    /// The failure, adapted to the module's error.
    public let error: ModuleRespError<Code>
    /// The error the attempt threw, before adaptation.
    public let underlying: any Error
    /// How long ``Retrier`` will wait before the next attempt if the answer is
    /// ``RetryDecision/retry``.
    public let delay: Duration
    /// Whether ``delay`` is the server's `Retry-After` rather than the policy's backoff.
    public let isServerRequestedDelay: Bool

    /// Creates a context.
    /// - Parameters:
    ///   - attempt: The failed attempt, 1-based.
    ///   - error: The adapted failure.
    ///   - underlying: The original error.
    ///   - delay: The wait before the next attempt.
    ///   - isServerRequestedDelay: Whether the wait comes from `Retry-After`.
    public init(
        attempt: Int, error: ModuleRespError<Code>, underlying: any Error, delay: Duration, isServerRequestedDelay: Bool
    ) {
        self.attempt = attempt
        self.error = error
        self.underlying = underlying
        self.delay = delay
        self.isServerRequestedDelay = isServerRequestedDelay
    }
}
