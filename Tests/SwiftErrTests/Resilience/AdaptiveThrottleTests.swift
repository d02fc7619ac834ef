import SwiftErr
import SwiftErrTesting
import Testing

/// Client-side adaptive throttling: the SRE formula, with the randomness injected.
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
        for _ in 0..<19 { try Self.attempt(protection, .failure(.transport)) }
        #expect(protection.throttle?.rejectionProbability == 0)
        try Self.attempt(protection, .failure(.transport))
        #expect(abs((protection.throttle?.rejectionProbability ?? 0) - 20.0 / 21.0) < 1e-12)
        #expect(throws: UpstreamRefusal.self) { try protection.admit() }
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
    ]

    @Test("bad settings are refused with the setting, the value and the range", arguments: badSettings)
    func refusesBadSetting(make: @Sendable () throws -> Void, message: String) {
        #expect {
            try make()
        } throws: { error in
            (error as? ResilienceConfigurationError)?.description == message
        }
    }

    @Test("the defaults are the SRE book's: k = 2 over two minutes")
    func defaults() {
        #expect(AdaptiveThrottle.default.k == 2)
        #expect(AdaptiveThrottle.default.window == .seconds(120))
        #expect(AdaptiveThrottle.default.minimumRequests == 100)
        #expect(AdaptiveThrottle.default.rejectionProbability == 0)
    }
}
