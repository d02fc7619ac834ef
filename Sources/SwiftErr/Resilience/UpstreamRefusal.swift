import Foundation

/// A request that ``UpstreamProtection`` did not let reach the upstream: why, and when trying again
/// makes sense.
///
/// Refusing costs nothing upstream and answers at once, which is the point: a caller that gets a
/// refusal should fail the request (a gateway answers 503 with `Retry-After`), not wait and retry
/// in a loop.
public struct UpstreamRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why a request was refused.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The circuit is open: the upstream failed too often in the sampling window.
        case circuitOpen = "circuit_open"
        /// The circuit is half-open and its probes are already in flight.
        case circuitHalfOpen = "circuit_half_open"
        /// The circuit was isolated by hand.
        case circuitIsolated = "circuit_isolated"
        /// The adaptive throttle shed the request.
        case throttled
        /// A retry was asked for and the retry budget has none to give (first attempts are never
        /// refused for this reason).
        case retryBudgetExhausted = "retry_budget_exhausted"
    }

    /// Why the request was refused.
    public let reason: Reason
    /// When trying again makes sense: the rest of the break for an open circuit, a break for a
    /// half-open one whose probes are in flight (the longest a failed probe keeps it shut), the time
    /// until the throttle's window next moves on for a shed request; `nil` for an isolated circuit
    /// (until someone resets it) and an exhausted retry budget (retries resume as attempts succeed).
    public let retryAfter: Duration?

    /// Creates a refusal.
    /// - Parameters:
    ///   - reason: Why the request was refused.
    ///   - retryAfter: When trying again makes sense, or `nil`.
    public init(reason: Reason, retryAfter: Duration?) {
        self.reason = reason
        self.retryAfter = retryAfter
    }

    /// Whether the request was shed by the circuit breaker or the throttle (a first attempt or a
    /// retry), rather than a retry refused by the budget.
    public var isShed: Bool { reason != .retryBudgetExhausted }

    /// `circuit_open (retry after 3.2 seconds)`.
    public var description: String {
        retryAfter.map { "\(reason.rawValue) (retry after \($0))" } ?? reason.rawValue
    }
}

extension UpstreamRefusal: LocalizedError {
    /// "The service is temporarily unavailable." / "服务暂时不可用。", in `Language.current`.
    public var errorDescription: String? {
        Language.current == .simplifiedChinese ? "服务暂时不可用。" : "The service is temporarily unavailable."
    }

    /// ``SuggestedRecovery/tryAgain``'s suggestion: "Try again later." / "请稍后重试。".
    public var recoverySuggestion: String? {
        SuggestedRecovery.tryAgain.suggestion(in: Language.current)
    }
}
