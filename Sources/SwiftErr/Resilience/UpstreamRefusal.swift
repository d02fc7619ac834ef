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
        Self.title.text(in: Language.current)
    }

    /// Why, in `Language.current` (``reason(in:)``).
    public var failureReason: String? {
        reason(in: Language.current)
    }

    /// ``SuggestedRecovery/tryAgain``'s suggestion: "Try again later." / "请稍后重试。".
    public var recoverySuggestion: String? {
        SuggestedRecovery.tryAgain.suggestion(in: Language.current)
    }

    /// "The service is temporarily unavailable." / "服务暂时不可用。"
    public static let title = LocalizedText(
        english: "The service is temporarily unavailable.", simplifiedChinese: "服务暂时不可用。")

    /// Why the request was not sent, as a sentence in `language`.
    /// - Parameter language: The language wanted.
    /// - Returns: The reason.
    public func reason(in language: Language) -> String {
        let zh = language.usesSimplifiedChinese
        switch reason {
        case .circuitOpen:
            return zh
                ? "发往该服务的请求失败过多,已暂停发送。"
                : "Too many requests to the service failed, so sending to it is paused."
        case .circuitHalfOpen:
            return zh ? "正在检测该服务是否已恢复。" : "The app is checking whether the service is back."
        case .circuitIsolated:
            return zh ? "已停止向该服务发送请求。" : "Sending requests to the service has been stopped."
        case .throttled:
            return zh
                ? "该服务近来多次失败,发往它的请求已减少。"
                : "The service has been failing, so fewer requests are sent to it."
        case .retryBudgetExhausted:
            return zh
                ? "该服务近来多次失败,请求没有再次发送。"
                : "The service has been failing, so the request was not sent again."
        }
    }
}
