import Foundation

/// One ``UpstreamProtection`` per upstream (by default its host and port; see ``UpstreamKeying``),
/// made the first time a request goes there: what a ``ResponseClient`` consults before each attempt.
///
/// <!-- listing: context=app -->
/// ```swift
/// let upstreams = try UpstreamProtections()     // retry budget, breaker and throttle, the defaults
/// let client = ResponseClient(session: .shared, decoder: decoder, protections: upstreams)
/// let uploads = ResponseClient(session: uploadSession, protections: upstreams)   // the same upstreams
/// ```
///
/// ## One for the whole app
/// The protections are the registry's, not a client's: give every client the same registry and each
/// upstream is protected once, whichever client calls it. Its circuit opens for all of them, its
/// retry budget is shared by all of them, as the upstream sees them. Two registries protect the
/// same upstream twice, each knowing half of what happens to it.
///
/// ## Other settings for some upstreams
/// The protection of a new upstream comes from a function of yours: other settings for one host,
/// a protection you also use elsewhere (a gateway's, one whose transitions you listen to), or none.
///
/// <!-- listing: context=app -->
/// ```swift
/// let search = UpstreamProtection(circuitBreaker: try CircuitBreaker(failureRatio: 0.5), throttle: nil)
/// let upstreams = try UpstreamProtections { upstream in
///     switch upstream.host {
///     case "search.example.com": return search      // the same protection whenever it is asked for
///     case "cdn.example.com": return nil            // not protected
///     default: return UpstreamProtection()
///     }
/// }
/// ```
///
/// ## How many upstreams it keeps
/// Hosts come from URLs, and URLs can come from anywhere (a link in a response), so the registry
/// keeps at most ``capacity`` upstreams (64 by default; a protection with all three parts is a few
/// hundred bytes). When it is full, a new upstream takes the place of the one used least recently
/// among those whose protection holds nothing back: its circuit closed (or open with its break
/// over, so that its next request would be a probe), its throttle not shedding, its retry budget
/// permitting retries. Forgetting such a protection loses a window of history, never a decision in
/// force; a flood of new hosts cannot reopen a circuit that is open. When every upstream kept is
/// holding something back, the new upstream's requests are sent unprotected (and it is not kept).
///
/// ## Threads
/// Any thread may ask at any time: one lock guards the upstreams (a dictionary lookup per request).
/// Your function is called outside the lock and may be called twice for the same upstream when two
/// requests to it arrive together; the first result is kept.
public final class UpstreamProtections: Sendable {
    /// Makes the protection of an upstream the registry does not hold yet, or `nil` to leave it
    /// unprotected.
    public typealias Factory = @Sendable (Upstream) -> UpstreamProtection?

    /// The most upstreams kept.
    public let capacity: Int
    /// How requests are told apart into upstreams.
    public let keying: UpstreamKeying

    private let make: Factory
    private let state: Locked<State>

