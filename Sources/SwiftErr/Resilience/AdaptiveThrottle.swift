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
/// they cost anything. A larger `k` sheds later and less.
///
/// The formula assumes a long history: with none, one failed request gives a probability of ½.
/// So nothing is shed until the window holds ``minimumRequests`` requests, as a circuit breaker
/// waits for its minimum throughput.
///
/// ## Recovery
/// The formula alone recovers slowly: the shed requests count as requests and the window still
/// holds the failures of the outage, so once the upstream accepts everything that is sent, the
/// probability falls only as `p → 2p − 1` per window, minutes at a low rate. So the throttle
/// shares what it learns with the circuit breaker, and probes as the breaker does:
/// - while it sheds, one request per ``probeInterval`` passes whatever the probability (a
///   *probe*); a probe the upstream accepts shows that the upstream is back, and empties the
///   window: shedding stops at once;
/// - when the circuit breaker closes after its probes (``UpstreamProtection``), the window is
///   emptied too, since the breaker has found the upstream healthy;
/// - outcomes of requests admitted before the window was emptied are not counted: they describe
///   the upstream as it was.
///
/// So after an outage every request is admitted again within one ``probeInterval`` of the
/// upstream's return (the break of the circuit breaker, when it opened, plus one interval at
/// most), at any rate, while a failing upstream still sees at most one probe per interval beyond
/// what the probability lets through.
///
/// ## Defaults and where they come from
/// | setting | default | origin |
/// |---|---|---|
/// | ``k`` | 2 | the Google SRE book, "Handling Overload" |
/// | ``window`` | 2 minutes | the same chapter ("two minutes worth of history") |
/// | ``minimumRequests`` | 100 | ours: the circuit breaker's minimum throughput (Polly v8's 100), so that neither acts on a handful of requests |
/// | ``probeInterval`` | 5 s | ours: the circuit breaker's break (Polly v8's 5 s), so that both find an upstream's return within the same time |
public struct AdaptiveThrottle: Sendable {
    /// The multiplier of accepts, 1 or more: the requests the caller may attempt per accepted one
    /// before shedding starts.
    public let k: Double
    /// The length of the sliding window.
    public let window: Duration
    /// The fewest requests in the window before anything is shed.
    public let minimumRequests: Int
    /// While shedding, one request per interval passes as a probe; an accepted probe ends the
    /// shedding.
    public let probeInterval: Duration

    /// Requests (first count) and accepts (second count) in the window.
    private var counts: TimeWindow
    private let probeNanoseconds: Int64
    /// When the last probe was let through, or `nil` before the first.
    private var lastProbe: Int64?
    /// Bumped every time the window is emptied: outcomes of requests admitted before are not
    /// counted.
    private(set) var epoch: UInt64 = 0

    /// Creates a throttle that sheds nothing yet.
    /// - Parameters:
    ///   - k: The multiplier of accepts, a finite number of at least 1 (2).
    ///   - window: The sliding window, longer than zero and at most 24 hours (2 minutes).
    ///   - minimumRequests: The fewest requests in the window before anything is shed, 0 or more (100).
    ///   - probeInterval: While shedding, one request per interval passes as a probe; longer than zero
    ///     and at most 24 hours (5 s).
    /// - Throws: ``ResilienceConfigurationError`` for a value out of its range.
    public init(
        k: Double = 2, window: Duration = .seconds(120), minimumRequests: Int = 100,
        probeInterval: Duration = .seconds(5)
    ) throws(ResilienceConfigurationError) {
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
        probeNanoseconds = try ResilienceSetting.duration(probeInterval, "AdaptiveThrottle.probeInterval")
        self.probeInterval = probeInterval
        counts = TimeWindow(nanoseconds: nanoseconds)
    }

    /// The documented defaults: `k` = 2 over 2 minutes, from 100 requests on, a probe every 5 s.
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

    /// Whether a request at `now`, while shedding, is the probe of this interval (and if so, takes
    /// it).
    mutating func takeProbe(at now: Int64) -> Bool {
        if let lastProbe, now - lastProbe < probeNanoseconds { return false }
        lastProbe = now
        return true
    }

    /// Counts the outcome of a request that was sent in `epoch`; an accepted probe empties the
    /// window.
    mutating func record(_ outcome: UpstreamOutcome, probe: Bool, epoch: UInt64, at now: Int64) {
        guard epoch == self.epoch else { return }
        switch outcome {
        case .failure: counts.add(first: 1, second: 0, at: now)
        case .success, .answer:
            if probe {
                clear(at: now)
            } else {
                counts.add(first: 1, second: 1, at: now)
            }
        case .unjudged: break
        }
    }

    /// Empties the window: nothing is shed until it holds ``minimumRequests`` requests again.
    mutating func clear(at now: Int64) {
        counts.clear(at: now)
        lastProbe = nil
        epoch &+= 1
    }
}
