/// A retry budget, a circuit breaker and an adaptive throttle for one upstream, behind one lock and
/// one clock read per call: what a client or a gateway consults before each attempt and tells
/// after it.
///
/// <!-- listing: context=gateway,gateway-handler -->
/// ```swift
/// let protection = UpstreamProtection()          // the documented defaults of all three
///
/// let permit: UpstreamPermit
/// do {
///     permit = try protection.admit(isRetry: attempt > 1)
/// } catch {
///     return .serviceUnavailable(retryAfter: error.retryAfter)   // refused at once, upstream untouched
/// }
/// let response = await send(request)
/// let classification = response.status == 200 ? catalog.classify(envelopeCode(response)) : nil
/// protection.record(UpstreamOutcome(status: response.status, classification: classification), for: permit)
/// ```
///
/// ``admit(isRetry:)`` asks, in this order: the breaker (refusing while open, isolated, or
/// half-open with its probes in flight), the retry budget (for a retry only), then the throttle
/// (skipped for a half-open probe: the breaker has decided the upstream should be tried; and
/// passing its own probe, one per ``AdaptiveThrottle/probeInterval``, while it sheds). The three
/// share what they learn: when the breaker closes after its probes, or is reset, the throttle's
/// window is emptied and the budget's bucket filled, since the upstream answers again; an accepted
/// throttle probe empties the throttle's window. So the defaults admit every request again within
/// the breaker's break plus one probe interval of an upstream's return. A refusal
/// is an ``UpstreamRefusal`` with the time after which trying again makes sense. An admitted attempt
/// gets an ``UpstreamPermit``; ``record(_:for:)`` hands it back with the attempt's
/// ``UpstreamOutcome``, the one rule for what a failure is, so that a business answer counts for
/// the upstream's health, never against it.
///
/// Each part is optional: `UpstreamProtection(retryBudget: nil, throttle: nil)` is a circuit
/// breaker alone. The parts are values (``RetryBudget``, ``CircuitBreaker``, ``AdaptiveThrottle``)
/// holding their configuration and state; the protection owns them, and the properties of the same
/// names return a copy of their current state.
///
/// ## Cost
/// Each call reads the clock once and takes the lock once; nothing is allocated. The default clock
/// is the system's monotonic clock at the scheduler's resolution (a few milliseconds), an order of
/// magnitude cheaper to read than `ContinuousClock` on virtual machines. `Benchmarks/` measures an
/// admit and a record of all three together (docs/performance.md).
///
/// ## Observing the circuit
/// ``circuitTransitions(bufferingNewest:)`` is an `AsyncSequence` of the circuit's changes of state;
/// ``admit(isRetry:)`` (in the permit) and ``record(_:for:)`` also return the change they made, for
/// counting without a task. A change by time (open → half-open) happens when the first request
/// after the break arrives.
public final class UpstreamProtection: Sendable {
    private struct State {
        var budget: RetryBudget?
        var breaker: CircuitBreaker?
        var throttle: AdaptiveThrottle?
        /// SplitMix64's state, when no random source was given.
        var randomState: UInt64
        var subscribers: [Int: AsyncStream<CircuitTransition>.Continuation] = [:]
        var nextSubscriber = 0

        /// The circuit closed after its probes: the upstream answers again, so what the throttle and
        /// the retry budget learnt of the outage no longer holds. The throttle's window is emptied and
        /// the budget's bucket filled.
        mutating func recovered(at now: Int64) {
            throttle?.clear(at: now)
            budget?.refill()
        }

