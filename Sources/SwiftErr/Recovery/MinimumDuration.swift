/// Runs an operation and delivers its outcome no sooner than `minimum` after the start, so a
/// failure that comes back at once does not make a loading indicator flicker (a minimum request
/// time).
///
/// Success and failure are both held back; an operation that takes longer than `minimum` is not
/// delayed at all. If the task is cancelled while the outcome is being held back, the wait is
/// cut short and the outcome is delivered at once: padding is cosmetic and never costs a result.
///
/// <!-- listing: context=app -->
/// ```swift
/// let feed = try await withMinimumDuration(.milliseconds(500), clock: ContinuousClock()) {
///     try await feedService.loadFeed()
/// }
/// ```
/// - Parameters:
///   - minimum: The shortest time from start to outcome.
///   - clock: The clock to measure and wait on (a `ManualClock` in tests).
///   - isolation: The caller's actor; the operation runs there.
///   - operation: The work.
/// - Returns: The operation's value.
/// - Throws: Whatever the operation throws, after the same minimum time.
public func withMinimumDuration<Value, WaitClock: Clock<Duration>>(
    _ minimum: Duration,
    clock: WaitClock,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Value
) async throws -> Value {
    let start = clock.now
    let outcome: Result<Value, any Error>
    do {
        outcome = .success(try await operation())
    } catch {
        outcome = .failure(error)
    }
    let deadline = start.advanced(by: minimum)
    if clock.now < deadline {
        // A cancellation only ends the cosmetic wait; the outcome is delivered either way.
        try? await clock.sleep(until: deadline, tolerance: nil)
    }
    return try outcome.get()
}
