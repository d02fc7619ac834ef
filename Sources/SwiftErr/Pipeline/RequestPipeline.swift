import Foundation

/// The rules every request follows, whatever sends it: the one place that decides attempts, the
/// replay after a session's refresh, the upstream's protection, retries, and what each protection
/// learns.
///
/// ``ResponseClient`` (on any ``HTTPTransport``), the OpenAPI middleware of `SwiftErrOpenAPI` and a
/// gateway call ``run(_:module:repeatability:replayable:baseHandler:failures:exchange:judge:)`` with what
/// is theirs — how to send, how to read an answer, their error type — and keep no rule of their own.
///
/// For each attempt the pipeline
/// 1. applies the session's credential, waiting for a refresh that is running;
/// 2. asks the upstream's protection (``UpstreamProtections``, keyed by its rule) to admit the
///    send: a first send, a retry (which the retry budget may refuse), or the replay after a refresh
///    (admitted as a first send);
/// 3. sends within the attempt's time limit and the request's deadline, the send numbered in
///    ``TransportAttempt/current``;
/// 4. has the front end judge the answer (``PipelineVerdict``), and tells the protection its
///    ``UpstreamOutcome`` exactly once (``UpstreamOutcome/unjudged`` for a cancelled send);
/// 5. when the answer asks for re-authentication, lets the session refresh (once for every request
///    waiting) and sends the request once more with the new credential: a replay, part of the same
///    attempt, at most once per request.
///
/// A failure then goes to the retry rule (``RetryPolicy``, through the front end's
/// ``PipelineFailures``): a retryable failure with attempts left waits the policy's jittered backoff,
/// or the server's `Retry-After`, unless the deadline, the protection (a retry it would refuse is
/// not waited for), the decision hook or cancellation ends the request. Only requests that may be
/// sent twice are retried (``ResponseClient/Repeatability``); the replay after a refresh is not a
/// retry, since the server refused the request before acting on it.
@_spi(Pipeline)
public struct RequestPipeline: Sendable {
    /// Which failures are sent again, how often and after how long.
    public var policy: RetryPolicy
    /// Time limits of each attempt and of the whole request.
    public var timeouts: ResponseClient.Timeouts
    /// The protections of the upstreams, or `nil`.
    public var protections: UpstreamProtections?
    /// The methods repeated under ``ResponseClient/Repeatability/byMethod``, upper case.
    public var repeatableMethods: Set<String>
    /// The message of the ``UserStoppedError`` when the decision hook answers stop.
    public var userStopMessage: LocalizedText
    /// The time the pipeline runs on.
    public var clock: PipelineClock
    /// Told what the upstream's protection decides for each request (admitted, refused, the
    /// circuit's changes), or `nil`: what a front end that counts the protection's series needs.
    public var protectionObserver: (@Sendable (PipelineProtectionEvent) -> Void)?
    /// The session whose credential every request carries, or `nil`.
    var authentication: (any RequestAuthenticating)?

    /// Creates a pipeline.
    /// - Parameters:
    ///   - policy: The retry policy (``RetryPolicy/default``).
    ///   - timeouts: Time limits (none by default).
    ///   - protections: The protections of the upstreams (none by default).
    ///   - clock: The time it runs on (``PipelineClock/continuous``).
    public init(
        policy: RetryPolicy = .default, timeouts: ResponseClient.Timeouts = .none,
        protections: UpstreamProtections? = nil, clock: PipelineClock = .continuous
    ) {
        self.policy = policy
        self.timeouts = timeouts
        self.protections = protections
        self.repeatableMethods = ResponseClient.idempotentMethods
        self.userStopMessage = UserStoppedError.defaultMessage
        self.clock = clock
    }

    /// Creates a pipeline whose requests carry the credential of a session (see
    /// <doc:KeepingASessionAlive>).
    /// - Parameters:
    ///   - policy: The retry policy.
    ///   - timeouts: Time limits.
    ///   - protections: The protections of the upstreams.
    ///   - clock: The time it runs on.
    ///   - authentication: The session.
    public init<A: Authenticator>(
        policy: RetryPolicy = .default, timeouts: ResponseClient.Timeouts = .none,
        protections: UpstreamProtections? = nil, clock: PipelineClock = .continuous,
        authentication: AuthenticationSession<A>
    ) {
        self.init(policy: policy, timeouts: timeouts, protections: protections, clock: clock)
        self.authentication = authentication
    }

