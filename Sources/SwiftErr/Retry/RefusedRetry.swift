/// Thrown by a ``Retrier``'s operation whose retry the upstream's protection refused: the run ends
/// with the failure of the attempt before (the failure in hand), not retried, rather than with the
/// refusal.
struct RefusedRetry: Error {
    /// The error the attempt before threw.
    let failure: any Error
    /// Why the retry was refused.
    let refusal: UpstreamRefusal
}
