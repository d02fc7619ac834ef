import Foundation

/// One attempt of a ``ResponseClient`` request, the unit its ``Retrier`` repeats: apply the
/// session's credential, send within the time limits, decode, and send once more when the answer
/// asks for re-authentication and the session renews it.
///
/// The stages, in order; each is a method below:
/// 1. ``ResponseClient/admit(_:to:)``: the session's credential (waiting for a refresh running);
/// 2. ``ResponseClient/exchange(_:_:isReplay:judge:)``: one send: admitted by the upstream's
///    protection, numbered for the transport (``TransportAttempt``), through the transport within
///    the attempt's limit and the request's deadline;
/// 3. the decoder: status, envelope, classification, payload; what the answer says about the
///    upstream (``UpstreamOutcome``) goes back to the protection;
/// 4. ``ResponseClient/readmit(_:after:trigger:held:attempt:module:session:)``: for an answer that
///    asks for re-authentication, the session's refresh, then stages 2 and 3 again with the new
///    credential.
///
/// A replay is part of the attempt, not another attempt: the policy's attempt count, backoff and
/// decision hook never see it, and the upstream's protection admits it as a first send, not a
/// retry. What the replay's answer is then goes to the policy as the attempt's failure (a 503 after
/// the replay is retried as any 503).
struct Attempt {
    /// The request as the caller made it.
    let request: TransportRequest
    /// The clock of the time limits.
    let clock: ContinuousClock
    /// The request's deadline, if any.
    let deadline: ContinuousClock.Instant?
    /// The protection of the request's upstream, if any.
    let protection: UpstreamProtection?
    /// The attempt running, 1-based.
    var number = 0
    /// The sends so far, attempts and replay together: the number of the send running once it has
    /// gone to the transport.
    var sends = 0
    /// Whether the request has been sent again after a refresh: at most once per request, over all
    /// its attempts, so that a server that keeps refusing cannot make it loop.
    var replayed = false
    /// What the last attempt threw: the failure in hand when the protection refuses a retry.
    var failure: (any Error)?

    init(
        request: TransportRequest, clock: ContinuousClock, deadline: ContinuousClock.Instant?,
        protection: UpstreamProtection?
    ) {
        self.request = request
        self.clock = clock
        self.deadline = deadline
        self.protection = protection
    }
}

extension ResponseClient {
    /// Runs one attempt.
    /// - Parameters:
    ///   - attempt: The attempt's state; records its sends and a replay.
    ///   - model: The payload type.
    ///   - module: The module the request belongs to.
    /// - Returns: The payload.
    /// - Throws: The attempt's failure, as the ``Retrier`` adapts it: a `ModuleRespError<Code>`, a
    ///   transport's error, a ``RequestTimeoutError``, a `CancellationError`, an ``UpstreamRefusal``,
    ///   or a ``RefusedRetry``.
    func perform<Model: Decodable, Code: ModuleCode>(
        _ attempt: inout Attempt, returning model: Model.Type, module: Code.Type
    ) async throws -> Model {
        guard let authentication else {
            let request = attempt.request
            return try await exchange(request, &attempt, isReplay: false) { response in
                let result = decoder.result(Model.self, module: Code.self, from: response)
                return (result, UpstreamOutcome(result))
            }.get()
        }
        var sent = try await admit(attempt, to: authentication)
        var isReplay = false
        while true {
            let held = try await exchange(sent.request, &attempt, isReplay: isReplay) { response in
                let held = decoder.resultHoldingBaseEvent(Model.self, module: Code.self, from: response)
                return (held, UpstreamOutcome(held.result))
            }
            let failure: ModuleRespError<Code>
            switch held.result {
            case .success(let value): return value
            case .failure(let error): failure = error
            }
            guard let trigger = Self.trigger(of: failure, flags: held.flags, statusCodes: authentication.statusCodes)
            else {
                deliver(held.baseEvent)
                throw failure
            }
            if attempt.replayed {
                throw ModuleRespError<Code>.reauthenticationFailed(
                    ReauthenticationError(reason: .refusedAfterRefresh, underlyingError: failure))
            }
            guard
                let next = try await readmit(
                    sent, after: failure, trigger: trigger, held: held, attempt: attempt, module: Code.self,
                    session: authentication)
            else {
                // The session has no credential: the answer is the caller's, as without a session.
                deliver(held.baseEvent)
                throw failure
            }
            attempt.replayed = true
            isReplay = true
            sent = next
        }
    }

    /// Stage 1: the request with the session's current credential.
    private func admit(_ attempt: Attempt, to session: any RequestAuthenticating) async throws -> AuthenticatedRequest {
        let admission = await session.admit(attempt.request, deadline: attempt.deadline)
        if case .proceed(let authenticated) = admission { return authenticated }
        throw error(for: admission, attempt: attempt)
    }

    /// Stage 4: waits for the session's refresh (or starts it) and returns the request to send
    /// again, or `nil` when the session has no credential.
    private func readmit<Code: ModuleCode, Model>(
        _ sent: AuthenticatedRequest, after failure: ModuleRespError<Code>, trigger: SessionRefreshEvent.Trigger,
        held: HeldResult<Model, Code>, attempt: Attempt, module: Code.Type, session: any RequestAuthenticating
    ) async throws -> AuthenticatedRequest? {
        let cause = RefreshCause(
            trigger: trigger, module: Code.moduleName, flags: held.flags, serverMessage: held.serverMessage)
        let admission = await session.readmit(
            sent, cause: cause, deadline: attempt.deadline, observer: decoder.baseHandler)
        switch admission {
        case .proceed(let authenticated): return authenticated
        case .unmanaged: return nil
        default: throw error(for: admission, attempt: attempt)
        }
    }

