import SwiftErr
import Testing

/// Bounded waits: what must end fails the test when it does not, instead of hanging the run.
enum Bounded {
    /// Far beyond any correct run, even under ThreadSanitizer on a loaded machine where the whole
    /// test run shares two cores and synchronous suites hold the concurrency pool for a minute.
    static let limit: Duration = .seconds(150)

    /// What `task` returns, or `nil` (with an issue recorded, and the task cancelled) when it has not
    /// ended within ``limit``.
    static func value<Value: Sendable>(
        of task: Task<Value, Never>, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> Value? {
        let waiter = Locked<CheckedContinuation<Value?, Never>?>(nil)
        let value: Value? = await withCheckedContinuation { continuation in
            waiter.withLock { $0 = continuation }
            let watchdog = Task {
                try? await Task.sleep(for: limit)
                waiter.withLock { $0.take() }?.resume(returning: nil)
            }
            Task {
                let value = await task.value
                watchdog.cancel()
                waiter.withLock { $0.take() }?.resume(returning: value)
            }
        }
        if value == nil {
            Issue.record("Did not end in time", sourceLocation: sourceLocation)
            task.cancel()
        }
        return value
    }

    /// Waits, polling every 2 ms, until `condition` holds; `false` (with an issue recorded) after
    /// ``limit``.
    static func until(
        _ condition: () -> Bool, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("The condition did not hold in time", sourceLocation: sourceLocation)
                return false
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}
