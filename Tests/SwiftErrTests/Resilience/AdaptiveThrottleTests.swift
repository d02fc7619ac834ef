import SwiftErr
import SwiftErrTesting
import Testing

/// Client-side adaptive throttling: the SRE formula, with the randomness injected, and the probe
/// that lets one request per interval through while it sheds.
@Suite("Adaptive throttle")
struct AdaptiveThrottleTests {
    /// A random source that returns what the test last stored.
    final class FixedRandom: Sendable {
        /// Above every probability the tests reach until they lower it: nothing is shed.
        let value = Locked(0.999_999)
        var source: @Sendable () -> Double { { [value] in value.withLock { $0 } } }
    }

    static func make(_ throttle: AdaptiveThrottle, random: FixedRandom) -> (UpstreamProtection, ManualClock) {
        let clock = ManualClock()
        let protection = UpstreamProtection(
            retryBudget: nil, circuitBreaker: nil, throttle: throttle, clock: clock, random: random.source)
        return (protection, clock)
    }

    static func attempt(_ protection: UpstreamProtection, _ outcome: UpstreamOutcome) throws {
        let permit = try protection.admit()
        protection.record(outcome, for: permit)
    }

    @Test("nothing is shed while the upstream accepts at least one request in k")
    func noSheddingWhileAccepting() throws {
        let random = FixedRandom()
        random.value.withLock { $0 = 0 }
        let (protection, _) = Self.make(try AdaptiveThrottle(minimumRequests: 0), random: random)
        // With a draw of 0, any probability above zero would shed.
        for _ in 0..<100 {
            try Self.attempt(protection, .answer)
            try Self.attempt(protection, .failure(.transport))
        }
        #expect(protection.throttle?.requests == 200)
        #expect(protection.throttle?.accepts == 100)
        #expect(protection.throttle?.rejectionProbability == 0)
    }

    @Test("the probability is max(0, (requests − k·accepts) / (requests + 1)), and the draw decides")
    func formula() throws {
        let random = FixedRandom()
        let (protection, _) = Self.make(try AdaptiveThrottle(minimumRequests: 0), random: random)
        for _ in 0..<9 { try Self.attempt(protection, .failure(.serverError)) }
        try Self.attempt(protection, .success)
        // 10 requests, 1 accept: (10 − 2) / 11.
        let probability = try #require(protection.throttle?.rejectionProbability)
        #expect(abs(probability - 8.0 / 11.0) < 1e-12)
        random.value.withLock { $0 = 0.73 }  // above 8/11 = 0.727…: passes
        let permit = try protection.admit()
        protection.record(.failure(.serverError), for: permit)
        // 11 requests, 1 accept: (11 − 2) / 12 = 0.75.
        random.value.withLock { $0 = 0.74 }
        let refusal = #expect(throws: UpstreamRefusal.self) { try protection.admit() }
        #expect(refusal?.reason == .throttled)
        #expect(refusal?.isShed == true)
        #expect(protection.throttle?.requests == 12, "a shed request is counted as a request")
        #expect(protection.throttle?.accepts == 1)
    }

    @Test("an upstream down for good: nearly everything is shed, and some requests still reach it")
    func downForGood() throws {
        let protection = UpstreamProtection(
            retryBudget: nil, circuitBreaker: nil, throttle: try AdaptiveThrottle(minimumRequests: 0),
            clock: ManualClock())
        var sent = 0
        for _ in 0..<2000 {
            if let permit = try? protection.admit() {
                sent += 1
                protection.record(.failure(.transport), for: permit)
            }
        }
        // The probability after r requests is r / (r + 1): about ln(2000) ≈ 8 get through.
        #expect(sent > 1 && sent < 100, "sent \(sent) of 2000")
        #expect(protection.throttle?.requests == 2000)
    }

    @Test("shedding stops as the window moves past the failures; a shed request learns when that is")
    func recovers() throws {
        let random = FixedRandom()
        let (protection, clock) = Self.make(
            try AdaptiveThrottle(k: 2, window: .seconds(100), minimumRequests: 0), random: random)
        // The second of these requests, at 0 s, is the throttle's probe of its first interval.
        for _ in 0..<10 { try Self.attempt(protection, .failure(.transport)) }
        random.value.withLock { $0 = 0 }  // from now on, any probability above zero sheds
        clock.advance(by: .seconds(3))
        let refusal = #expect(throws: UpstreamRefusal.self) { try protection.admit() }
        #expect(refusal?.retryAfter == .seconds(7), "the 10 s bucket ends at 10 s")
        clock.advance(by: .seconds(101))
        #expect(throws: Never.self) { _ = try protection.admit() }
        #expect(protection.throttle?.requests == 0)
    }

