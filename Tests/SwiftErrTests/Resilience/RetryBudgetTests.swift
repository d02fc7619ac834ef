import SwiftErr
import SwiftErrTesting
import Testing

/// The retry budget: gRFC A6's tokens and Envoy's ceiling on retries in flight, both required.
@Suite("Retry budget")
struct RetryBudgetTests {
    /// A protection with only a budget.
    static func protection(_ budget: RetryBudget) -> UpstreamProtection {
        UpstreamProtection(retryBudget: budget, circuitBreaker: nil, throttle: nil, clock: ManualClock())
    }

    /// Sends one attempt and records `outcome`.
    static func attempt(_ protection: UpstreamProtection, _ outcome: UpstreamOutcome, retry: Bool = false) throws {
        let permit = try protection.admit(isRetry: retry)
        protection.record(outcome, for: permit)
    }

    @Test("tokens: a failure takes 1, an answer gives back the ratio, retries stop at half (gRPC's own example)")
    func tokens() throws {
        // 4 tokens, ratio 1.6: the threshold is 2, as in gRPC's retry-throttle test.
        let protection = Self.protection(try RetryBudget(maxTokens: 4, tokenRatio: 1.6, minimumConcurrentRetries: 10))
        try Self.attempt(protection, .failure(.transport))
        #expect(protection.retryBudget?.tokens == 3)
        #expect(protection.retryBudget?.permitsRetry == true)
        try Self.attempt(protection, .success)
        #expect(protection.retryBudget?.tokens == 4, "never above the maximum")
        try Self.attempt(protection, .failure(.timeout))
        try Self.attempt(protection, .failure(.serverError))
        #expect(protection.retryBudget?.tokens == 2)
        #expect(protection.retryBudget?.tokensPermitRetry == false, "at the threshold, no retries")
        let refusal = #expect(throws: UpstreamRefusal.self) { try protection.admit(isRetry: true) }
        #expect(refusal?.reason == .retryBudgetExhausted)
        #expect(refusal?.retryAfter == nil)
        #expect(refusal?.isShed == false)
        // First attempts are never refused by the budget.
        try Self.attempt(protection, .answer)
        #expect(protection.retryBudget?.tokens == 3.6)
        #expect(protection.retryBudget?.permitsRetry == true)
        _ = try protection.admit(isRetry: true)
    }

    @Test("a business answer gives tokens back like a success; cancellation changes nothing")
    func answersAndUnjudged() throws {
        let protection = Self.protection(try RetryBudget(maxTokens: 10, tokenRatio: 0.5))
        for _ in 0..<4 { try Self.attempt(protection, .failure(.transport)) }
        #expect(protection.retryBudget?.tokens == 6)
        try Self.attempt(protection, .unjudged)
        #expect(protection.retryBudget?.tokens == 6)
        try Self.attempt(protection, .answer)
        #expect(protection.retryBudget?.tokens == 6.5)
        for _ in 0..<10 { try Self.attempt(protection, .failure(.tooManyRequests)) }
        #expect(protection.retryBudget?.tokens == 0, "never below zero")
    }

    @Test("the ratio is kept to thousandths, as gRFC A6 says")
    func ratioRounding() throws {
        #expect(try RetryBudget(tokenRatio: 0.1234).tokenRatio == 0.123)
        #expect(try RetryBudget(tokenRatio: 0.0015).tokenRatio == 0.002)
    }

