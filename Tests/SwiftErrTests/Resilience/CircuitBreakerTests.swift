import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

/// Every transition of the circuit breaker, on a manual clock.
@Suite("Circuit breaker", .timeLimit(.minutes(1)))
struct CircuitBreakerTests {
    /// A protection with only a breaker, on a manual clock.
    static func make(_ breaker: CircuitBreaker) -> (UpstreamProtection, ManualClock) {
        let clock = ManualClock()
        return (UpstreamProtection(retryBudget: nil, circuitBreaker: breaker, throttle: nil, clock: clock), clock)
    }

    /// 50 % over at least 4 outcomes in 10 s, a 5 s break, 2 probes.
    static func small() throws -> CircuitBreaker {
        try CircuitBreaker(
            failureRatio: 0.5, minimumThroughput: 4, samplingDuration: .seconds(10), breakDuration: .seconds(5),
            halfOpenProbes: 2)
    }

    @discardableResult
    static func attempt(_ protection: UpstreamProtection, _ outcome: UpstreamOutcome) throws -> CircuitTransition? {
        let permit = try protection.admit()
        return protection.record(outcome, for: permit)
    }

    @Test("closed → open: at the failure ratio once the minimum throughput is reached, not before")
    func opens() throws {
        let (protection, _) = Self.make(try Self.small())
        #expect(try Self.attempt(protection, .failure(.transport)) == nil)
        #expect(try Self.attempt(protection, .failure(.transport)) == nil)
        #expect(try Self.attempt(protection, .failure(.transport)) == nil, "3 outcomes: below the minimum")
        #expect(protection.circuitState == .closed)
        #expect(protection.circuitBreaker?.windowFailures == 3)
        let transition = try Self.attempt(protection, .failure(.serverError))
        #expect(transition == CircuitTransition(from: .closed, to: .open))
        #expect(protection.circuitState == .open)
    }

    @Test("business answers, base codes and 4xx are successes: 100 % of them never open the circuit")
    func answersKeepItClosed() throws {
        let (protection, _) = Self.make(try CircuitBreaker(failureRatio: 0.1, minimumThroughput: 10))
        for _ in 0..<1000 {
            try Self.attempt(protection, UpstreamOutcome(ModuleRespError<StudyGroupCode>.module(.wrongTeamCode)))
            try Self.attempt(protection, UpstreamOutcome(ModuleRespError<StudyGroupCode>.base(.tokenExpire)))
            try Self.attempt(protection, UpstreamOutcome(ModuleRespError<StudyGroupCode>.unacceptableStatus(404)))
        }
        #expect(protection.circuitState == .closed)
        #expect(protection.circuitBreaker?.windowFailures == 0)
        #expect(protection.circuitBreaker?.windowOutcomes == 3000)
    }

    @Test("a success among the failures keeps the ratio below the threshold; cancelled requests are not counted")
    func ratio() throws {
        let (protection, _) = Self.make(try Self.small())
        try Self.attempt(protection, .success)
        try Self.attempt(protection, .success)
        try Self.attempt(protection, .answer)
        try Self.attempt(protection, .unjudged)
        #expect(protection.circuitBreaker?.windowOutcomes == 3)
        try Self.attempt(protection, .failure(.transport))
        try Self.attempt(protection, .failure(.transport))
        #expect(protection.circuitState == .closed, "2 of 5 is 40 %")
        try Self.attempt(protection, .failure(.transport))
        #expect(protection.circuitState == .open, "3 of 6 is 50 %")
    }

    @Test("the window slides: failures older than the sampling duration no longer count")
    func windowSlides() throws {
        let (protection, clock) = Self.make(try Self.small())
        for _ in 0..<3 { try Self.attempt(protection, .failure(.transport)) }
        clock.advance(by: .seconds(11))
        try Self.attempt(protection, .failure(.transport))
        #expect(protection.circuitBreaker?.windowOutcomes == 1)
        #expect(protection.circuitState == .closed)
        // Within the window they add up: 2 s later, 4 failures of 4.
        for _ in 0..<2 { try Self.attempt(protection, .failure(.transport)) }
        clock.advance(by: .seconds(2))
        try Self.attempt(protection, .failure(.transport))
        #expect(protection.circuitState == .open)
    }