    @Test("nothing is shed below the minimum of requests in the window, however many fail")
    func minimum() throws {
        let random = FixedRandom()
        random.value.withLock { $0 = 0 }
        let (protection, _) = Self.make(try AdaptiveThrottle(minimumRequests: 20), random: random)
        for _ in 0..<19 {
            let permit = try protection.admit()
            #expect(!permit.isThrottleProbe, "nothing is shed yet: no probe either")
            protection.record(.failure(.transport), for: permit)
        }
        #expect(protection.throttle?.rejectionProbability == 0)
        try Self.attempt(protection, .failure(.transport))
        #expect(abs((protection.throttle?.rejectionProbability ?? 0) - 20.0 / 21.0) < 1e-12)
        // Shedding: the first request of the probe interval passes as the probe, the next is shed.
        let probe = try protection.admit()
        #expect(probe.isThrottleProbe)
        #expect(throws: UpstreamRefusal.self) { try protection.admit() }
    }

    // MARK: - Probes

    /// A throttle shedding at 0 s: 10 failed requests of at least 10, and a draw of 0, so that every
    /// request but the probe is shed.
    static func shedding(probeInterval: Duration = .seconds(5)) throws -> (UpstreamProtection, ManualClock) {
        let random = FixedRandom()
        random.value.withLock { $0 = 0 }
        let (protection, clock) = Self.make(
            try AdaptiveThrottle(minimumRequests: 10, probeInterval: probeInterval), random: random)
        for _ in 0..<10 { try Self.attempt(protection, .failure(.transport)) }
        #expect(abs((protection.throttle?.rejectionProbability ?? 0) - 10.0 / 11.0) < 1e-12)
        return (protection, clock)
    }

    /// The permits of `count` requests at once; the refused ones are shed.
    static func admitted(_ protection: UpstreamProtection, of count: Int) -> [UpstreamPermit] {
        (0..<count).compactMap { _ -> UpstreamPermit? in
            do throws(UpstreamRefusal) {
                return try protection.admit()
            } catch {
                #expect(error.reason == .throttled)
                return nil
            }
        }
    }

    @Test("while shedding, exactly one request per probe interval passes, as the probe")
    func oneProbePerInterval() throws {
        let (protection, clock) = try Self.shedding()
        var probes = Self.admitted(protection, of: 100)
        #expect(probes.count == 1)
        #expect(probes.allSatisfy { $0.isThrottleProbe })
        protection.record(.failure(.serverError), for: probes[0])
        clock.advance(by: .seconds(5) - .nanoseconds(1))
        #expect(Self.admitted(protection, of: 100).isEmpty, "the interval is not over")
        clock.advance(by: .nanoseconds(1))
        probes = Self.admitted(protection, of: 100)
        #expect(probes.count == 1 && probes[0].isThrottleProbe)
        // The interval counts from the last probe: 7 s later, not at 10 s.
        protection.record(.failure(.serverError), for: probes[0])
        clock.advance(by: .seconds(4))
        #expect(Self.admitted(protection, of: 10).isEmpty)
        clock.advance(by: .seconds(1))
        #expect(Self.admitted(protection, of: 10).count == 1)
    }

    @Test("an accepted probe empties the window: shedding stops at once")
    func acceptedProbeEndsShedding() throws {
        let (protection, _) = try Self.shedding()
        let probe = try #require(Self.admitted(protection, of: 20).first)
        #expect((protection.throttle?.requests ?? 0) > 10, "shed requests count as requests")
        protection.record(.answer, for: probe)
        #expect(protection.throttle?.requests == 0)
        #expect(protection.throttle?.accepts == 0)
        #expect(protection.throttle?.rejectionProbability == 0)
        // With a draw of 0 any probability above zero would shed: none is.
        let next = Self.admitted(protection, of: 9)
        #expect(next.count == 9)
        #expect(!next.contains { $0.isThrottleProbe })
    }