    /// What the attempt throws when the session does not let the request go on.
    private func error(for admission: SessionAdmission, attempt: Attempt) -> any Error {
        switch admission {
        case .failed(let failure):
            return failure
        case .timedOut:
            return RequestTimeoutError(limit: .deadline, duration: timeouts.overall ?? .zero, attempt: attempt.number)
        case .cancelled, .proceed, .unmanaged:
            return CancellationError()
        }
    }

    /// What in a failure asks for re-authentication: a status of the session's, or a server code
    /// flagged `CodeFlags.reauthenticate` in the module's catalog; `nil` for anything else.
    static func trigger<Code: ModuleCode>(
        of failure: ModuleRespError<Code>, flags: CodeFlags, statusCodes: Set<Int>
    ) -> SessionRefreshEvent.Trigger? {
        if let status = failure.statusCode, statusCodes.contains(status) { return .status(status) }
        if flags.contains(.reauthenticate), let code = failure.rawCode { return .code(code) }
        return nil
    }

    /// Runs the base handler for an event the decoder held back.
    private func deliver(_ event: BaseCodeEvent?) {
        if let event, let baseHandler = decoder.baseHandler { baseHandler(event) }
    }

    /// Stages 2 and 3: one send of `request`. The upstream's protection admits it (a retry when it
    /// is the first send of an attempt after the first), it goes to the transport with
    /// ``TransportAttempt/current`` bound to its number, within the attempt's limit and the
    /// request's deadline, and `judge` reads the response; what the send told about the upstream
    /// goes back to the protection exactly once (``UpstreamOutcome/unjudged`` when the task was
    /// cancelled). A send the deadline leaves no time for is not admitted.
    /// - Parameters:
    ///   - request: The request to send, with its credential.
    ///   - attempt: The attempt; counts the send.
    ///   - isReplay: Whether this is the replay after a session's refresh (never a retry).
    ///   - judge: Reads the response: what the caller wants of it, and what it says about the
    ///     upstream.
    /// - Returns: What `judge` made of the response.
    /// - Throws: The transport's error, a ``RequestTimeoutError``, an ``UpstreamRefusal`` for a
    ///   refused first send or replay, or a ``RefusedRetry`` for a refused retry.
    func exchange<Judged>(
        _ request: TransportRequest, _ attempt: inout Attempt, isReplay: Bool,
        judge: (TransportResponse) -> (Judged, UpstreamOutcome)
    ) async throws -> Judged {
        let clock = attempt.clock
        let limit = self.limit(of: attempt)
        if let limit, clock.now >= limit.instant { throw limit.error }
        let permit = try permit(for: attempt, isReplay: isReplay)
        attempt.sends += 1
        let response: TransportResponse
        do {
            response = try await TransportAttempt.$current.withValue(attempt.sends) {
                try await send(request, within: limit, on: clock)
            }
        } catch {
            if let permit {
                attempt.protection?.record(
                    Task.isCancelled ? .unjudged : UpstreamOutcome(transportError: error), for: permit)
            }
            throw error
        }
        let (judged, outcome) = judge(response)
        if let permit { attempt.protection?.record(outcome, for: permit) }
        return judged
    }

    /// Asks the upstream's protection to admit a send: `nil` without a protection.
    private func permit(for attempt: Attempt, isReplay: Bool) throws -> UpstreamPermit? {
        guard let protection = attempt.protection else { return nil }
        let isRetry = attempt.number > 1 && !isReplay
        do {
            return try protection.admit(isRetry: isRetry)
        } catch {
            // A refused retry ends the request with the failure in hand; a refused request with
            // the refusal.
            if isRetry, let failure = attempt.failure { throw RefusedRetry(failure: failure, refusal: error) }
            throw error
        }
    }

    /// The earlier of the attempt's time limit and the request's deadline, with the error it ends a
    /// send with; `nil` without limits.
    private func limit(of attempt: Attempt) -> (instant: ContinuousClock.Instant, error: RequestTimeoutError)? {
        var limit: (instant: ContinuousClock.Instant, error: RequestTimeoutError)?
        if let duration = timeouts.attempt {
            limit = (
                attempt.clock.now.advanced(by: duration),
                RequestTimeoutError(limit: .attempt, duration: duration, attempt: attempt.number)
            )
        }
        if let deadline = attempt.deadline, let overall = timeouts.overall,
            limit.map({ deadline <= $0.instant }) ?? true
        {
            limit = (deadline, RequestTimeoutError(limit: .deadline, duration: overall, attempt: attempt.number))
        }
        return limit
    }

    /// One transport call, cut off at `limit`: the call is cancelled and `limit`'s error thrown.
    private func send(
        _ request: TransportRequest, within limit: (instant: ContinuousClock.Instant, error: RequestTimeoutError)?,
        on clock: ContinuousClock
    ) async throws -> TransportResponse {
        guard let limit else { return try await transport.send(request) }
        let transport = self.transport
        return try await withThrowingTaskGroup(of: TransportResponse.self) { group in
            group.addTask { try await transport.send(request) }
            group.addTask {
                try await clock.sleep(until: limit.instant, tolerance: nil)
                throw limit.error
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }
}
