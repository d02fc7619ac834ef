import SwiftErrTesting
import Testing

@testable import SwiftErr

/// What the three parts of an ``UpstreamProtection`` share once the upstream is back: the circuit
/// closing after its probe, or ``UpstreamProtection/reset()``, empties the throttle's window and
/// fills the retry budget's bucket; and the bound that follows, every request admitted again within
/// the break plus one probe interval of the upstream's return. All on a manual clock.
@Suite("Upstream recovery: what the breaker, the throttle and the budget share")
struct UpstreamRecoveryTests {
    /// A breaker opening at 50 % over 4 outcomes with a 5 s break, a 10-token budget, a throttle
    /// shedding from 4 requests on with a probe every 5 s, and a draw of 0: any probability above
    /// zero sheds every request but the throttle's probe.
    static func protection(
        _ clock: ManualClock,
        breaker: CircuitBreaker? = try! CircuitBreaker(
            failureRatio: 0.5, minimumThroughput: 4, breakDuration: .seconds(5))
    ) throws -> UpstreamProtection {
        UpstreamProtection(
            retryBudget: try RetryBudget(maxTokens: 10), circuitBreaker: breaker,
            throttle: try AdaptiveThrottle(minimumRequests: 4, probeInterval: .seconds(5)), clock: clock,
            random: { 0 })
    }

    /// An outage: six attempts in flight at once all fail. The circuit opens on the fourth (the
    /// last two belong to the closed circuit and are not counted by it); the budget is down to 4
    /// tokens, and the throttle's window holds six failed requests.
    static func outage(_ protection: UpstreamProtection) throws {
        let permits = try (0..<6).map { _ in try protection.admit() }
        for permit in permits { protection.record(.failure(.transport), for: permit) }
        #expect(protection.retryBudget?.tokens == 4)
        #expect(protection.retryBudget?.tokensPermitRetry == false)
        #expect(protection.throttle?.requests == 6)
        #expect((protection.throttle?.rejectionProbability ?? 0) > 0.8)
    }

    @Test("the circuit closing after its probe empties the throttle's window and fills the budget's bucket")
    func closingRecoversAll() throws {
        let clock = ManualClock()
        let protection = try Self.protection(clock)
        try Self.outage(protection)
        #expect(protection.circuitState == .open)
        clock.advance(by: .seconds(5))
        let probe = try protection.admit()
        #expect(probe.isProbe, "the breaker's probe")
        #expect(!probe.isThrottleProbe, "the throttle is not asked: the breaker decided the upstream is to be tried")
        #expect(protection.record(.success, for: probe) == CircuitTransition(from: .halfOpen, to: .closed))
        #expect(protection.throttle?.requests == 0)
        #expect(protection.throttle?.rejectionProbability == 0)
        #expect(protection.retryBudget?.tokens == 10)
        #expect(protection.isHoldingBack == false)
        // With a draw of 0, any probability above zero would shed: every request passes, a retry too.
        for _ in 0..<3 {
            let permit = try protection.admit()
            #expect(!permit.isThrottleProbe)
            protection.record(.success, for: permit)
        }
        protection.record(.success, for: try protection.admit(isRetry: true))
    }

    @Test("a failed probe reopens the circuit and changes neither the throttle nor the budget but by its own failure")
    func failedProbeRecoversNothing() throws {
        let clock = ManualClock()
        let protection = try Self.protection(clock)
        try Self.outage(protection)
        clock.advance(by: .seconds(5))
        let probe = try protection.admit()
        #expect(protection.record(.failure(.serverError), for: probe) == CircuitTransition(from: .halfOpen, to: .open))
        #expect(protection.throttle?.requests == 7, "the probe's failure is counted")
        #expect(protection.throttle?.accepts == 0)
        #expect(protection.retryBudget?.tokens == 3)
        #expect(protection.isHoldingBack)
    }

