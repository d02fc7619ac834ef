/// How many retries an upstream may get: a token bucket that stops retries while the upstream
/// mostly fails, and a ceiling on the retries in flight. Driven by ``UpstreamProtection``.
///
/// Retrying each request on its own multiplies the load on an upstream by up to the attempt limit,
/// exactly when the upstream is weakest. A retry budget bounds the extra load for all requests
/// together. A retry is permitted only when both parts agree:
///
/// 1. **Tokens** (the retry throttling of gRPC, gRFC A6): the bucket holds up to ``maxTokens``
///    tokens and starts full. Each attempt that fails (``UpstreamOutcome/failure(_:)``) takes one
///    token; each attempt that does not (a success or a business answer) gives back
///    ``tokenRatio``. Retries are permitted only while more than half of ``maxTokens`` are left. With
///    a ratio of 0.1, retries stop once more than about one attempt in eleven fails, and resume
///    when the upstream has answered enough to refill the bucket. Unlike gRPC, which gives tokens
///    back only for OK, a business answer gives them back too: the upstream that answered
///    "wrong team code" is healthy.
/// 2. **Concurrency** (Envoy's retry budget): the retries in flight stay below
///    ``concurrentRetryRatio`` of the attempts in flight, or below ``minimumConcurrentRetries``
///    when that is more, so that a quiet client can still retry a little.
///
/// The tokens bound the retries over time, the ceiling bounds a burst of them; neither lifts the
/// other's limit. First attempts are never refused by the budget.
///
/// ## Defaults and where they come from
/// | setting | default | origin |
/// |---|---|---|
/// | ``maxTokens`` | 10 | the retry-throttling example of gRFC A6 (which allows 1 to 1000) |
/// | ``tokenRatio`` | 0.1 | the same example |
/// | ``concurrentRetryRatio`` | 0.2 | Envoy's `budget_percent` default, 20 % |
/// | ``minimumConcurrentRetries`` | 3 | Envoy's `min_retry_concurrency` default |
public struct RetryBudget: Sendable {
    /// The most tokens the bucket holds, 1 to 1000.
    public let maxTokens: Int
    /// The tokens an attempt that did not fail gives back, rounded to thousandths (at least 0.001,
    /// at most ``maxTokens``).
    public let tokenRatio: Double
    /// The share of the attempts in flight that may be retries, 0 to 1.
    public let concurrentRetryRatio: Double
    /// The retries in flight always permitted by the ceiling, whatever ``concurrentRetryRatio``
    /// says (the tokens may still refuse them).
    public let minimumConcurrentRetries: Int

    /// The tokens, in thousandths (as gRPC counts them, so that a ratio of 0.1 adds up exactly).
    private(set) var milliTokens: Int
    private let maxMilliTokens: Int
    private let milliRatio: Int
    /// The attempts in flight: admitted and not yet recorded.
    public private(set) var activeAttempts = 0
    /// The retries among ``activeAttempts``.
    public private(set) var activeRetries = 0

    /// Creates a budget with a full bucket.
    /// - Parameters:
    ///   - maxTokens: The most tokens, 1 to 1000 (10).
    ///   - tokenRatio: The tokens an attempt that did not fail gives back (0.1).
    ///   - concurrentRetryRatio: The share of the attempts in flight that may be retries, 0 to 1 (0.2).
    ///   - minimumConcurrentRetries: The retries in flight always permitted by the ceiling, 0 or more (3).
    /// - Throws: ``ResilienceConfigurationError`` for a value out of its range.
    public init(
        maxTokens: Int = 10, tokenRatio: Double = 0.1, concurrentRetryRatio: Double = 0.2,
        minimumConcurrentRetries: Int = 3
    ) throws(ResilienceConfigurationError) {
        self.maxTokens = try ResilienceSetting.integer(maxTokens, "RetryBudget.maxTokens", in: 1...1000)
        let milliRatio = tokenRatio.isFinite ? Int((tokenRatio * 1000).rounded()) : 0
        guard milliRatio >= 1, milliRatio <= maxTokens * 1000 else {
            throw ResilienceConfigurationError(
                setting: "RetryBudget.tokenRatio", value: "\(tokenRatio)",
                requirement: "at least 0.001 and at most maxTokens (\(maxTokens))")
        }
        self.milliRatio = milliRatio
        self.tokenRatio = Double(milliRatio) / 1000
        self.concurrentRetryRatio = try ResilienceSetting.ratio(
            concurrentRetryRatio, "RetryBudget.concurrentRetryRatio")
        self.minimumConcurrentRetries = try ResilienceSetting.integer(
            minimumConcurrentRetries, "RetryBudget.minimumConcurrentRetries", in: 0...Int.max)
        maxMilliTokens = maxTokens * 1000
        milliTokens = maxMilliTokens
    }

    /// The documented defaults: 10 tokens, a ratio of 0.1, 20 % of the attempts in flight, at
    /// least 3 retries in flight.
    public static let `default` = try! RetryBudget()

    /// The tokens left.
    public var tokens: Double { Double(milliTokens) / 1000 }

    /// Whether the tokens permit a retry: more than half of ``maxTokens`` are left.
    public var tokensPermitRetry: Bool { milliTokens * 2 > maxMilliTokens }

    /// Whether the ceiling permits one more retry in flight.
    public var concurrencyPermitsRetry: Bool {
        let ceiling = max(Double(minimumConcurrentRetries), concurrentRetryRatio * Double(activeAttempts))
        return Double(activeRetries) < ceiling
    }

    /// Whether a retry would be permitted now: both the tokens and the ceiling agree.
    public var permitsRetry: Bool { tokensPermitRetry && concurrencyPermitsRetry }

    /// Bumped every time the bucket is filled: outcomes of attempts admitted before do not move the
    /// tokens (they describe the upstream as it was), though they still leave the attempts in flight.
    private(set) var epoch: UInt64 = 0

    /// Fills the bucket: the circuit breaker closed after its probes, so the upstream answers again.
    mutating func refill() {
        milliTokens = maxMilliTokens
        epoch &+= 1
    }

    /// Counts an admitted attempt as in flight.
    mutating func started(isRetry: Bool) {
        activeAttempts += 1
        if isRetry { activeRetries += 1 }
    }

    /// Counts an attempt's end: no longer in flight, and its outcome in the tokens when it was
    /// admitted since the last refill (`epoch`).
    mutating func ended(isRetry: Bool, outcome: UpstreamOutcome, epoch: UInt64) {
        activeAttempts = max(0, activeAttempts - 1)
        if isRetry { activeRetries = max(0, activeRetries - 1) }
        guard epoch == self.epoch else { return }
        switch outcome {
        case .failure: milliTokens = max(0, milliTokens - 1000)
        case .success, .answer: milliTokens = min(maxMilliTokens, milliTokens + milliRatio)
        case .unjudged: break
        }
    }
}