    @Test("ceiling: retries in flight stay below 20 % of the attempts in flight, or 3 when that is more")
    func ceiling() throws {
        let protection = Self.protection(try RetryBudget(maxTokens: 1000))
        // Quiet: 3 retries in flight are permitted, a 4th is not.
        var retries: [UpstreamPermit] = []
        for _ in 0..<3 { retries.append(try protection.admit(isRetry: true)) }
        #expect(protection.retryBudget?.activeRetries == 3)
        #expect(throws: UpstreamRefusal(reason: .retryBudgetExhausted, retryAfter: nil)) {
            try protection.admit(isRetry: true)
        }
        // Busy: with 27 first attempts in flight, retries are admitted while they stay below 20 %
        // of all attempts in flight (retries included): the 7th of 34 is not (7 ≥ 6.8).
        var firsts: [UpstreamPermit] = []
        for _ in 0..<27 { firsts.append(try protection.admit()) }
        for _ in 0..<4 { retries.append(try protection.admit(isRetry: true)) }
        #expect(protection.retryBudget?.activeAttempts == 34)
        #expect(protection.retryBudget?.activeRetries == 7)
        #expect(protection.retryBudget?.concurrencyPermitsRetry == false)
        #expect(throws: UpstreamRefusal.self) { try protection.admit(isRetry: true) }
        // Ending attempts frees the ceiling; the tokens still permit.
        for permit in retries { protection.record(.success, for: permit) }
        for permit in firsts { protection.record(.success, for: permit) }
        #expect(protection.retryBudget?.activeAttempts == 0)
        #expect(protection.retryBudget?.activeRetries == 0)
        #expect(protection.retryBudget?.permitsRetry == true)
    }

    @Test("both must agree: a ceiling with room does not lift exhausted tokens")
    func bothRequired() throws {
        let protection = Self.protection(try RetryBudget(maxTokens: 2, tokenRatio: 0.1, minimumConcurrentRetries: 100))
        try Self.attempt(protection, .failure(.transport))
        #expect(protection.retryBudget?.concurrencyPermitsRetry == true)
        #expect(protection.retryBudget?.tokensPermitRetry == false)
        #expect(throws: UpstreamRefusal.self) { try protection.admit(isRetry: true) }
    }

    static let badSettings: [(@Sendable () throws -> Void, String)] = [
        ({ _ = try RetryBudget(maxTokens: 0) }, "RetryBudget.maxTokens is 0; it must be between 1 and 1000"),
        ({ _ = try RetryBudget(maxTokens: 1001) }, "RetryBudget.maxTokens is 1001; it must be between 1 and 1000"),
        (
            { _ = try RetryBudget(tokenRatio: 0) },
            "RetryBudget.tokenRatio is 0.0; it must be at least 0.001 and at most maxTokens (10)"
        ),
        (
            { _ = try RetryBudget(tokenRatio: -1) },
            "RetryBudget.tokenRatio is -1.0; it must be at least 0.001 and at most maxTokens (10)"
        ),
        (
            { _ = try RetryBudget(tokenRatio: .nan) },
            "RetryBudget.tokenRatio is nan; it must be at least 0.001 and at most maxTokens (10)"
        ),
        (
            { _ = try RetryBudget(concurrentRetryRatio: 1.5) },
            "RetryBudget.concurrentRetryRatio is 1.5; it must be between 0 and 1"
        ),
        (
            { _ = try RetryBudget(concurrentRetryRatio: -0.1) },
            "RetryBudget.concurrentRetryRatio is -0.1; it must be between 0 and 1"
        ),
        (
            { _ = try RetryBudget(minimumConcurrentRetries: -1) },
            "RetryBudget.minimumConcurrentRetries is -1; it must be at least 0"
        ),
    ]

    @Test("bad settings are refused with the setting, the value and the range", arguments: badSettings)
    func refusesBadSetting(make: @Sendable () throws -> Void, message: String) {
        #expect {
            try make()
        } throws: { error in
            (error as? ResilienceConfigurationError)?.description == message
        }
    }

    @Test("the defaults are gRFC A6's example and Envoy's")
    func defaults() {
        let budget = RetryBudget.default
        #expect(budget.maxTokens == 10)
        #expect(budget.tokenRatio == 0.1)
        #expect(budget.concurrentRetryRatio == 0.2)
        #expect(budget.minimumConcurrentRetries == 3)
        #expect(budget.tokens == 10)
    }
}