        /// A random number in `0 ..< 1` from SplitMix64.
        mutating func nextUnit() -> Double {
            randomState &+= 0x9E37_79B9_7F4A_7C15
            var z = randomState
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) * 0x1.0p-53
        }
    }

    /// Where time is read: the coarse monotonic clock (read inline), or an injected clock.
    private enum TimeSource {
        /// `CoarseMonotonicTime`, from this origin.
        case coarse(origin: Int64)
        /// Nanoseconds since the protection was made, on an injected clock.
        case clock(@Sendable () -> Int64)
    }

    private let state: Locked<State>
    private let time: TimeSource
    private let random: (@Sendable () -> Double)?

    /// Nanoseconds since the protection was made, on its clock.
    @inline(__always)
    private func elapsed() -> Int64 {
        switch time {
        case .coarse(let origin): return CoarseMonotonicTime.nanoseconds() &- origin
        case .clock(let read): return read()
        }
    }

    /// Creates a protection on an injected clock, for tests (`ManualClock`) or a clock of your own.
    /// - Parameters:
    ///   - retryBudget: The retry budget, or `nil` for none (``RetryBudget/default``).
    ///   - circuitBreaker: The circuit breaker, or `nil` for none (``CircuitBreaker/default``).
    ///   - throttle: The adaptive throttle, or `nil` for none (``AdaptiveThrottle/default``).
    ///   - clock: The clock windows and breaks are measured on.
    ///   - random: A random number in `0 ..< 1` for the throttle, or `nil` for a fast generator of
    ///     the protection's own. It is called with the protection's lock held, only when the
    ///     throttle's probability is above zero, and must not call the protection.
    public convenience init<C: Clock<Duration>>(
        retryBudget: RetryBudget? = .default, circuitBreaker: CircuitBreaker? = .default,
        throttle: AdaptiveThrottle? = .default, clock: C, random: (@Sendable () -> Double)? = nil
    ) {
        let origin = clock.now
        self.init(
            retryBudget: retryBudget, circuitBreaker: circuitBreaker, throttle: throttle, random: random,
            time: .clock({ ResilienceSetting.nanoseconds(origin.duration(to: clock.now)) }))
    }

    /// Creates a protection on the system's monotonic clock at the scheduler's resolution.
    /// - Parameters:
    ///   - retryBudget: The retry budget, or `nil` for none (``RetryBudget/default``).
    ///   - circuitBreaker: The circuit breaker, or `nil` for none (``CircuitBreaker/default``).
    ///   - throttle: The adaptive throttle, or `nil` for none (``AdaptiveThrottle/default``).
    public convenience init(
        retryBudget: RetryBudget? = .default, circuitBreaker: CircuitBreaker? = .default,
        throttle: AdaptiveThrottle? = .default
    ) {
        self.init(
            retryBudget: retryBudget, circuitBreaker: circuitBreaker, throttle: throttle, random: nil,
            time: .coarse(origin: CoarseMonotonicTime.nanoseconds()))
    }

    private init(
        retryBudget: RetryBudget?, circuitBreaker: CircuitBreaker?, throttle: AdaptiveThrottle?,
        random: (@Sendable () -> Double)?, time: TimeSource
    ) {
        var seed = SystemRandomNumberGenerator()
        state = Locked(
            State(budget: retryBudget, breaker: circuitBreaker, throttle: throttle, randomState: seed.next()))
        self.time = time
        self.random = random
    }

    /// Asks whether an attempt may be sent now.
    /// - Parameter isRetry: Whether the attempt repeats one that failed (only retries are refused
    ///   by the retry budget).
    /// - Returns: The permit to hand back to ``record(_:for:)`` with the attempt's outcome.
    /// - Throws: ``UpstreamRefusal`` when the breaker, the budget or the throttle refuses: send
    ///   nothing.
    public func admit(isRetry: Bool = false) throws(UpstreamRefusal) -> UpstreamPermit {
        let now = elapsed()
        let (refusal, permit, subscribers) = state.withLock {
            state -> (UpstreamRefusal?, UpstreamPermit?, [AsyncStream<CircuitTransition>.Continuation]?) in
            var probe = false
            // Optional chaining reads each part in place; `if let` would copy it.
            switch state.breaker?.verdict(at: now) {
            case .refuse(let reason, let after):
                return (UpstreamRefusal(reason: reason, retryAfter: after.map { .nanoseconds($0) }), nil, nil)
            case .pass(let isProbe):
                probe = isProbe
            case nil:
                break
            }
            if isRetry, state.budget?.permitsRetry == false {
                return (UpstreamRefusal(reason: .retryBudgetExhausted, retryAfter: nil), nil, nil)
            }
            var throttleProbe = false
            if !probe, let probability = state.throttle?.rejectionProbability(at: now), probability > 0 {
                // While shedding, one request per probe interval passes whatever the probability.
                if state.throttle?.takeProbe(at: now) == true {
                    throttleProbe = true
                } else if (random?() ?? state.nextUnit()) < probability {
                    state.throttle?.shed(at: now)
                    let after = Duration.nanoseconds(state.throttle?.nextChange(after: now) ?? 0)
                    return (UpstreamRefusal(reason: .throttled, retryAfter: after), nil, nil)
                }
            }
            let transition = state.breaker?.admit(probe: probe) ?? nil
            let generation = state.breaker?.generation ?? 0
            state.budget?.started(isRetry: isRetry)
            let permit = UpstreamPermit(
                isRetry: isRetry, isProbe: probe, transition: transition, isThrottleProbe: throttleProbe,
                generation: generation, throttleEpoch: state.throttle?.epoch ?? 0,
                budgetEpoch: state.budget?.epoch ?? 0)
            return (nil, permit, transition == nil ? nil : Array(state.subscribers.values))
        }
        if let refusal { throw refusal }
        if let subscribers, let transition = permit!.transition { Self.deliver(transition, to: subscribers) }
        return permit!
    }

    /// Counts an attempt's outcome.
    /// - Parameters:
    ///   - outcome: What the attempt said about the upstream (``UpstreamOutcome``).
    ///   - permit: The attempt's permit, handed back exactly once.
    /// - Returns: The change of the circuit's state it made, or `nil`.
    @discardableResult
    public func record(_ outcome: UpstreamOutcome, for permit: UpstreamPermit) -> CircuitTransition? {
        let now = elapsed()
        let (transition, subscribers) = state.withLock {
            state -> (CircuitTransition?, [AsyncStream<CircuitTransition>.Continuation]?) in
            state.budget?.ended(isRetry: permit.isRetry, outcome: outcome, epoch: permit.budgetEpoch)
            state.throttle?.record(outcome, probe: permit.isThrottleProbe, epoch: permit.throttleEpoch, at: now)
            let transition =
                state.breaker?.record(outcome, probe: permit.isProbe, generation: permit.generation, at: now) ?? nil
            if transition?.to == .closed { state.recovered(at: now) }
            return (transition, transition == nil ? nil : Array(state.subscribers.values))
        }
        if let transition, let subscribers { Self.deliver(transition, to: subscribers) }
        return transition
    }

    /// Whether a retry sent `delay` from now would be admitted, as far as can be told now: the
    /// retry budget permits one, and the circuit will not be refusing everything then. (The
    /// throttle sheds at random, so only ``admit(isRetry:)`` knows.) A ``ResponseClient`` asks
    /// before waiting for a retry, so that it does not wait for one that would be refused.
    func mayRetry(after delay: Duration) -> Bool {
        let then = elapsed() &+ ResilienceSetting.nanoseconds(min(delay, ResilienceSetting.longest))
        return state.withLock { state in
            state.budget?.permitsRetry != false && state.breaker?.refusesAll(at: then) != true
        }
    }

    /// Whether the protection holds anything back now that a new one would not know: its circuit
    /// is not closed (isolated, half-open, or open with its break not over), its throttle is
    /// shedding, or its retry budget refuses retries. ``UpstreamProtections`` forgets only a
    /// protection that holds nothing back.
    var isHoldingBack: Bool {
        let now = elapsed()
        return state.withLock { state in
            state.breaker?.isHoldingBack(at: now) == true
                || (state.throttle?.rejectionProbability(at: now) ?? 0) > 0
                || state.budget?.tokensPermitRetry == false
        }
    }

    /// Opens the circuit by hand: every request is refused (``UpstreamRefusal/Reason/circuitIsolated``)
    /// until ``reset()``.
    /// - Returns: The change of state, or `nil` when there is no breaker or it was isolated already.
    @discardableResult
    public func isolate() -> CircuitTransition? {
        change { state, _ in state.breaker?.isolate() }
    }

    /// Closes the circuit with an empty window, whatever its state.
    /// - Returns: The change of state, or `nil` when there is no breaker or it was closed already.
    @discardableResult
    public func reset() -> CircuitTransition? {
        change { state, now in
            let transition = state.breaker?.reset(at: now)
            state.recovered(at: now)
            return transition
        }
    }

    /// The circuit's state, or `nil` without a breaker. An open circuit whose break is over reads
    /// open until the next request probes it.
    public var circuitState: CircuitState? {
        state.withLock { $0.breaker?.state }
    }

    /// The retry budget's configuration and current state, or `nil` without one.
    public var retryBudget: RetryBudget? {
        state.withLock { $0.budget }
    }

    /// The circuit breaker's configuration and current state, or `nil` without one.
    public var circuitBreaker: CircuitBreaker? {
        state.withLock { $0.breaker }
    }

    /// The adaptive throttle's configuration and current state, or `nil` without one.
    public var throttle: AdaptiveThrottle? {
        state.withLock { $0.throttle }
    }

    /// The circuit's changes of state from now on, as an `AsyncSequence`.
    ///
    /// Each iterator registers when it is made and unregisters when it finishes, is dropped, or its
    /// task is cancelled: a sequence nobody iterates costs nothing, and none is kept for a listener
    /// that went away. Changes are handed over without waiting for the listener; one that falls
    /// behind by more than `bufferingNewest` changes loses the oldest.
    /// - Parameter bufferingNewest: The changes kept for a listener that has not read them (16).
    /// - Returns: The sequence.
    public func circuitTransitions(bufferingNewest: Int = 16) -> CircuitTransitions {
        CircuitTransitions(protection: self, buffer: max(1, bufferingNewest))
    }

    /// The number of registered listeners (for tests).
    package var listenerCount: Int {
        state.withLock { $0.subscribers.count }
    }

    /// Registers a listener; returns its key.
    func addListener(_ continuation: AsyncStream<CircuitTransition>.Continuation) -> Int {
        state.withLock { state in
            defer { state.nextSubscriber += 1 }
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
    }

    /// Unregisters a listener.
    func removeListener(_ key: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: key) }
    }

    /// Applies a change by hand and tells the listeners.
    private func change(_ body: (inout State, Int64) -> CircuitTransition?) -> CircuitTransition? {
        let now = elapsed()
        let (transition, subscribers) = state.withLock {
            state -> (CircuitTransition?, [AsyncStream<CircuitTransition>.Continuation]?) in
            let transition = body(&state, now)
            return (transition, transition == nil ? nil : Array(state.subscribers.values))
        }
        if let transition, let subscribers { Self.deliver(transition, to: subscribers) }
        return transition
    }

    /// Hands a change to the listeners, outside the lock; `yield` never waits.
    private static func deliver(
        _ transition: CircuitTransition, to subscribers: [AsyncStream<CircuitTransition>.Continuation]
    ) {
        for subscriber in subscribers { subscriber.yield(transition) }
    }
}
