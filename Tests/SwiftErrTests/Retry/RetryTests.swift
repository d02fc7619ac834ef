import Foundation
import SwiftErrTesting
import Testing

@testable import SwiftErr

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The retrier on a ``ManualClock``: no test sleeps in real time. Each test that waits starts the
/// retrier in a task, waits until it is asleep (``ManualClock/waitForSleepers(_:)``) and moves
/// the clock.
@Suite("Retrier", .timeLimit(.minutes(1)))
struct RetryTests {
    typealias Failure = ModuleRespError<SyncCode>
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A retrier with fixed backoff (1 s, 2 s, 4 s…), fixed wall clock and random number.
    static func retrier(
        _ clock: ManualClock,
        policy: RetryPolicy = RetryPolicy(maxAttempts: 4, initialBackoff: .seconds(1), jitter: .none),
        random: Double = 0.5, decide: (@Sendable (RetryContext<SyncCode>) async -> RetryDecision)? = nil
    ) -> Retrier<SyncCode, ManualClock> {
        Retrier(
            for: SyncCode.self, policy: policy, clock: clock, wallClock: { now }, random: { random },
            userStopMessage: LocalizedText(english: "You cancelled the upload.", simplifiedChinese: "您取消了本次的上传操作。"),
            decide: decide)
    }

    @Test("a first success returns at once without sleeping")
    func firstSuccess() async throws {
        let clock = ManualClock()
        let operation = ScriptedOperation([])
        let value = try await Self.retrier(clock).run { try operation() }
        #expect(value == 1)
        #expect(clock.sleepRequests.isEmpty)
    }

    @Test("transient failures are retried with exponential backoff until success")
    func backoffUntilSuccess() async throws {
        let clock = ManualClock()
        let operation = ScriptedOperation([
            HTTPStatusError(statusCode: 500), URLError(.timedOut), POSIXError(.ECONNRESET),
        ])
        let retrier = Self.retrier(clock)
        let task = Task { try await retrier.run { try operation() } }
        for expected in [Duration.seconds(1), .seconds(2), .seconds(4)] {
            await clock.waitForSleepers(1)
            #expect(clock.advanceToNextDeadline() == expected)
        }
        #expect(try await task.value == 4)
        #expect(operation.attempts == 4)
        #expect(clock.sleepRequests == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test("jitter comes from the injected random source")
    func injectedJitter() async throws {
        let clock = ManualClock()
        let operation = ScriptedOperation([HTTPStatusError(statusCode: 502)])
        let policy = RetryPolicy(initialBackoff: .seconds(8), jitter: .full)
        let retrier = Self.retrier(clock, policy: policy, random: 0.25)
        let task = Task { try await retrier.run { try operation() } }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(try await task.value == 2)
        #expect(clock.sleepRequests == [.seconds(2)])
    }

    @Test("when attempts run out the last failure is thrown, adapted")
    func exhausted() async throws {
        let clock = ManualClock()
        let operation = ScriptedOperation(Array(repeating: HTTPStatusError(statusCode: 503), count: 10))
        let retrier = Self.retrier(
            clock, policy: RetryPolicy(maxAttempts: 3, initialBackoff: .seconds(1), jitter: .none))
        let task = Task { try await retrier.run { try operation() } }
        for _ in 0..<2 {
            await clock.waitForSleepers(1)
            clock.advanceToNextDeadline()
        }
        await #expect { try await task.value } throws: { ($0 as? Failure)?.statusCode == 503 }
        #expect(operation.attempts == 3)
    }

    @Test("a code flagged fatal stops at once, even when also flagged retryable")
    func fatalStopsAtOnce() async throws {
        for code in [SyncCode.accountFrozen, .busyButFatal] {
            let clock = ManualClock()
            let operation = ScriptedOperation([Failure.module(code)])
            await #expect { try await Self.retrier(clock).run { try operation() } } throws: {
                ($0 as? Failure)?.moduleCode == code
            }
            #expect(operation.attempts == 1)
            #expect(clock.sleepRequests.isEmpty)
        }
    }

