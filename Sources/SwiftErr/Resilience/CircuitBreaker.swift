/// Stops sending requests to an upstream that is failing, then lets a few probes find out when it
/// is back. Driven by ``UpstreamProtection``.
///
/// - **Closed**: requests pass. Each outcome is counted in a sliding window of
///   ``samplingDuration`` (ten buckets of a tenth each). When a failure brings the window to at
///   least ``minimumThroughput`` outcomes of which at least ``failureRatio`` are failures, the
///   circuit opens.
/// - **Open**: every request is refused at once, with the time left of the break, for
///   ``breakDuration``.
/// - **Half-open**: the first request after the break is a probe, and so are the next ones up to
///   ``halfOpenProbes`` in flight; others are refused. A probe that fails opens the circuit again
///   for another break; when ``halfOpenProbes`` probes have not failed, the circuit closes with an
///   empty window.
/// - **Isolated**: opened by hand; refuses everything until reset.
///
/// What a failure is comes from ``UpstreamOutcome``: a business answer such as "wrong team code",
/// a base code and a 4xx count as successes, so a healthy upstream whose users make mistakes never
/// opens the circuit. Cancelled requests are not counted. Outcomes of requests admitted before
/// the last change of state are ignored: they describe the upstream as it was.
///
/// ## Defaults and where they come from
/// | setting | default | origin |
/// |---|---|---|
/// | ``failureRatio`` | 0.1 | Polly v8's circuit breaker |
/// | ``minimumThroughput`` | 100 | Polly v8 |
/// | ``samplingDuration`` | 30 s | Polly v8 |
/// | ``breakDuration`` | 5 s | Polly v8 |
/// | ``halfOpenProbes`` | 1 | Polly v8, which lets one probe through |
public struct CircuitBreaker: Sendable {
    /// The share of failures among the outcomes in the window that opens the circuit, 0 to 1.
    public let failureRatio: Double
    /// The fewest outcomes in the window before the circuit may open.
    public let minimumThroughput: Int
    /// The length of the sliding window.
    public let samplingDuration: Duration
    /// How long the circuit stays open before probing.
    public let breakDuration: Duration
    /// The probes in flight while half-open, and the probes that must not fail to close.
    public let halfOpenProbes: Int

    /// The current state.
    public private(set) var state: CircuitState = .closed
    /// Failures (first count) and outcomes (second count) in the window.
    private var window: TimeWindow
    private let breakNanoseconds: Int64
    /// When the current break ends, in nanoseconds since the owner's origin.
    private var openUntil: Int64 = 0
    /// Bumped on every change of state: a permit of an older generation is not counted.
    private(set) var generation: UInt64 = 0
    private var probesInFlight = 0
    private var probesPassed = 0

    /// Creates a closed breaker.
    /// - Parameters:
    ///   - failureRatio: The share of failures that opens the circuit, 0 to 1 (0.1).
    ///   - minimumThroughput: The fewest outcomes in the window before it may open, 1 or more (100).
    ///   - samplingDuration: The sliding window, longer than zero and at most 24 hours (30 s).
    ///   - breakDuration: How long it stays open, longer than zero and at most 24 hours (5 s).
    ///   - halfOpenProbes: The probes while half-open, 1 or more (1).
    /// - Throws: ``ResilienceConfigurationError`` for a value out of its range.
    public init(
        failureRatio: Double = 0.1, minimumThroughput: Int = 100, samplingDuration: Duration = .seconds(30),
        breakDuration: Duration = .seconds(5), halfOpenProbes: Int = 1
    ) throws(ResilienceConfigurationError) {
        self.failureRatio = try ResilienceSetting.ratio(failureRatio, "CircuitBreaker.failureRatio")
        self.minimumThroughput = try ResilienceSetting.integer(
            minimumThroughput, "CircuitBreaker.minimumThroughput", in: 1...Int.max)
        let sampling = try ResilienceSetting.duration(
            samplingDuration, "CircuitBreaker.samplingDuration", minimumNanoseconds: Int64(TimeWindow.bucketCount))
        self.samplingDuration = samplingDuration
        breakNanoseconds = try ResilienceSetting.duration(breakDuration, "CircuitBreaker.breakDuration")
        self.breakDuration = breakDuration
        self.halfOpenProbes = try ResilienceSetting.integer(
            halfOpenProbes, "CircuitBreaker.halfOpenProbes", in: 1...Int.max)
        window = TimeWindow(nanoseconds: sampling)
    }