    @Test(
        "a failed probe, or one cancelled, does not end the shedding; the next probe comes an interval later",
        arguments: [UpstreamOutcome.failure(.transport), .failure(.serverError), .unjudged])
    func failedProbeKeepsShedding(outcome: UpstreamOutcome) throws {
        let (protection, clock) = try Self.shedding()
        let probe = try #require(Self.admitted(protection, of: 1).first)
        protection.record(outcome, for: probe)
        #expect((protection.throttle?.rejectionProbability ?? 0) > 0.9)
        #expect(Self.admitted(protection, of: 10).isEmpty)
        clock.advance(by: .seconds(5))
        #expect(Self.admitted(protection, of: 10).count == 1)
    }

    @Test("outcomes of requests admitted before the window was emptied are not counted")
    func outcomesBeforeAClearAreIgnored() throws {
        let random = FixedRandom()
        random.value.withLock { $0 = 0 }
        let (protection, _) = Self.make(try AdaptiveThrottle(minimumRequests: 10), random: random)
        // Twelve requests in flight at once, before anything is known.
        let early = (0..<12).map { _ in try? protection.admit() }.compactMap { $0 }
        #expect(early.count == 12)
        for permit in early[..<10] { protection.record(.failure(.transport), for: permit) }
        let probe = try #require(Self.admitted(protection, of: 5).first)
        protection.record(.success, for: probe)
        #expect(protection.throttle?.requests == 0)
        // The last two answer after the window was emptied: they describe the upstream as it was.
        protection.record(.failure(.transport), for: early[10])
        protection.record(.success, for: early[11])
        #expect(protection.throttle?.requests == 0)
        #expect(protection.throttle?.accepts == 0)
        // A request admitted after the clear counts.
        try Self.attempt(protection, .failure(.transport))
        #expect(protection.throttle?.requests == 1)
    }

    @Test("a larger k sheds later: at k = 3, one accept in three is enough")
    func largerK() throws {
        let (protection, _) = Self.make(try AdaptiveThrottle(k: 3, minimumRequests: 0), random: FixedRandom())
        for _ in 0..<10 {
            try Self.attempt(protection, .failure(.transport))
            try Self.attempt(protection, .failure(.transport))
            try Self.attempt(protection, .success)
        }
        #expect(protection.throttle?.rejectionProbability == 0)
        try Self.attempt(protection, .failure(.transport))
        #expect((protection.throttle?.rejectionProbability ?? 0) > 0)
    }

    static let badSettings: [(@Sendable () throws -> Void, String)] = [
        ({ _ = try AdaptiveThrottle(k: 0.5) }, "AdaptiveThrottle.k is 0.5; it must be a finite number of at least 1"),
        ({ _ = try AdaptiveThrottle(k: .nan) }, "AdaptiveThrottle.k is nan; it must be a finite number of at least 1"),
        (
            { _ = try AdaptiveThrottle(window: .zero) },
            "AdaptiveThrottle.window is 0.0 seconds; it must be longer than zero (at least 10 ns) and at most 24 hours"
        ),
        (
            { _ = try AdaptiveThrottle(window: .milliseconds(-5)) },
            "AdaptiveThrottle.window is -0.005 seconds; it must be longer than zero (at least 10 ns) and at most 24 hours"
        ),
        (
            { _ = try AdaptiveThrottle(minimumRequests: -1) },
            "AdaptiveThrottle.minimumRequests is -1; it must be at least 0"
        ),
        (
            { _ = try AdaptiveThrottle(probeInterval: .zero) },
            "AdaptiveThrottle.probeInterval is 0.0 seconds; it must be longer than zero (at least 1 ns) and at most 24 hours"
        ),
        (
            { _ = try AdaptiveThrottle(probeInterval: .seconds(86_401)) },
            "AdaptiveThrottle.probeInterval is 86401.0 seconds; it must be longer than zero (at least 1 ns) and at most 24 hours"
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

    @Test("the defaults are the SRE book's: k = 2 over two minutes; a probe every 5 s, the breaker's break")
    func defaults() {
        #expect(AdaptiveThrottle.default.k == 2)
        #expect(AdaptiveThrottle.default.window == .seconds(120))
        #expect(AdaptiveThrottle.default.minimumRequests == 100)
        #expect(AdaptiveThrottle.default.probeInterval == .seconds(5))
        #expect(AdaptiveThrottle.default.probeInterval == CircuitBreaker.default.breakDuration)
        #expect(AdaptiveThrottle.default.rejectionProbability == 0)
    }
}
