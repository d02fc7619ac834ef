import SwiftErr
import SwiftErrTesting
import Testing

/// Waits for what must end (a handler's sequence, the task iterating it) without letting a
/// sequence that is never ended hang the test run: the wait fails the test instead.
enum Ending {
    /// How long something that should end may take: far beyond any correct run, even under
    /// ThreadSanitizer on a loaded machine.
    static let limit: Duration = .seconds(20)

    /// What `task` returns once it has ended.
    ///
    /// Nothing sleeps while the task ends in time: the watchdog's wait is cancelled as soon as the
    /// task's value arrives.
    /// - Parameters:
    ///   - task: The task that must end.
    ///   - deadline: When to give up; ``limit`` from now by default. Pass one deadline when waiting
    ///     for several tasks, so that the limit is not multiplied.
    ///   - sourceLocation: Where the issue is reported.
    /// - Returns: The task's value, or `nil` when it has not ended by the deadline; then an issue is
    ///   recorded and the task is cancelled (which ends an iteration of a subscription).
    static func value<Value: Sendable>(
        of task: Task<Value, Never>,
        by deadline: ContinuousClock.Instant? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> Value? {
        let value = await task.value(by: deadline ?? .now + limit)
        if value == nil {
            Issue.record("Did not end in time", sourceLocation: sourceLocation)
        }
        return value
    }

    /// Every delivery of a subscription until its sequence ends.
    /// - Parameters:
    ///   - subscription: The handler's subscription.
    ///   - sourceLocation: Where the issue is reported.
    /// - Returns: The deliveries, or `nil` (with an issue recorded) when the sequence has not ended
    ///   within ``limit``.
    static func deliveries<Failure: Error>(
        of subscription: ErrorSubscription<Failure>,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> [ErrorDelivery<Failure>]? {
        let task = Task {
            var deliveries: [ErrorDelivery<Failure>] = []
            for await delivery in subscription { deliveries.append(delivery) }
            return deliveries
        }
        return await value(of: task, sourceLocation: sourceLocation)
    }

    /// Whether a subscription's sequence has ended: its next `next()` returns `nil` at once.
    /// - Parameters:
    ///   - subscription: The handler's subscription.
    ///   - sourceLocation: Where the issue is reported.
    /// - Returns: `true` when `next()` returned `nil`; `false` when it returned a delivery or did
    ///   not return within ``limit``.
    static func isEnded<Failure: Error>(
        _ subscription: ErrorSubscription<Failure>,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> Bool {
        await value(of: Task { await subscription.next() == nil }, sourceLocation: sourceLocation) == true
    }
}