    @Test("reset() empties the throttle's window and fills the budget's bucket, an open circuit or a closed one")
    func resetRecoversAll() throws {
        let clock = ManualClock()
        let open = try Self.protection(clock)
        try Self.outage(open)
        #expect(open.reset() == CircuitTransition(from: .open, to: .closed))
        #expect(open.throttle?.requests == 0)
        #expect(open.retryBudget?.tokens == 10)
        #expect(!open.isHoldingBack)
        // A breaker that does not open (100 outcomes needed): the throttle sheds and the budget is
        // spent while the circuit stays closed; reset() clears them all the same.
        let closed = try Self.protection(clock, breaker: try CircuitBreaker(minimumThroughput: 100))
        try Self.outage(closed)
        #expect(closed.circuitState == .closed)
        #expect(closed.isHoldingBack)
        #expect(closed.reset() == nil, "the circuit was closed already")
        #expect(closed.throttle?.requests == 0)
        #expect(closed.retryBudget?.tokens == 10)
        #expect(!closed.isHoldingBack)
        // Without a breaker too.
        let alone = try Self.protection(clock, breaker: nil)
        try Self.outage(alone)
        #expect(alone.reset() == nil)
        #expect(alone.throttle?.requests == 0 && alone.retryBudget?.tokens == 10)
    }

    @Test("outcomes of requests admitted before the circuit closed do not reach the emptied throttle")
    func staleOutcomesAfterClosing() throws {
        let clock = ManualClock()
        let protection = try Self.protection(clock)
        let early = try (0..<6).map { _ in try protection.admit() }
        for permit in early[..<4] { protection.record(.failure(.transport), for: permit) }
        #expect(protection.circuitState == .open)
        clock.advance(by: .seconds(5))
        protection.record(.success, for: try protection.admit())
        #expect(protection.circuitState == .closed)
        protection.record(.failure(.transport), for: early[4])
        protection.record(.failure(.transport), for: early[5])
        #expect(protection.throttle?.requests == 0, "they describe the upstream as it was")
        #expect(protection.circuitBreaker?.windowOutcomes == 0)
        #expect(protection.retryBudget?.tokens == 10, "nor take tokens from the refilled bucket")
        #expect(protection.retryBudget?.activeAttempts == 0, "though they are no longer in flight")
    }

    /// A deterministic random source: SplitMix64 from a fixed seed.
    final class SplitMix: Sendable {
        private let state = Locked<UInt64>(0x5EED)
        var source: @Sendable () -> Double {
            { [state] in
                state.withLock { state in
                    state &+= 0x9E37_79B9_7F4A_7C15
                    var z = state
                    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                    return Double((z ^ (z >> 31)) >> 11) * 0x1.0p-53
                }
            }
        }
    }

    @Test(
        "with the defaults, after a 2-minute outage every request is admitted again within the break plus one probe interval",
        arguments: [1, 10, 50])
    func recoveryBound(requestsPerSecond: Int) throws {
        let clock = ManualClock()
        let protection = UpstreamProtection(clock: clock, random: SplitMix().source)
        let step = Duration.seconds(1) / requestsPerSecond
        let recovery = Duration.seconds(120)
        var refusedDuringOutage = 0
        var lastRefusal: Duration?
        var elapsed = Duration.zero
        while elapsed < .seconds(600) {
            let down = elapsed < recovery
            do {
                let permit = try protection.admit()
                protection.record(down ? .failure(.serverError) : .success, for: permit)
            } catch {
                if down { refusedDuringOutage += 1 }
                lastRefusal = elapsed
            }
            clock.advance(by: step)
            elapsed += step
        }
        #expect(refusedDuringOutage > 0, "the protection held back during the outage")
        let bound = recovery + CircuitBreaker.default.breakDuration + AdaptiveThrottle.default.probeInterval
        let last = try #require(lastRefusal)
        #expect(last < bound, "last refusal at \(last), \(last - recovery) after the upstream's return")
    }
}
