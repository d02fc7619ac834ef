import Foundation

/// A time limit of a ``ResponseClient`` request ran out before a response arrived; carried by
/// ``ModuleRespError/transportFailed(underlying:)``.
///
/// An attempt that runs out of its own time (``ResponseClient/Timeouts/attempt``) may be faster
/// next time, so ``RetryPolicy`` retries it as it retries `URLError.timedOut`; a request that
/// reaches its deadline (``ResponseClient/Timeouts/overall``) is over and is never retried.
public struct RequestTimeoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which limit ran out.
    public enum Limit: Sendable, Hashable {
        /// One attempt took longer than its limit; the transport was cancelled.
        case attempt
        /// The whole request, attempts and waits included, reached its deadline.
        case deadline
    }

    /// Which limit ran out.
    public let limit: Limit
    /// The limit as configured.
    public let duration: Duration
    /// The attempt that was running, 1-based.
    public let attempt: Int

    /// Creates the error.
    /// - Parameters:
    ///   - limit: Which limit ran out.
    ///   - duration: The limit as configured.
    ///   - attempt: The attempt that was running, 1-based.
    public init(limit: Limit, duration: Duration, attempt: Int) {
        self.limit = limit
        self.duration = duration
        self.attempt = attempt
    }

    /// `attempt 2 timed out after 0.2 seconds` or `deadline of 1.5 seconds reached during attempt 3`.
    public var description: String {
        switch limit {
        case .attempt: return "attempt \(attempt) timed out after \(duration)"
        case .deadline: return "deadline of \(duration) reached during attempt \(attempt)"
        }
    }
}

extension RequestTimeoutError: LocalizedError {
    /// "The request timed out." / "请求超时。", in `Language.current`.
    public var errorDescription: String? {
        Language.current.usesSimplifiedChinese ? "请求超时。" : "The request timed out."
    }
}
