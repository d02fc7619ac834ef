import SwiftErr
import SwiftErrTesting
import Testing

@Suite("Minimum duration", .timeLimit(.minutes(1)))
struct MinimumDurationTests {
    @Test("a fast failure is held back until the minimum has passed")
    func fastFailureWaits() async throws {
        let clock = ManualClock()
        let task = Task {
            try await withMinimumDuration(.milliseconds(500), clock: clock) { () throws -> Int in
                throw OpaqueFailure(tag: "offline")
            }
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(499))
        #expect(clock.sleeperCount == 1)  // not yet delivered
        clock.advance(by: .milliseconds(1))
        await #expect(throws: OpaqueFailure(tag: "offline")) { try await task.value }
        #expect(clock.sleepRequests == [.milliseconds(500)])
    }

    @Test("a fast success is held back for the rest of the minimum only")
    func fastSuccessWaitsTheRest() async throws {
        let clock = ManualClock()
        let task = Task {
            try await withMinimumDuration(.seconds(1), clock: clock) {
                try await clock.sleep(until: clock.now.advanced(by: .milliseconds(300)), tolerance: nil)
                return 42
            }
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(700))
        #expect(try await task.value == 42)
        #expect(clock.sleepRequests == [.milliseconds(300), .milliseconds(700)])
    }

    @Test("an operation slower than the minimum is not delayed")
    func slowOperationNotDelayed() async throws {
        let clock = ManualClock()
        let value = try await withMinimumDuration(.milliseconds(200), clock: clock) { () -> String in
            clock.advance(by: .seconds(2))  // the work itself took two seconds
            return "done"
        }
        #expect(value == "done")
        #expect(clock.sleepRequests.isEmpty)
    }

    @Test("cancellation cuts the cosmetic wait short and still delivers the outcome")
    func cancellationDeliversAtOnce() async throws {
        let clock = ManualClock()
        let task = Task { try await withMinimumDuration(.seconds(5), clock: clock) { 7 } }
        await clock.waitForSleepers(1)
        task.cancel()
        #expect(try await task.value == 7)
        #expect(clock.now == ManualClock.Instant(offset: .zero))
    }
}

@Suite("Manual clock", .timeLimit(.minutes(1)))
struct MinimumDurationClockTests {
    @Test("sleepers wake in deadline order, only when their deadline is reached")
    func wakeOrder() async throws {
        let clock = ManualClock()
        let order = ActionCounter()
        let late = Task {
            try await clock.sleep(until: clock.now.advanced(by: .seconds(3)), tolerance: nil)
            order.hit("late")
        }
        let early = Task {
            try await clock.sleep(until: clock.now.advanced(by: .seconds(1)), tolerance: nil)
            order.hit("early")
        }
        await clock.waitForSleepers(2)
        #expect(clock.advanceToNextDeadline() == .seconds(1))
        try await early.value
        #expect(order["early"] == 1 && order["late"] == 0)
        clock.advance(by: .seconds(2))
        try await late.value
        #expect(order["late"] == 1)
        #expect(clock.advanceToNextDeadline() == nil)
    }

    @Test("a deadline already reached returns at once; a negative advance does not move time back")
    func pastDeadline() async throws {
        let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(10)))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(4)), tolerance: nil)
        #expect(clock.sleepRequests == [.seconds(-6)])
        clock.advance(by: .seconds(-5))
        #expect(clock.now == ManualClock.Instant(offset: .seconds(10)))
    }

    @Test("a cancelled sleeper throws CancellationError and is removed")
    func cancelledSleeper() async {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1)), tolerance: nil) }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }
}