    /// The documented defaults: a ratio of 0.1 over at least 100 outcomes in 30 s, a 5 s break,
    /// 1 probe.
    public static let `default` = try! CircuitBreaker()

    /// The failures in the sampling window (while closed).
    public var windowFailures: Int { window.first }
    /// The outcomes in the sampling window (while closed).
    public var windowOutcomes: Int { window.second }

    /// What the breaker says to a new request at `now`.
    enum Verdict {
        /// Passes; `probe` when it is a half-open probe.
        case pass(probe: Bool)
        /// Refused, for `retryAfter` nanoseconds (`nil`: until reset).
        case refuse(UpstreamRefusal.Reason, retryAfter: Int64?)
    }

    /// Whether a request may pass at `now`, without changing anything.
    func verdict(at now: Int64) -> Verdict {
        switch state {
        case .closed: return .pass(probe: false)
        case .isolated: return .refuse(.circuitIsolated, retryAfter: nil)
        case .open:
            return now < openUntil ? .refuse(.circuitOpen, retryAfter: openUntil - now) : .pass(probe: true)
        case .halfOpen:
            return probesInFlight < halfOpenProbes
                ? .pass(probe: true) : .refuse(.circuitHalfOpen, retryAfter: breakNanoseconds)
        }
    }

    /// Whether the circuit refuses every request at `now`: isolated, or open with its break not
    /// over. (A half-open circuit lets probes through as they finish, so it is not counted.)
    func refusesAll(at now: Int64) -> Bool {
        switch state {
        case .closed, .halfOpen: return false
        case .open: return now < openUntil
        case .isolated: return true
        }
    }

    /// Whether the circuit holds anything back at `now` that a new breaker would not know: it is
    /// isolated, half-open, or open with its break not over.
    func isHoldingBack(at now: Int64) -> Bool {
        state == .halfOpen || refusesAll(at: now)
    }

    /// Lets a request pass that ``verdict(at:)`` passed; an open circuit whose break is over turns
    /// half-open.
    /// - Returns: The transition, if the state changed.
    mutating func admit(probe: Bool) -> CircuitTransition? {
        guard probe else { return nil }
        var transition: CircuitTransition?
        if state == .open {
            transition = move(to: .halfOpen)
        }
        probesInFlight += 1
        return transition
    }

    /// Counts the outcome of a request admitted in `generation`.
    /// - Returns: The transition, if the state changed.
    mutating func record(_ outcome: UpstreamOutcome, probe: Bool, generation: UInt64, at now: Int64)
        -> CircuitTransition?
    {
        guard generation == self.generation else { return nil }
        switch state {
        case .closed:
            let failed = outcome.isFailure
            if case .unjudged = outcome { return nil }
            window.add(first: failed ? 1 : 0, second: 1, at: now)
            guard failed, window.second >= minimumThroughput,
                Double(window.first) >= failureRatio * Double(window.second)
            else { return nil }
            openUntil = now + breakNanoseconds
            return move(to: .open)
        case .halfOpen where probe:
            probesInFlight = max(0, probesInFlight - 1)
            switch outcome {
            case .failure:
                openUntil = now + breakNanoseconds
                return move(to: .open)
            case .success, .answer:
                probesPassed += 1
                guard probesPassed >= halfOpenProbes else { return nil }
                window.clear(at: now)
                return move(to: .closed)
            case .unjudged:
                return nil
            }
        case .halfOpen, .open, .isolated:
            return nil
        }
    }

    /// Opens the circuit by hand until ``reset(at:)``.
    mutating func isolate() -> CircuitTransition? {
        state == .isolated ? nil : move(to: .isolated)
    }

    /// Closes the circuit with an empty window.
    mutating func reset(at now: Int64) -> CircuitTransition? {
        window.clear(at: now)
        return state == .closed ? nil : move(to: .closed)
    }

    private mutating func move(to next: CircuitState) -> CircuitTransition {
        let transition = CircuitTransition(from: state, to: next)
        state = next
        generation &+= 1
        probesInFlight = 0
        probesPassed = 0
        return transition
    }
}
