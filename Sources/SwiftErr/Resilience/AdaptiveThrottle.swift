/// Client-side adaptive throttling (Google SRE, "Handling Overload"): sheds requests locally, at
/// random, in proportion to how many the upstream has recently not accepted. Driven by
/// ``UpstreamProtection``.
///
/// Over a sliding window (``window``, ten buckets), the throttle counts the *requests* the caller
/// attempted (those it sent, and those it shed) and the *accepts*: those the upstream did not fail
/// (``UpstreamOutcome``: a success or a business answer). Each new request is shed with
/// probability
///
/// ```text
/// max(0, (requests − k · accepts) / (requests + 1))
/// ```
///
/// While the upstream accepts more than one request in ``k``, nothing is shed. When it accepts
/// fewer, the caller sends roughly `k` times what the upstream accepts, and sheds the rest before
/// they cost anything; as the upstream recovers, the accepts grow and shedding stops by itself.
/// Because the probability stays below 1, some requests always reach the upstream and find out
/// when it is back. A larger `k` sheds later and less.
///
/// The formula assumes a long history: with none, one failed request gives a probability of ½.
/// So nothing is shed until the window holds ``minimumRequests`` requests, as a circuit breaker
/// waits for its minimum throughput.
///
/// ## Defaults and where they come from
/// | setting | default | origin |
/// |---|---|---|
/// | ``k`` | 2 | the Google SRE book, "Handling Overload" |
/// | ``window`` | 2 minutes | the same chapter ("two minutes worth of history") |
/// | ``minimumRequests`` | 100 | ours: the circuit breaker's minimum throughput (Polly v8's 100), so that neither acts on a handful of requests |
public struct AdaptiveThrottle: Sendable {
    /// The multiplier of accepts, 1 or more: the requests the caller may attempt per accepted one
    /// before shedding starts.
    public let k: Double
    /// The length of the sliding window.
    public let window: Duration
    /// The fewest requests in the window before anything is shed.
    public let minimumRequests: Int

    /// Requests (first count) and accepts (second count) in the window.
    private var counts: TimeWindow

    /// Creates a throttle that sheds nothing yet.
    /// - Parameters:
    ///   - k: The multiplier of accepts, a finite number of at least 1 (2).
    ///   - window: The sliding window, longer than zero and at most 24 hours (2 minutes).
    ///   - minimumRequests: The fewest requests in the window before anything is shed, 0 or more (100).
    /// - Throws: ``ResilienceConfigurationError`` for a value out of its range.
    public init(k: Double = 2, window: Duration = .seconds(120), minimumRequests: Int = 100)
        throws(ResilienceConfigurationError)
    {
        guard k.isFinite, k >= 1 else {
            throw ResilienceConfigurationError(
                setting: "AdaptiveThrottle.k", value: "\(k)", requirement: "a finite number of at least 1")
        }
        self.k = k
        let nanoseconds = try ResilienceSetting.duration(
            window, "AdaptiveThrottle.window", minimumNanoseconds: Int64(TimeWindow.bucketCount))
        self.window = window
        self.minimumRequests = try ResilienceSetting.integer(
            minimumRequests, "AdaptiveThrottle.minimumRequests", in: 0...Int.max)
        counts = TimeWindow(nanoseconds: nanoseconds)
    }

    /// The documented defaults: `k` = 2 over 2 minutes, from 100 requests on.
    public static let `default` = try! AdaptiveThrottle()

    /// The requests in the window: attempted, sent or shed.
    public var requests: Int { counts.first }
    /// The requests in the window the upstream did not fail.
    public var accepts: Int { counts.second }

    /// The probability that the next request is shed, by the counts in the window as last moved on:
    /// `max(0, (requests − k · accepts) / (requests + 1))`, or 0 below ``minimumRequests``.
    public var rejectionProbability: Double {
        guard counts.first >= minimumRequests else { return 0 }
        let requests = Double(counts.first)
        return max(0, (requests - k * Double(counts.second)) / (requests + 1))
    }

    /// The probability of shedding a request at `now`, the window moved on first.
    mutating func rejectionProbability(at now: Int64) -> Double {
        counts.advance(to: now)
        return rejectionProbability
    }

    /// Nanoseconds from `now` until the window next moves on (and the probability may fall).
    func nextChange(after now: Int64) -> Int64 {
        max(0, counts.headEnd - now)
    }

    /// Counts a request shed at `now`.
    mutating func shed(at now: Int64) {
        counts.add(first: 1, second: 0, at: now)
    }

    /// Counts the outcome of a request that was sent.
    mutating func record(_ outcome: UpstreamOutcome, at now: Int64) {
        switch outcome {
        case .failure: counts.add(first: 1, second: 0, at: now)
        case .success, .answer: counts.add(first: 1, second: 1, at: now)
        case .unjudged: break
        }
    }
}
