import SwiftErr

extension Task where Failure == Never {
    /// The task's value, or `nil` when it has not ended by `deadline`; then the task is cancelled.
    ///
    /// For tests that must not hang when the code under test never ends: the wait is bounded,
    /// and nothing sleeps once the value arrives.
    ///
    /// <!-- listing: context=app,tests-server -->
    /// ```swift
    /// let task = Task { await client.result(request, returning: Item.self, module: StudyGroupCode.self) }
    /// let result = try #require(await task.value(by: .now + .seconds(20)))
    /// ```
    /// - Parameter deadline: When to stop waiting.
    /// - Returns: The task's value, or `nil` at the deadline.
    public func value(by deadline: ContinuousClock.Instant) async -> Success? {
        let waiter = Locked<CheckedContinuation<Success?, Never>?>(nil)
        let value: Success? = await withCheckedContinuation { continuation in
            waiter.withLock { $0 = continuation }
            let watchdog = Task<Void, Never> {
                try? await Task<Never, Never>.sleep(until: deadline)
                // Cancelled: the value arrived and has taken the continuation, or is taking it.
                if Task<Never, Never>.isCancelled { return }
                waiter.withLock { $0.take() }?.resume(returning: nil)
            }
            Task<Void, Never> {
                let value = await self.value
                // Take the continuation before stopping the watchdog, so that the watchdog's
                // wake-up can never take it first and report a value that did arrive as missing.
                waiter.withLock { $0.take() }?.resume(returning: value)
                watchdog.cancel()
            }
        }
        if value == nil { cancel() }
        return value
    }
}
