import Foundation

/// Repeats an async operation by a ``RetryPolicy``, on an injected clock.
///
/// Each failure is adapted to the module's ``ModuleRespError`` by ``adapters`` and classified by
/// ``RetryPolicy/disposition(for:)``. A retryable failure with attempts left waits the policy's
/// backoff (or the server's `Retry-After`), after asking the decision hook if there is one; a
/// final failure is thrown at once.
///
/// ```swift
/// let retrier = Retrier(for: UploadCode.self,
///                       policy: RetryPolicy(endingStatusCodes: [503]),
///                       userStopMessage: LocalizedText(english: "You cancelled the upload.",
///                                                      simplifiedChinese: "您取消了本次的上传操作。")) { context in
///     await alert.askRetry(context.error) ? .retry : .stop
/// }
/// let link = try await retrier.run { try await upload(image) }
/// ```
///
/// Cancellation is checked before every attempt, after the decision hook and during every wait:
/// a cancelled task gets `CancellationError` promptly.
public struct Retrier<Code: ModuleCode, WaitClock: Clock<Duration>>: Sendable {
    /// The policy.
    public var policy: RetryPolicy
    /// The adapters that turn thrown errors into module errors.
    public var adapters: ErrorAdapterRegistry<Code>
    /// The clock the waits run on.
    public var clock: WaitClock
    /// The current wall-clock time, for `Retry-After` dates.
    public var wallClock: @Sendable () -> Date
    /// A random number in `0 ..< 1` for the jitter.
    public var random: @Sendable () -> Double
    /// The message of the ``UserStoppedError`` thrown when the hook says stop.
    public var userStopMessage: LocalizedText
    /// The decision hook, asked before each retry; `nil` retries without asking.
    public var decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)?

    /// Creates a retrier.
    /// - Parameters:
    ///   - code: The module the failures are adapted for.
    ///   - policy: The policy (``RetryPolicy/default``).
    ///   - adapters: The adapters (``ErrorAdapterRegistry/standard``).
    ///   - clock: The clock to wait on.
    ///   - wallClock: The current wall-clock time (`Date()` by default).
    ///   - random: A random number in `0 ..< 1` (the system generator by default).
    ///   - userStopMessage: The message when the user stops (``UserStoppedError/defaultMessage``).
    ///   - decide: The decision hook, or `nil`.
    public init(
        for code: Code.Type = Code.self,
        policy: RetryPolicy = .default,
        adapters: ErrorAdapterRegistry<Code> = .standard,
        clock: WaitClock,
        wallClock: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        userStopMessage: LocalizedText = UserStoppedError.defaultMessage,
        decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)? = nil
    ) {
        self.policy = policy
        self.adapters = adapters
        self.clock = clock
        self.wallClock = wallClock
        self.random = random
        self.userStopMessage = userStopMessage
        self.decide = decide
    }

    /// Runs `operation` until it succeeds or the policy, the hook or cancellation ends it.
    /// - Parameters:
    ///   - isolation: The caller's actor; the operation runs there.
    ///   - operation: One attempt.
    /// - Returns: The first successful attempt's value.
    /// - Throws: `CancellationError` when the task is cancelled (at any wait or attempt);
    ///   ``UserStoppedError`` when the hook answers ``RetryDecision/stop``; otherwise the last
    ///   failure as `ModuleRespError<Code>` (final, attempts exhausted, or `Retry-After` longer than
    ///   ``RetryPolicy/maxRetryAfter``); or the original error when an adapter deliberately ignores it.
    public func run<Value>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Value
    ) async throws -> Value {
        var attempt = 0
        while true {
            try Task.checkCancellation()
            attempt += 1
            let thrown: any Error
            do {
                return try await operation()
            } catch {
                thrown = error
            }
            if Task.isCancelled { throw CancellationError() }
            guard let failure = adapters.adapt(thrown) else { throw thrown }
            guard case .retry = policy.disposition(for: failure), attempt < max(1, policy.maxAttempts) else {
                throw failure
            }
            var delay = policy.backoff(afterAttempt: attempt, unitRandom: random())
            let serverDelay = policy.retryAfterDelay(for: failure, original: thrown, now: wallClock())
            if let serverDelay {
                guard serverDelay <= policy.maxRetryAfter else { throw failure }
                delay = serverDelay
            }
            if let decide {
                let context = RetryContext(
                    attempt: attempt, error: failure, underlying: thrown,
                    delay: delay, isServerRequestedDelay: serverDelay != nil)
                if await decide(context) == .stop {
                    throw UserStoppedError(message: userStopMessage, attempts: attempt, lastError: failure)
                }
                try Task.checkCancellation()
            }
            try await clock.sleep(until: clock.now.advanced(by: delay), tolerance: nil)
        }
    }
}

extension Retrier where WaitClock == ContinuousClock {
    /// Creates a retrier that waits on the `ContinuousClock`.
    /// - Parameters:
    ///   - code: The module the failures are adapted for.
    ///   - policy: The policy (``RetryPolicy/default``).
    ///   - adapters: The adapters (``ErrorAdapterRegistry/standard``).
    ///   - userStopMessage: The message when the user stops (``UserStoppedError/defaultMessage``).
    ///   - decide: The decision hook, or `nil`.
    public init(
        for code: Code.Type = Code.self,
        policy: RetryPolicy = .default,
        adapters: ErrorAdapterRegistry<Code> = .standard,
        userStopMessage: LocalizedText = UserStoppedError.defaultMessage,
        decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)? = nil
    ) {
        self.init(
            for: code, policy: policy, adapters: adapters, clock: ContinuousClock(),
            userStopMessage: userStopMessage, decide: decide)
    }
}

/// Repeats `operation` by `policy` on the `ContinuousClock` (see ``Retrier``).
/// - Parameters:
///   - code: The module the failures are adapted for.
///   - policy: The policy (``RetryPolicy/default``).
///   - decide: The decision hook, or `nil`.
///   - isolation: The caller's actor; the operation runs there.
///   - operation: One attempt.
/// - Returns: The first successful attempt's value.
/// - Throws: As ``Retrier/run(isolation:_:)``.
public func retry<Code: ModuleCode, Value>(
    _ code: Code.Type,
    policy: RetryPolicy = .default,
    decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Value
) async throws -> Value {
    try await Retrier(for: code, policy: policy, decide: decide).run(operation)
}
