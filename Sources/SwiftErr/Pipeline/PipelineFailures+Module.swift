import Foundation

@_spi(Pipeline)
extension PipelineFailures {
    /// The rules of a module's requests, whose error is `ModuleRespError<Code>`: what
    /// ``ResponseClient`` and ``Retrier`` use.
    ///
    /// A thrown error is mapped by `adapters` (the one mapping of foreign errors); a business
    /// answer of another module is judged by its own catalog's flags
    /// (``ModuleRespError/init(converting:)``); whether a failure is retried is
    /// ``RetryPolicy/disposition(for:)``, and the server's wait ``RetryPolicy/retryAfterDelay(for:original:now:)``.
    /// - Parameters:
    ///   - module: The module.
    ///   - policy: The retry policy.
    ///   - adapters: The mapping of foreign errors (``ErrorAdapterRegistry/standard``).
    ///   - decide: The decision hook, or `nil`.
    /// - Returns: The rules.
    public static func module<Code: ModuleCode>(
        _ module: Code.Type, policy: RetryPolicy, adapters: ErrorAdapterRegistry<Code> = .standard,
        decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)? = nil
    ) -> PipelineFailures<ModuleRespError<Code>> where Failure == ModuleRespError<Code> {
        PipelineFailures(
            make: { (stop: PipelineStop) -> ModuleRespError<Code> in
                switch stop {
                case .transport(let error):
                    // An error an adapter deliberately ignores cannot be left out of a typed throw: it
                    // is kept as a transport failure.
                    return adapters.handle(error).error ?? .transportFailed(underlying: error)
                case .refused(let refusal): return .refused(refusal)
                case .reauthenticationFailed(let failure): return .reauthenticationFailed(failure)
                case .cancelled: return .cancelled
                case .stoppedByUser(let stop): return .stoppedByUser(stop)
                }
            },
            disposition: { (failure: ModuleRespError<Code>, thrown: (any Error)?) -> RetryDisposition in
                // Another module's error is judged in its own module, by its own catalog's flags.
                (thrown as? any ModuleRespErrorConverting)?.disposition(by: policy) ?? policy.disposition(for: failure)
            },
            serverDelay: { (failure: ModuleRespError<Code>, thrown: (any Error)?, now: Date) -> Duration? in
                policy.retryAfterDelay(for: failure, original: thrown, now: now)
            },
            decide: decide.map { decide in
                { (question: RetryQuestion<ModuleRespError<Code>>) -> RetryDecision in
                    await decide(
                        RetryContext(
                            attempt: question.attempt, error: question.failure, underlying: question.underlying,
                            delay: question.delay, isServerRequestedDelay: question.isServerRequestedDelay))
                }
            })
    }
}