    @Test("open: refused at once with the rest of the break; half-open after it, the first request a probe")
    func openThenHalfOpen() throws {
        let (protection, clock) = Self.make(try Self.small())
        for _ in 0..<4 { try Self.attempt(protection, .failure(.transport)) }
        clock.advance(by: .seconds(2))
        let refusal = #expect(throws: UpstreamRefusal.self) { try protection.admit() }
        #expect(refusal?.reason == .circuitOpen)
        #expect(refusal?.retryAfter == .seconds(3))
        #expect(refusal?.isShed == true)
        clock.advance(by: .seconds(3))
        let probe = try protection.admit()
        #expect(probe.isProbe)
        #expect(probe.transition == CircuitTransition(from: .open, to: .halfOpen))
        #expect(protection.circuitState == .halfOpen)
        let second = try protection.admit()
        #expect(second.isProbe)
        #expect(second.transition == nil)
        let busy = #expect(throws: UpstreamRefusal.self) { try protection.admit() }
        #expect(busy?.reason == .circuitHalfOpen)
        #expect(busy?.retryAfter == .seconds(5))
    }

    @Test("half-open → closed when every probe passes, with an empty window")
    func probesClose() throws {
        let (protection, clock) = Self.make(try Self.small())
        for _ in 0..<4 { try Self.attempt(protection, .failure(.transport)) }
        clock.advance(by: .seconds(5))
        let first = try protection.admit()
        let second = try protection.admit()
        #expect(protection.record(.success, for: first) == nil)
        #expect(protection.circuitState == .halfOpen)
        #expect(protection.record(.answer, for: second) == CircuitTransition(from: .halfOpen, to: .closed))
        #expect(protection.circuitState == .closed)
        #expect(protection.circuitBreaker?.windowOutcomes == 0)
        _ = try protection.admit()
    }

    @Test("half-open → open when a probe fails, for a whole new break")
    func probeFails() throws {
        let (protection, clock) = Self.make(try Self.small())
        for _ in 0..<4 { try Self.attempt(protection, .failure(.transport)) }
        clock.advance(by: .seconds(5))
        let first = try protection.admit()
        let second = try protection.admit()
        #expect(protection.record(.failure(.timeout), for: first) == CircuitTransition(from: .halfOpen, to: .open))
        // The other probe's outcome belongs to a state that is gone: not counted.
        #expect(protection.record(.success, for: second) == nil)
        #expect(protection.circuitState == .open)
        clock.advance(by: .seconds(4))
        let refusal = #expect(throws: UpstreamRefusal.self) { try protection.admit() }
        #expect(refusal?.retryAfter == .seconds(1))
    }

    @Test("a cancelled probe frees its place without closing or opening")
    func cancelledProbe() throws {
        let (protection, clock) = Self.make(try Self.small())
        for _ in 0..<4 { try Self.attempt(protection, .failure(.transport)) }
        clock.advance(by: .seconds(5))
        let first = try protection.admit()
        let second = try protection.admit()
        #expect(protection.record(.unjudged, for: first) == nil)
        #expect(protection.circuitState == .halfOpen)
        let third = try protection.admit()
        #expect(third.isProbe)
        protection.record(.success, for: second)
        #expect(protection.record(.success, for: third) == CircuitTransition(from: .halfOpen, to: .closed))
    }

    @Test("outcomes of requests admitted before the circuit opened are ignored")
    func staleOutcomes() throws {
        let (protection, clock) = Self.make(try Self.small())
        let early = try protection.admit()
        for _ in 0..<4 { try Self.attempt(protection, .failure(.transport)) }
        #expect(protection.circuitState == .open)
        clock.advance(by: .seconds(5))
        let probe = try protection.admit()
        // The early request's success must not count as a probe's.
        #expect(protection.record(.success, for: early) == nil)
        protection.record(.success, for: probe)
        #expect(protection.circuitState == .halfOpen, "one probe of two has passed")
    }

    @Test("isolate refuses everything until reset; reset closes from any state with an empty window")
    func isolateAndReset() throws {
        let (protection, clock) = Self.make(try Self.small())
        try Self.attempt(protection, .failure(.transport))
        #expect(protection.isolate() == CircuitTransition(from: .closed, to: .isolated))
        #expect(protection.isolate() == nil)
        clock.advance(by: .seconds(3600))
        let refusal = #expect(throws: UpstreamRefusal.self) { try protection.admit() }
        #expect(refusal == UpstreamRefusal(reason: .circuitIsolated, retryAfter: nil))
        #expect(protection.reset() == CircuitTransition(from: .isolated, to: .closed))
        #expect(protection.reset() == nil)
        #expect(protection.circuitBreaker?.windowOutcomes == 0)
        for _ in 0..<4 { try Self.attempt(protection, .failure(.transport)) }
        #expect(protection.reset() == CircuitTransition(from: .open, to: .closed))
        _ = try protection.admit()
    }