    /// Whether the policy may send `request` more than once.
    /// - Parameters:
    ///   - request: The request.
    ///   - repeatability: What the call says.
    /// - Returns: `true` when it may be repeated.
    public func isRepeatable(_ request: TransportRequest, _ repeatability: ResponseClient.Repeatability) -> Bool {
        switch repeatability {
        case .safeToRepeat: return true
        case .once: return false
        case .byMethod:
            return repeatableMethods.contains(request.method.uppercased())
                || request.value(forHeader: "Idempotency-Key") != nil
        }
    }

    /// Runs a request through every stage.
    /// - Parameters:
    ///   - request: The request as the caller made it.
    ///   - module: The name of the module it belongs to (`ModuleCode.moduleName`), for the session's
    ///     refresh event.
    ///   - repeatability: Whether it may be sent more than once.
    ///   - replayable: Whether it can be sent again after a refresh (a body that can be read once
    ///     cannot); when not, an answer that asks for re-authentication still renews the session, and
    ///     ends the request with its own verdict.
    ///   - baseHandler: Receives each final answer's base-code event, and the session's refresh
    ///     events; `nil` for none.
    ///   - failures: How the front end's errors are made and judged.
    ///   - exchange: Sends one request (with its credential) and returns the answer.
    ///   - judge: Reads an answer.
    /// - Returns: The result and the number of sends.
    public func run<Answer: Sendable, Value, Failure: Error>(
        _ request: TransportRequest, module: String = "", repeatability: ResponseClient.Repeatability = .byMethod,
        replayable: Bool = true,
        baseHandler: BaseCodeHandler? = nil, failures: PipelineFailures<Failure>,
        exchange: @escaping @Sendable (TransportRequest) async throws -> Answer,
        judge: (Answer) async -> PipelineVerdict<Value, Failure>
    ) async -> PipelineEnd<Value, Failure> {
        var run = PipelineRun<Value, Failure>(
            request: request, start: clock.now, protection: protections?.protection(forSending: request))
        if run.protection != nil, let protectionObserver, let upstream = protections?.keying.upstream(request) {
            run.observe = { kind in protectionObserver(PipelineProtectionEvent(upstream: upstream, kind: kind)) }
        }
        run.module = module
        run.deadline = timeouts.overall.map { run.start + $0 }
        let attempts = isRepeatable(request, repeatability) ? max(1, policy.maxAttempts) : 1
        while true {
            if Task.isCancelled { return run.end(failures.make(.cancelled)) }
            run.attempt += 1
            let step = await attempt(
                &run, replayable: replayable, baseHandler: baseHandler, failures: failures, exchange: exchange,
                judge: judge)
            let failure: Failure
            let thrown: (any Error)?
            switch step {
            case .value(let value): return run.end(value)
            case .final(let failure): return run.end(failure)
            case .failure(let failed, let underlying):
                failure = failed
                thrown = underlying
            }
            let protection = run.protection
            let observe = run.observe
            if let end = await policy.nextAttempt(
                after: failure, thrown: thrown, attempt: run.attempt, maxAttempts: attempts, deadline: run.deadline,
                clock: clock, failures: failures,
                mayRetry: { delay in
                    guard let protection, !protection.mayRetry(after: delay) else { return true }
                    observe?(.refused(Self.refusal(ofRetryBy: protection)))
                    return false
                },
                userStopMessage: userStopMessage)
            {
                return run.end(end)
            }
            run.inHand = (failure, thrown)
        }
    }

    /// How one attempt ended.
    private enum Step<Value, Failure: Error> {
        /// The answer's value: the request is over.
        case value(Value)
        /// A failure the retry rule judges (with the error the send threw, if it threw).
        case failure(Failure, (any Error)?)
        /// A failure that ends the request whatever the retry rule says.
        case final(Failure)
    }

