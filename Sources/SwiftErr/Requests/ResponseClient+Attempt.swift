import Foundation

/// One attempt of a ``ResponseClient`` request, the unit its ``Retrier`` repeats: apply the
/// session's credential, send within the time limits, decode, and send once more when the answer
/// asks for re-authentication and the session renews it.
///
/// The stages, in order; each is a method below:
/// 1. ``ResponseClient/admit(_:)``: the session's credential (waiting for a refresh running);
/// 2. ``ResponseClient/exchange(_:attempt:clock:deadline:)``: the transport, within the attempt's
///    limit and the request's deadline;
/// 3. the decoder: status, envelope, classification, payload;
/// 4. ``ResponseClient/readmit(_:after:trigger:held:attempt:module:)``: for an answer that asks
///    for re-authentication, the session's refresh, then stage 2 again with the new credential.
///
/// A replay is part of the attempt, not another attempt: the policy's attempt count, backoff and
/// decision hook never see it. What the replay's answer is then goes to the policy as the attempt's
/// failure (a 503 after the replay is retried as any 503).
struct Attempt {
    /// The request as the caller made it.
    let request: TransportRequest
    /// The clock of the time limits.
    let clock: ContinuousClock
    /// The request's deadline, if any.
    let deadline: ContinuousClock.Instant?
    /// The attempt running, 1-based.
    var number = 0
    /// Whether the request has been sent again after a refresh: at most once per request, over all
    /// its attempts, so that a server that keeps refusing cannot make it loop.
    var replayed = false

    init(request: TransportRequest, clock: ContinuousClock, deadline: ContinuousClock.Instant?) {
        self.request = request
        self.clock = clock
        self.deadline = deadline
    }
}

extension ResponseClient {
    /// Runs one attempt.
    /// - Parameters:
    ///   - attempt: The attempt's state; records a replay.
    ///   - model: The payload type.
    ///   - module: The module the request belongs to.
    /// - Returns: The payload.
    /// - Throws: The attempt's failure, as the ``Retrier`` adapts it: a `ModuleRespError<Code>`, a
    ///   transport's error, a ``RequestTimeoutError`` or a `CancellationError`.
    func perform<Model: Decodable, Code: ModuleCode>(
        _ attempt: inout Attempt, returning model: Model.Type, module: Code.Type
    ) async throws -> Model {
        guard let authentication else {
            let response = try await exchange(
                attempt.request, attempt: attempt.number, clock: attempt.clock, deadline: attempt.deadline)
            return try decoder.result(Model.self, module: Code.self, from: response).get()
        }
        var sent = try await admit(attempt, to: authentication)
        while true {
            let response = try await exchange(
                sent.request, attempt: attempt.number, clock: attempt.clock, deadline: attempt.deadline)
            let held = decoder.resultHoldingBaseEvent(Model.self, module: Code.self, from: response)
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

    /// Stage 2: one transport call, within the attempt's limit and the request's deadline.
    func exchange(
        _ request: TransportRequest, attempt: Int, clock: ContinuousClock, deadline: ContinuousClock.Instant?
    ) async throws -> TransportResponse {
        var limit: (instant: ContinuousClock.Instant, error: RequestTimeoutError)?
        if let duration = timeouts.attempt {
            limit = (
                clock.now.advanced(by: duration),
                RequestTimeoutError(limit: .attempt, duration: duration, attempt: attempt)
            )
        }
        if let deadline, let overall = timeouts.overall, limit.map({ deadline <= $0.instant }) ?? true {
            limit = (deadline, RequestTimeoutError(limit: .deadline, duration: overall, attempt: attempt))
        }
        guard let limit else { return try await transport.send(request) }
        if clock.now >= limit.instant { throw limit.error }
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
