import Foundation

/// Repeats an async operation by a ``RetryPolicy``, on an injected clock.
///
/// Each failure is adapted to the module's ``ModuleRespError`` by ``adapters`` (the one mapping of
/// foreign errors, ``ErrorAdapterRegistry/standard``, by default) and classified by
/// ``RetryPolicy/disposition(for:)``. A retryable failure with attempts left waits the policy's
/// backoff, or the server's `Retry-After` read from the typed error
/// (``ModuleRespError/retryAfter``), after asking the decision hook if there is one; a final
/// failure is thrown at once. A business answer, of any module, is final unless its own catalog's
/// flags say `CodeFlags.retryable`: a study-group answer to an operation run for `UploadCode`
/// is judged by the study-group catalog and thrown as ``ModuleRespError/unexpectedCode(_:)``
/// (``ModuleRespError/init(converting:)``), never as a transport failure.
///
/// <!-- listing: context=app -->
/// ```swift
/// let retrier = Retrier(for: UploadCode.self,
///                       policy: RetryPolicy(endingStatusCodes: [503]),
///                       userStopMessage: LocalizedText(english: "You cancelled the upload.",
///                                                      simplifiedChinese: "您取消了本次的上传操作。")) { context in
///     await alert.askRetry(context.error) ? .retry : .stop
/// }
/// do {
///     let link = try await retrier.run { try await upload(image) }
/// } catch .stoppedByUser(let stop) {
///     hud.show(stop.message.text(in: .current))
/// } catch {
///     hud.show(error.localizedDescription)
/// }
/// ```
///
/// ## Typed throws
/// ``run(isolation:deadline:_:)`` throws `ModuleRespError<Code>` and nothing else: the last failure,
/// ``ModuleRespError/cancelled`` for a cancelled task, and ``ModuleRespError/stoppedByUser(_:)``
/// when the hook answers ``RetryDecision/stop``. One error type, rather than a separate retry error
/// wrapping it, because the same failures come out of ``ResponseDecoder`` and ``ResponseClient``:
/// one `catch` (or one `switch`) covers a request with or without retries, and
/// `catch .module(.wrongTeamCode)` works on all of them.
///
/// Cancellation is checked before every attempt, after the decision hook and during every wait:
/// a cancelled task gets ``ModuleRespError/cancelled`` promptly.
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

    /// Runs `operation` until it succeeds or the policy, the hook, the deadline or cancellation
    /// ends it.
    /// - Parameters:
    ///   - isolation: The caller's actor; the operation runs there.
    ///   - deadline: An instant on ``clock`` after which no wait ends and no attempt starts, or
    ///     `nil`. When the next wait would end after it, the failure that asked for the wait is
    ///     thrown at once instead of waiting in vain.
    ///   - operation: One attempt; it may throw any error, which ``adapters`` map.
    /// - Returns: The first successful attempt's value.
    /// - Throws: The last failure as `ModuleRespError<Code>` (final, attempts exhausted, the deadline
    ///   before the next attempt, or a `Retry-After` longer than ``RetryPolicy/maxRetryAfter``);
    ///   ``ModuleRespError/cancelled`` when the task is cancelled (at any wait or attempt);
    ///   ``ModuleRespError/stoppedByUser(_:)`` when the hook answers ``RetryDecision/stop``. An error
    ///   an adapter deliberately ignores cannot be left out of a typed `throws`: it is thrown, not
    ///   retried, as ``ModuleRespError/transportFailed(underlying:)`` keeping it.
    public func run<Value>(
        isolation: isolated (any Actor)? = #isolation,
        deadline: WaitClock.Instant? = nil,
        _ operation: () async throws -> Value
    ) async throws(ModuleRespError<Code>) -> Value {
        let time = PipelineClock(clock, wallClock: wallClock, random: random)
        // The deadline as the time from `time`'s origin, which is now.
        let limit = deadline.map { clock.now.duration(to: $0) }
        let failures = PipelineFailures<ModuleRespError<Code>>.module(
            Code.self, policy: policy, adapters: adapters, decide: decide)
        var attempt = 0
        while true {
            if Task.isCancelled { throw .cancelled }
            attempt += 1
            let thrown: any Error
            do {
                return try await operation()
            } catch {
                thrown = error
            }
            if Task.isCancelled { throw .cancelled }
            // An error an adapter deliberately ignores is thrown, not retried.
            guard let failure = adapters.handle(thrown).error else { throw .transportFailed(underlying: thrown) }
            if let end = await policy.nextAttempt(
                after: failure, thrown: thrown, attempt: attempt, maxAttempts: max(1, policy.maxAttempts),
                deadline: limit, clock: time, failures: failures, mayRetry: { _ in true },
                userStopMessage: userStopMessage)
            {
                throw end
            }
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
/// - Throws: As ``Retrier/run(isolation:deadline:_:)``: `ModuleRespError<Code>` only.
public func retry<Code: ModuleCode, Value>(
    _ code: Code.Type,
    policy: RetryPolicy = .default,
    decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Value
) async throws(ModuleRespError<Code>) -> Value {
    try await Retrier(for: code, policy: policy, decide: decide).run(operation)
}
