extension RetryPolicy {
    /// The one retry rule, after a failed attempt, for ``RequestPipeline`` and ``Retrier``: ends
    /// the request with an error, or waits for the next attempt.
    ///
    /// A failure the front end's ``PipelineFailures/disposition`` does not call retryable, or the
    /// last attempt's, is final. Otherwise the wait is the jittered backoff, or the server's
    /// `Retry-After` (a longer one than ``maxRetryAfter`` is final); a wait that would end after
    /// the deadline is not started, nor one for a retry `mayRetry` says would be refused (an
    /// upstream's protection); then the decision hook is asked, and the wait runs.
    /// - Parameters:
    ///   - failure: The attempt's failure.
    ///   - thrown: The error the attempt threw, if it threw.
    ///   - attempt: The failed attempt, 1-based.
    ///   - maxAttempts: The most attempts the request may make.
    ///   - deadline: The request's deadline on `clock`, or `nil`.
    ///   - clock: The time the wait runs on.
    ///   - failures: The front end's rules.
    ///   - mayRetry: Whether a retry after the given wait would be admitted.
    ///   - userStopMessage: The message when the decision hook answers stop.
    /// - Returns: The error that ends the request, or `nil` once the wait for the next attempt is
    ///   over.
    func nextAttempt<Failure: Error>(
        after failure: Failure, thrown: (any Error)?, attempt: Int, maxAttempts: Int, deadline: Duration?,
        clock: PipelineClock, failures: PipelineFailures<Failure>, mayRetry: (Duration) -> Bool,
        userStopMessage: LocalizedText
    ) async -> Failure? {
        if Task.isCancelled { return failures.make(.cancelled) }
        guard case .retry = failures.disposition(failure, thrown), attempt < maxAttempts else { return failure }
        var delay = backoff(afterAttempt: attempt, unitRandom: clock.random())
        let serverDelay = failures.serverDelay(failure, thrown, clock.wallClock())
        if let serverDelay {
            guard serverDelay <= maxRetryAfter else { return failure }
            delay = serverDelay
        }
        let resume = clock.now + delay
        if let deadline, resume > deadline { return failure }
        if !mayRetry(delay) { return failure }
        if let decide = failures.decide {
            let question = RetryQuestion(
                attempt: attempt, failure: failure, underlying: thrown ?? failure, delay: delay,
                isServerRequestedDelay: serverDelay != nil)
            if await decide(question) == .stop {
                let stop = UserStoppedError(message: userStopMessage, attempts: attempt, lastError: failure)
                return failures.make(.stoppedByUser(stop))
            }
            if Task.isCancelled { return failures.make(.cancelled) }
        }
        do {
            try await clock.sleepUntil(resume)
        } catch {
            return failures.make(.cancelled)
        }
        return nil
    }
}