    @Test("a code flagged retryable is retried")
    func retryableCode() async throws {
        let clock = ManualClock()
        let operation = ScriptedOperation([Failure.module(.serverBusy)])
        let retrier = Self.retrier(clock)
        let task = Task { try await retrier.run { try operation() } }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await task.value == 2)
    }

    @Test("an ending status (503) ends the flow without asking or waiting")
    func endingStatus() async throws {
        let clock = ManualClock()
        let decider = ScriptedDecider([.retry])
        let operation = ScriptedOperation([HTTPStatusError(statusCode: 503), HTTPStatusError(statusCode: 503)])
        let retrier = Self.retrier(clock, policy: RetryPolicy(endingStatusCodes: [503]), decide: { decider.decide($0) })
        await #expect { try await retrier.run { try operation() } } throws: { ($0 as? Failure)?.statusCode == 503 }
        #expect(operation.attempts == 1)
        #expect(decider.askedAttempts.isEmpty)
    }

    @Test("a non-retryable failure is thrown at once and the hook is not asked")
    func notRetryable() async throws {
        let clock = ManualClock()
        let decider = ScriptedDecider([])
        let operation = ScriptedOperation([HTTPStatusError(statusCode: 404)])
        await #expect {
            try await Self.retrier(clock, decide: { decider.decide($0) }).run { try operation() }
        } throws: {
            ($0 as? Failure)?.statusCode == 404
        }
        #expect(decider.askedAttempts.isEmpty)
    }

    @Test("Retry-After in seconds replaces the backoff on 429")
    func retryAfterSeconds() async throws {
        let clock = ManualClock()
        let operation = ScriptedOperation([HTTPStatusError(statusCode: 429, retryAfter: .seconds(7))])
        let retrier = Self.retrier(clock)
        let task = Task { try await retrier.run { try operation() } }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(6))
        #expect(clock.sleeperCount == 1)  // still waiting after 6 of 7 seconds
        clock.advance(by: .seconds(1))
        #expect(try await task.value == 2)
        #expect(clock.sleepRequests == [.seconds(7)])
    }

    @Test("Retry-After as an HTTP-date is measured from the injected wall clock on 503")
    func retryAfterDate() async throws {
        let clock = ManualClock()
        let header = "Tue, 14 Nov 2023 22:14:20 GMT"  // 1_700_000_060: one minute after `now`
        var caught: HTTPStatusError?
        do { try HTTPStatusValidator.successful.validate(503, retryAfter: header) } catch { caught = error }
        let status = try #require(caught)
        let operation = ScriptedOperation([status])
        let retrier = Self.retrier(clock)
        let task = Task { try await retrier.run { try operation() } }
        await clock.waitForSleepers(1)
        clock.advanceToNextDeadline()
        #expect(try await task.value == 2)
        #expect(clock.sleepRequests == [.seconds(60)])
    }

    @Test("a Retry-After longer than the policy accepts ends the flow instead of waiting")
    func retryAfterTooLong() async throws {
        let clock = ManualClock()
        let operation = ScriptedOperation([HTTPStatusError(statusCode: 503, retryAfter: .seconds(3600))])
        await #expect { try await Self.retrier(clock).run { try operation() } } throws: {
            ($0 as? Failure)?.statusCode == 503
        }
        #expect(operation.attempts == 1)
        #expect(clock.sleepRequests.isEmpty)
    }

    @Test("the decision hook saying stop throws .stoppedByUser with its own message")
    func hookStops() async throws {
        let clock = ManualClock()
        let decider = ScriptedDecider([.stop])
        let operation = ScriptedOperation([HTTPStatusError(statusCode: 500)])
        do {
            _ = try await Self.retrier(clock, decide: { decider.decide($0) }).run { try operation() }
            Issue.record("expected .stoppedByUser")
        } catch .stoppedByUser(let stopped) {
            #expect(stopped.message.text(in: .simplifiedChinese) == "您取消了本次的上传操作。")
            #expect(stopped.message.english == "You cancelled the upload.")
            #expect(stopped.attempts == 1)
            #expect((stopped.lastError as? Failure)?.statusCode == 500)
            #expect(stopped.description == "stopped by user after 1 attempt: You cancelled the upload.")
        } catch {
            Issue.record("expected .stoppedByUser, got \(error)")
        }
        #expect(decider.askedAttempts == [1])
        #expect(clock.sleepRequests.isEmpty)
    }

    @Test("the decision hook saying retry continues, and it is told the delay")
    func hookRetries() async throws {
        let clock = ManualClock()
        let seen = ScriptedDecider([.retry, .retry])
        let operation = ScriptedOperation([
            HTTPStatusError(statusCode: 500), HTTPStatusError(statusCode: 429, retryAfter: .seconds(5)),
        ])
        let delays = DelayLog()
        let retrier = Self.retrier(
            clock,
            decide: { context in
                delays.append(context.delay, server: context.isServerRequestedDelay)
                return seen.decide(context)
            })
        let task = Task { try await retrier.run { try operation() } }
        for _ in 0..<2 {
            await clock.waitForSleepers(1)
            clock.advanceToNextDeadline()
        }
        #expect(try await task.value == 3)
        #expect(seen.askedAttempts == [1, 2])
        #expect(
            delays.entries == [
                DelayLog.Entry(delay: .seconds(1), server: false), DelayLog.Entry(delay: .seconds(5), server: true),
            ])
    }

    @Test("cancellation in the middle of a backoff throws .cancelled promptly")
    func cancelMidBackoff() async throws {
        let clock = ManualClock()
        let operation = ScriptedOperation(Array(repeating: HTTPStatusError(statusCode: 500), count: 5))
        let retrier = Self.retrier(clock)
        let task = Task { try await retrier.run { try operation() } }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect { try await task.value } throws: { ($0 as? Failure)?.isCancelled == true }
        #expect(operation.attempts == 1)
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == ManualClock.Instant(offset: .zero))  // the clock never moved
    }

    @Test("an already cancelled task does not start an attempt")
    func cancelledBeforeStart() async throws {
        let clock = ManualClock()
        let operation = ScriptedOperation([])
        let retrier = Self.retrier(clock)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await retrier.run { try operation() }
        }
        await #expect { try await task.value } throws: { ($0 as? Failure)?.isCancelled == true }
        #expect(operation.attempts == 0)
    }

    @Test("an error an adapter ignores is thrown at once, kept as a transport failure, without retrying")
    func ignoredErrorRethrown() async throws {
        var adapters = ErrorAdapterRegistry<SyncCode>.standard
        adapters.prepend(ClosureErrorAdapter(OpaqueFailure.self, for: SyncCode.self, name: "ignore") { _ in nil })
        let clock = ManualClock()
        var retrier = Self.retrier(clock)
        retrier.adapters = adapters
        let operation = ScriptedOperation([OpaqueFailure(tag: "quiet")])
        await #expect {
            try await retrier.run { try operation() }
        } throws: {
            ($0 as? Failure)?.underlyingError as? OpaqueFailure == OpaqueFailure(tag: "quiet")
        }
        #expect(operation.attempts == 1)
    }

    @Test("a presenter can be the decision hook: Try Again retries, Cancel stops")
    func presenterAsHook() async throws {
        let clock = ManualClock()
        let presenter = RecordingErrorPresenter(answers: [1, 0])  // [Cancel, Try Again]
        let operation = ScriptedOperation([HTTPStatusError(statusCode: 500), HTTPStatusError(statusCode: 500)])
        let retrier = Self.retrier(clock, decide: presenter.retryDecision(for: SyncCode.self))
        let task = Task { try await retrier.run { try operation() } }
        await clock.waitForSleepers(1)
        clock.advanceToNextDeadline()
        await #expect { try await task.value } throws: { ($0 as? Failure)?.userStop?.attempts == 2 }
        #expect(operation.attempts == 2)
        #expect(
            presenter.presentations.map { $0.actions.map(\.role) } == [[.cancel, .tryAgain], [.cancel, .tryAgain]])
    }
}

/// The delays a decision hook was told about.
final class DelayLog: Sendable {
    struct Entry: Equatable, Sendable {
        let delay: Duration
        let server: Bool
    }

    private let log = Locked<[Entry]>([])

    func append(_ delay: Duration, server: Bool) { log.withLock { $0.append(Entry(delay: delay, server: server)) } }
    var entries: [Entry] { log.withLock { $0 } }
}