    @Test("the changes of state arrive in order on an AsyncSequence")
    func transitionsSequence() async throws {
        let (protection, clock) = Self.make(try Self.small())
        var iterator = protection.circuitTransitions().makeAsyncIterator()
        #expect(protection.listenerCount == 1)
        for _ in 0..<4 { try Self.attempt(protection, .failure(.transport)) }
        clock.advance(by: .seconds(5))
        let first = try protection.admit()
        let second = try protection.admit()
        protection.record(.success, for: first)
        protection.record(.success, for: second)
        protection.isolate()
        protection.reset()
        var seen: [CircuitTransition] = []
        for _ in 0..<5 { if let next = await iterator.next() { seen.append(next) } }
        #expect(
            seen == [
                CircuitTransition(from: .closed, to: .open), CircuitTransition(from: .open, to: .halfOpen),
                CircuitTransition(from: .halfOpen, to: .closed), CircuitTransition(from: .closed, to: .isolated),
                CircuitTransition(from: .isolated, to: .closed),
            ])
    }

    @Test("no listener is kept: not for a sequence never iterated, a dropped iterator, or a cancelled task")
    func listenersDoNotLeak() async throws {
        let (protection, _) = Self.make(try Self.small())
        let sequence = protection.circuitTransitions()
        #expect(protection.listenerCount == 0, "a sequence registers only when iterated")
        do {
            var iterator = sequence.makeAsyncIterator()
            #expect(protection.listenerCount == 1)
            protection.isolate()
            #expect(await iterator.next() == CircuitTransition(from: .closed, to: .isolated))
        }
        #expect(protection.listenerCount == 0, "the dropped iterator unregistered")
        let started = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            var iterator = protection.circuitTransitions().makeAsyncIterator()
            started.continuation.yield()
            return await iterator.next()
        }
        for await _ in started.stream { break }
        #expect(protection.listenerCount == 1)
        task.cancel()
        #expect(await task.value == nil)
        #expect(protection.listenerCount == 0, "the cancelled listener unregistered")
    }

    @Test("a listener that does not read loses the oldest changes, and the breaker never waits for it")
    func slowListener() async throws {
        let (protection, _) = Self.make(try Self.small())
        var iterator = protection.circuitTransitions(bufferingNewest: 2).makeAsyncIterator()
        for _ in 0..<50 {
            protection.isolate()
            protection.reset()
        }
        #expect(await iterator.next() == CircuitTransition(from: .closed, to: .isolated))
        #expect(await iterator.next() == CircuitTransition(from: .isolated, to: .closed))
    }

    static let badSettings: [(@Sendable () throws -> Void, String)] = [
        (
            { _ = try CircuitBreaker(failureRatio: 1.01) },
            "CircuitBreaker.failureRatio is 1.01; it must be between 0 and 1"
        ),
        (
            { _ = try CircuitBreaker(failureRatio: -0.5) },
            "CircuitBreaker.failureRatio is -0.5; it must be between 0 and 1"
        ),
        (
            { _ = try CircuitBreaker(failureRatio: .infinity) },
            "CircuitBreaker.failureRatio is inf; it must be between 0 and 1"
        ),
        (
            { _ = try CircuitBreaker(minimumThroughput: 0) },
            "CircuitBreaker.minimumThroughput is 0; it must be at least 1"
        ),
        (
            { _ = try CircuitBreaker(samplingDuration: .zero) },
            "CircuitBreaker.samplingDuration is 0.0 seconds; it must be longer than zero (at least 10 ns) and at most 24 hours"
        ),
        (
            { _ = try CircuitBreaker(samplingDuration: .seconds(-30)) },
            "CircuitBreaker.samplingDuration is -30.0 seconds; it must be longer than zero (at least 10 ns) and at most 24 hours"
        ),
        (
            { _ = try CircuitBreaker(breakDuration: .seconds(-1)) },
            "CircuitBreaker.breakDuration is -1.0 seconds; it must be longer than zero (at least 1 ns) and at most 24 hours"
        ),
        (
            { _ = try CircuitBreaker(breakDuration: .seconds(86_401)) },
            "CircuitBreaker.breakDuration is 86401.0 seconds; it must be longer than zero (at least 1 ns) and at most 24 hours"
        ),
        ({ _ = try CircuitBreaker(halfOpenProbes: 0) }, "CircuitBreaker.halfOpenProbes is 0; it must be at least 1"),
    ]

    @Test("bad settings are refused with the setting, the value and the range", arguments: badSettings)
    func refusesBadSetting(make: @Sendable () throws -> Void, message: String) {
        #expect {
            try make()
        } throws: { error in
            (error as? ResilienceConfigurationError)?.description == message
        }
    }

    @Test("the defaults are Polly v8's")
    func defaults() {
        let breaker = CircuitBreaker.default
        #expect(breaker.failureRatio == 0.1)
        #expect(breaker.minimumThroughput == 100)
        #expect(breaker.samplingDuration == .seconds(30))
        #expect(breaker.breakDuration == .seconds(5))
        #expect(breaker.halfOpenProbes == 1)
        #expect(breaker.state == .closed)
    }
}
