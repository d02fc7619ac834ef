import Foundation

/// The time a request runs on: the clock of its waits, time limits and session waits, the wall clock
/// a `Retry-After` date is read against, and the random numbers of the retry policy's jitter.
///
/// A ``ResponseClient`` runs on ``continuous`` unless it is given another. A simulation gives it a
/// clock of its own (a `ManualClock` of the SwiftErrTesting product), with a wall clock and random
/// numbers derived from it, so that hours of traffic run deterministically in seconds:
///
/// <!-- listing: context=app -->
/// ```swift
/// import Foundation
/// import SwiftErrTesting
///
/// let clock = ManualClock()
/// let time = PipelineClock(clock, wallClock: { Date(timeIntervalSince1970: 0) }, random: { 0.5 })
/// let simulated = ResponseClient(transport: transport, clock: time)
/// ```
///
/// Instants are kept as the time elapsed since the clock was wrapped, so one type serves any clock.
public struct PipelineClock: Sendable {
    /// The time elapsed since the clock was wrapped.
    let elapsed: @Sendable () -> Duration
    /// Suspends until `elapsed()` reaches the given offset; throws when the task is cancelled.
    let sleepUntil: @Sendable (Duration) async throws -> Void
    /// The current date, for `Retry-After` given as an HTTP-date.
    public let wallClock: @Sendable () -> Date
    /// A random number in `0 ..< 1`, for the retry policy's jitter.
    public let random: @Sendable () -> Double

    /// Wraps a clock.
    /// - Parameters:
    ///   - clock: The clock the waits and time limits run on.
    ///   - wallClock: The current date (`Date()` by default).
    ///   - random: A random number in `0 ..< 1` (the system's generator by default).
    public init<C: Clock<Duration>>(
        _ clock: C, wallClock: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleepUntil = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
        self.wallClock = wallClock
        self.random = random
    }

    /// The `ContinuousClock`, the system's date and random numbers: what requests run on.
    public static let continuous = PipelineClock(ContinuousClock())

    /// The time elapsed since the clock was wrapped.
    public var now: Duration { elapsed() }

    /// Suspends for `duration`.
    /// - Parameter duration: How long; zero or less returns at once.
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await sleepUntil(elapsed() + duration)
    }

    /// Runs `operation`, cancelled when `limit` (an offset of ``now``) passes first, in which case
    /// `expired` is thrown.
    /// - Parameters:
    ///   - limit: When the operation is cut off, or `nil` for no limit.
    ///   - expired: What is thrown when it is.
    ///   - operation: The operation.
    /// - Returns: What the operation returned.
    /// - Throws: What the operation threw, or `expired`.
    func run<Value: Sendable>(
        until limit: Duration?, orThrow expired: any Error & Sendable,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard let limit else { return try await operation() }
        let sleepUntil = self.sleepUntil
        return try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await sleepUntil(limit)
                throw expired
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }
}
