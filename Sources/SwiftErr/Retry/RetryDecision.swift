/// The answer of a ``Retrier``'s decision hook ("ask the user" before retrying).
public enum RetryDecision: Sendable, Hashable {
    /// Try again (after the policy's wait).
    case retry
    /// Stop; ``Retrier`` and ``ResponseClient`` throw ``ModuleRespError/stoppedByUser(_:)`` carrying
    /// a ``UserStoppedError``.
    case stop
}