    /// One attempt: credential, send, judgement, and the replay after a refresh.
    private func attempt<Answer: Sendable, Value, Failure: Error>(
        _ run: inout PipelineRun<Value, Failure>, replayable: Bool, baseHandler: BaseCodeHandler?,
        failures: PipelineFailures<Failure>,
        exchange: @escaping @Sendable (TransportRequest) async throws -> Answer,
        judge: (Answer) async -> PipelineVerdict<Value, Failure>
    ) async -> Step<Value, Failure> {
        var sent: AuthenticatedRequest?
        var outgoing = run.request
        if let session = authentication {
            switch await session.admit(run.request, deadline: run.deadline, clock: clock) {
            case .proceed(let authenticated):
                sent = authenticated
                outgoing = authenticated.request
            case let stopped:
                return .final(stop(stopped, run: run, failures: failures))
            }
        }
        var isReplay = false
        while true {
            let verdict: PipelineVerdict<Value, Failure>
            switch await send(outgoing, &run, isReplay: isReplay, failures: failures, exchange: exchange) {
            case .answer(let answer):
                verdict = await judge(answer)
                if let permit = run.permit { run.record(verdict.outcome, for: permit) }
            case .step(let step):
                return step
            }
            guard let session = authentication, let refused = sent,
                let trigger = trigger(of: verdict, statusCodes: session.statusCodes)
            else {
                return delivered(verdict, to: baseHandler)
            }
            if run.replayed {
                let underlying: any Error
                switch verdict.result {
                case .failure(let failure): underlying = failure
                case .success: underlying = HTTPStatusError(statusCode: verdict.statusCode ?? 0)
                }
                return .final(
                    failures.make(
                        .reauthenticationFailed(
                            ReauthenticationError(reason: .refusedAfterRefresh, underlyingError: underlying))))
            }
            let cause = RefreshCause(
                trigger: trigger, module: run.module, flags: verdict.flags, serverMessage: verdict.serverMessage)
            let admission = await session.readmit(
                refused, cause: cause, deadline: run.deadline, clock: clock, observer: baseHandler)
            switch admission {
            case .proceed(let renewed) where replayable:
                run.replayed = true
                isReplay = true
                sent = renewed
                outgoing = renewed.request
            case .proceed, .unmanaged:
                // The session has no credential, or the request cannot be sent twice: the answer is
                // the caller's, as without a session.
                return delivered(verdict, to: baseHandler)
            case let stopped:
                return .final(stop(stopped, run: run, failures: failures))
            }
        }
    }

    /// The step for a final verdict, after its base-code event reached the handler.
    private func delivered<Value, Failure: Error>(
        _ verdict: PipelineVerdict<Value, Failure>, to baseHandler: BaseCodeHandler?
    ) -> Step<Value, Failure> {
        if let event = verdict.baseEvent, let baseHandler { baseHandler(event) }
        switch verdict.result {
        case .success(let value): return .value(value)
        case .failure(let failure): return .failure(failure, nil)
        }
    }

    /// What the session's answer ends the request with, when it does not let it go on.
    private func stop<Value, Failure: Error>(
        _ admission: SessionAdmission, run: PipelineRun<Value, Failure>, failures: PipelineFailures<Failure>
    ) -> Failure {
        switch admission {
        case .failed(let failure): return failures.make(.reauthenticationFailed(failure))
        case .timedOut:
            return failures.make(
                .transport(
                    RequestTimeoutError(limit: .deadline, duration: timeouts.overall ?? .zero, attempt: run.attempt)))
        case .cancelled, .proceed, .unmanaged: return failures.make(.cancelled)
        }
    }

    /// What in a verdict asks for re-authentication: a status of the session's, or a server code the
    /// catalog flags `CodeFlags.reauthenticate`; `nil` for anything else.
    func trigger<Value, Failure: Error>(
        of verdict: PipelineVerdict<Value, Failure>, statusCodes: Set<Int>
    ) -> SessionRefreshEvent.Trigger? {
        if let status = verdict.statusCode, statusCodes.contains(status) { return .status(status) }
        if verdict.flags.contains(.reauthenticate), let code = verdict.code { return .code(code) }
        return nil
    }

    /// What one send got: the answer, or how the attempt ends.
    private enum Sent<Answer, Value, Failure: Error> {
        case answer(Answer)
        case step(Step<Value, Failure>)
    }