    private struct Entry {
        let protection: UpstreamProtection?
        /// When it was last asked for, in lookups since the registry was made.
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Upstream: Entry] = [:]
        var lookups: UInt64 = 0
    }

    /// Creates a registry whose protections `make` makes.
    /// - Parameters:
    ///   - capacity: The most upstreams kept, 1 or more (64).
    ///   - keying: How requests are told apart into upstreams (``UpstreamKeying/host``).
    ///   - make: Makes the protection of a new upstream, or returns `nil` for none.
    /// - Throws: ``ResilienceConfigurationError`` for a capacity below 1.
    public init(capacity: Int = 64, keying: UpstreamKeying = .host, making make: @escaping Factory)
        throws(ResilienceConfigurationError)
    {
        self.capacity = try ResilienceSetting.integer(capacity, "UpstreamProtections.capacity", in: 1...Int.max)
        self.keying = keying
        self.make = make
        state = Locked(State())
    }

    /// Creates a registry that gives every upstream a protection of its own with these parts.
    /// - Parameters:
    ///   - retryBudget: The retry budget, or `nil` for none (``RetryBudget/default``).
    ///   - circuitBreaker: The circuit breaker, or `nil` for none (``CircuitBreaker/default``).
    ///   - throttle: The adaptive throttle, or `nil` for none (``AdaptiveThrottle/default``).
    ///   - capacity: The most upstreams kept, 1 or more (64).
    ///   - keying: How requests are told apart into upstreams (``UpstreamKeying/host``).
    /// - Throws: ``ResilienceConfigurationError`` for a capacity below 1.
    public convenience init(
        retryBudget: RetryBudget? = .default, circuitBreaker: CircuitBreaker? = .default,
        throttle: AdaptiveThrottle? = .default, capacity: Int = 64, keying: UpstreamKeying = .host
    ) throws(ResilienceConfigurationError) {
        try self.init(capacity: capacity, keying: keying) { _ in
            UpstreamProtection(retryBudget: retryBudget, circuitBreaker: circuitBreaker, throttle: throttle)
        }
    }

    /// Creates a registry that gives every upstream a protection of its own with these parts, on an
    /// injected clock (a `ManualClock` in tests).
    /// - Parameters:
    ///   - retryBudget: The retry budget, or `nil` for none.
    ///   - circuitBreaker: The circuit breaker, or `nil` for none.
    ///   - throttle: The adaptive throttle, or `nil` for none.
    ///   - capacity: The most upstreams kept, 1 or more (64).
    ///   - keying: How requests are told apart into upstreams (``UpstreamKeying/host``).
    ///   - clock: The clock every protection's windows and breaks are measured on.
    ///   - random: A random number in `0 ..< 1` for the throttles, or `nil` for a fast generator of
    ///     each protection's own, seeded by the system. Give a seeded source (a
    ///     `PipelineSimulation`'s ``PipelineClock/random``) to make a run repeatable. It is called
    ///     with a protection's lock held and must not call the protection.
    /// - Throws: ``ResilienceConfigurationError`` for a capacity below 1.
    public convenience init<C: Clock<Duration>>(
        retryBudget: RetryBudget? = .default, circuitBreaker: CircuitBreaker? = .default,
        throttle: AdaptiveThrottle? = .default, capacity: Int = 64, keying: UpstreamKeying = .host, clock: C,
        random: (@Sendable () -> Double)? = nil
    ) throws(ResilienceConfigurationError) {
        try self.init(capacity: capacity, keying: keying) { _ in
            UpstreamProtection(
                retryBudget: retryBudget, circuitBreaker: circuitBreaker, throttle: throttle, clock: clock,
                random: random)
        }
    }

    /// The protection of a request's upstream as it is now, without making one: `nil` when no
    /// request has gone there yet (or it was forgotten), when the upstream is left unprotected, or
    /// when the keying sends the request unprotected. Reading changes nothing, not even which
    /// upstream was used last.
    /// - Parameter request: A request.
    /// - Returns: The protection, or `nil`.
    public func protection(for request: TransportRequest) -> UpstreamProtection? {
        keying.upstream(request).flatMap(protection(for:))
    }

    /// The protection of the upstream a URL is sent to, as it is now, without making one (see
    /// ``protection(for:)-(TransportRequest)``; the keying sees a GET of the URL).
    /// - Parameter url: A request's URL.
    /// - Returns: The protection, or `nil`.
    public func protection(for url: URL) -> UpstreamProtection? {
        protection(for: TransportRequest(url: url))
    }

    /// The protection of an upstream as it is now, without making one (see
    /// ``protection(for:)-(TransportRequest)``).
    /// - Parameter upstream: The upstream.
    /// - Returns: The protection, or `nil`.
    public func protection(for upstream: Upstream) -> UpstreamProtection? {
        state.withLock { $0.entries[upstream]?.protection }
    }

    /// The protection of a request's upstream, made on first use: what a ``ResponseClient`` asks
    /// before it sends.
    /// - Parameter request: The request about to be sent.
    /// - Returns: The protection, or `nil` when the keying sends the request unprotected, the
    ///   upstream is left unprotected, or the registry is full of upstreams holding something back.
    public func protection(forSending request: TransportRequest) -> UpstreamProtection? {
        guard let upstream = keying.upstream(request) else { return nil }
        let known: UpstreamProtection?? = state.withLock { state in
            state.lookups &+= 1
            guard let index = state.entries.index(forKey: upstream) else { return .none }
            state.entries.values[index].lastUse = state.lookups
            return .some(state.entries.values[index].protection)
        }
        if let known { return known }
        let made = make(upstream)
        return state.withLock { state in
            if let index = state.entries.index(forKey: upstream) { return state.entries.values[index].protection }
            if state.entries.count >= capacity {
                guard let forgotten = Self.leastRecentlyUsedIdle(in: state.entries) else { return nil }
                state.entries[forgotten] = nil
            }
            state.entries[upstream] = Entry(protection: made, lastUse: state.lookups)
            return made
        }
    }

    /// The upstreams kept, in no particular order.
    public var upstreams: [Upstream] {
        state.withLock { Array($0.entries.keys) }
    }

    /// The upstream used least recently whose protection holds nothing back, or `nil`.
    private static func leastRecentlyUsedIdle(in entries: [Upstream: Entry]) -> Upstream? {
        var chosen: (upstream: Upstream, lastUse: UInt64)?
        for (upstream, entry) in entries where entry.lastUse < chosen?.lastUse ?? .max {
            if entry.protection?.isHoldingBack != true { chosen = (upstream, entry.lastUse) }
        }
        return chosen?.upstream
    }
}