    /// One send: admitted by the protection, numbered, through `exchange` within the time limits.
    /// The permit, when there is one, is left in `run` for the verdict's outcome; a send that throws
    /// records its outcome here.
    private func send<Answer: Sendable, Value, Failure: Error>(
        _ request: TransportRequest, _ run: inout PipelineRun<Value, Failure>, isReplay: Bool,
        failures: PipelineFailures<Failure>, exchange: @escaping @Sendable (TransportRequest) async throws -> Answer
    ) async -> Sent<Answer, Value, Failure> {
        run.permit = nil
        let limit = self.limit(of: run)
        if let limit, clock.now >= limit.instant {
            return .step(.failure(failures.make(.transport(limit.error)), limit.error))
        }
        if let protection = run.protection {
            let isRetry = run.attempt > 1 && !isReplay
            do {
                let permit = try protection.admit(isRetry: isRetry)
                run.observe?(.admitted(permit))
                run.permit = permit
            } catch {
                run.observe?(.refused(error))
                // A refused retry ends the request with the failure in hand; a refused request with
                // the refusal.
                if isRetry, let inHand = run.inHand { return .step(.final(inHand.failure)) }
                return .step(.final(failures.make(.refused(error))))
            }
        }
        run.sends += 1
        let sends = run.sends
        do {
            let answer = try await TransportAttempt.$current.withValue(sends) {
                try await clock.run(until: limit?.instant, orThrow: limit?.error ?? CancellationError()) {
                    try await exchange(request)
                }
            }
            return .answer(answer)
        } catch {
            let cancelled = Task.isCancelled
            if let permit = run.permit {
                run.record(cancelled ? .unjudged : UpstreamOutcome(transportError: error), for: permit)
            }
            if cancelled { return .step(.final(failures.make(.cancelled))) }
            return .step(.failure(failures.make(.transport(error)), error))
        }
    }

    /// Why `protection` would refuse a retry now, for the observer: its budget, or its circuit.
    private static func refusal(ofRetryBy protection: UpstreamProtection) -> UpstreamRefusal {
        if protection.retryBudget?.permitsRetry == false {
            return UpstreamRefusal(reason: .retryBudgetExhausted, retryAfter: nil)
        }
        return UpstreamRefusal(
            reason: protection.circuitState == .isolated ? .circuitIsolated : .circuitOpen, retryAfter: nil)
    }

    /// The earlier of the attempt's time limit and the request's deadline, with the error it ends a
    /// send with; `nil` without limits.
    private func limit<Value, Failure: Error>(
        of run: PipelineRun<Value, Failure>
    ) -> (instant: Duration, error: RequestTimeoutError)? {
        var limit: (instant: Duration, error: RequestTimeoutError)?
        if let duration = timeouts.attempt {
            limit = (
                clock.now + duration, RequestTimeoutError(limit: .attempt, duration: duration, attempt: run.attempt)
            )
        }
        if let deadline = run.deadline, let overall = timeouts.overall, limit.map({ deadline <= $0.instant }) ?? true {
            limit = (deadline, RequestTimeoutError(limit: .deadline, duration: overall, attempt: run.attempt))
        }
        return limit
    }
}

/// The state of one request in the pipeline.
private struct PipelineRun<Value, Failure: Error> {
    /// The request as the caller made it.
    let request: TransportRequest
    /// When it started, on the pipeline's clock.
    let start: Duration
    /// The protection of its upstream, if any.
    let protection: UpstreamProtection?
    /// The module it belongs to, for the session's refresh event.
    var module: String = ""
    /// Its deadline, on the pipeline's clock.
    var deadline: Duration?
    /// The attempt running, 1-based.
    var attempt = 0
    /// The sends so far, attempts and replay together.
    var sends = 0
    /// Whether it has been sent again after a refresh: at most once per request, over all its
    /// attempts, so that a server that keeps refusing cannot make it loop.
    var replayed = false
    /// The failure of the attempt before, for a retry the protection refuses.
    var inHand: (failure: Failure, thrown: (any Error)?)?
    /// The permit of the send running.
    var permit: UpstreamPermit?
    /// Tells the pipeline's protection observer, or `nil` without one.
    var observe: (@Sendable (PipelineProtectionEvent.Kind) -> Void)?

    init(request: TransportRequest, start: Duration, protection: UpstreamProtection?) {
        self.request = request
        self.start = start
        self.protection = protection
    }

    /// Tells the protection a send's outcome, and the observer the change of state it made.
    func record(_ outcome: UpstreamOutcome, for permit: UpstreamPermit) {
        if let transition = protection?.record(outcome, for: permit) { observe?(.transition(transition)) }
    }

    func end(_ value: Value) -> PipelineEnd<Value, Failure> {
        PipelineEnd(result: .success(value), sends: sends)
    }

    func end(_ failure: Failure) -> PipelineEnd<Value, Failure> {
        PipelineEnd(result: .failure(failure), sends: sends)
    }
}
