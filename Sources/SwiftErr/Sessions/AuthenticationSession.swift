/// A credential kept alive for every request that uses it: when the server asks to sign in again,
/// **one** refresh runs, every request in flight or starting meanwhile waits for it, and each is
/// sent again once with the new credential.
///
/// Give a session to a ``ResponseClient`` (on `URLSession`, async-http-client or any
/// ``HTTPTransport``); the client applies the current credential to every request and lets the
/// session handle the answers that ask for re-authentication:
///
/// <!-- listing: context=app,tokens -->
/// ```swift
/// let tokens = AuthenticationSession(authenticator: TokenAuthenticator(tokens: service), credential: savedToken)
/// let client = ResponseClient(session: .shared, decoder: decoder, authentication: tokens)
///
/// let item = try await client.send(URLRequest(url: url), returning: ClassItem.self, module: StudyGroupCode.self)
/// ```
///
/// ## Which answers start a refresh
/// A response whose code the requesting module's catalog flags `CodeFlags.reauthenticate`
/// (token expiry 11001 and failed automatic sign-in 11004 in the built-in catalog; any base or
/// module code a catalog flags), or whose HTTP status is in ``statusCodes`` (401 by default).
/// Nothing is decided from the codes' numbers: a catalog that flags a new code works with no
/// change to the app.
///
/// ## One refresh at a time
/// The session, not the client, is the unit: clients that share a session share its refreshes.
/// When an answer asks for re-authentication:
/// - a refresh is running: the request waits for it;
/// - the request was sent with an older credential than the current one (a refresh finished, or
///   ``credential`` was set, while it was in flight): it is sent again with the current credential
///   at once, without a refresh;
/// - every refresh that ended since it was sent failed: it fails with the same
///   ``ReauthenticationError``, without another refresh;
/// - otherwise the request starts a refresh, if the ``window`` allows one, and waits for it.
///
/// A request that starts while a refresh runs waits for it too, rather than being sent with a
/// credential known to be refused. The refresh runs in a task of its own (keeping the task-local
/// values of the request that started it): cancelling a waiting request, or its reaching its
/// deadline, ends that request only.
///
/// The authenticator's `refresh` must send its own request through a client without this session:
/// one it sends through this session, from its task or a task that task starts, would wait for the
/// refresh itself, so it fails at once with ``ReauthenticationError/Reason/refreshUsesSession``.
///
/// When the refresh ends, the central handler of the request that started it
/// (``BaseCodeHandler``'s `sessionRefresh`) and every stream of ``refreshEvents(bufferingNewest:)``
/// receive one ``SessionRefreshEvent``; then every waiting request goes on: with the new
/// credential, or failing with ``ReauthenticationError/Reason/refreshFailed`` keeping the refresh's
/// error.
///
/// ## Signing in and out
/// Set ``credential`` when the person signs in (a refresh still running is then abandoned and its
/// waiting requests are sent with the new credential), and to `nil` when they sign out. Without a
/// credential, requests are sent as they are and their answers reach the caller unchanged.
public final class AuthenticationSession<A: Authenticator>: Sendable {
    /// Applies, refreshes and checks credentials.
    public let authenticator: A
    /// The most refreshes within an interval.
    public let window: RefreshWindow
    /// The HTTP statuses that ask for re-authentication, besides the codes the catalog flags.
    public let statusCodes: Set<Int>

    /// The time since the session was created, on its clock: when refreshes start, for ``window``.
    private let elapsed: @Sendable () -> Duration
    private let state: Locked<State>

    /// Creates a session measuring its refresh window on the `ContinuousClock`.
    /// - Parameters:
    ///   - authenticator: Applies, refreshes and checks credentials.
    ///   - credential: The credential to start with, or `nil` when the person is not signed in.
    ///   - window: The most refreshes within an interval (``RefreshWindow/default``: 5 in 30 s).
    ///   - statusCodes: The HTTP statuses that ask for re-authentication (401).
    public convenience init(
        authenticator: A, credential: A.Credential?, window: RefreshWindow = .default, statusCodes: Set<Int> = [401]
    ) {
        self.init(
            authenticator: authenticator, credential: credential, window: window, statusCodes: statusCodes,
            clock: ContinuousClock())
    }

    /// Creates a session measuring its refresh window on `clock` (a manual clock in tests).
    /// - Parameters:
    ///   - authenticator: Applies, refreshes and checks credentials.
    ///   - credential: The credential to start with, or `nil` when the person is not signed in.
    ///   - window: The most refreshes within an interval.
    ///   - statusCodes: The HTTP statuses that ask for re-authentication.
    ///   - clock: The clock the window is measured on.
    public init<WindowClock: Clock<Duration>>(
        authenticator: A, credential: A.Credential?, window: RefreshWindow = .default, statusCodes: Set<Int> = [401],
        clock: WindowClock
    ) {
        self.authenticator = authenticator
        self.window = window
        self.statusCodes = statusCodes
        let origin = clock.now
        self.elapsed = { origin.duration(to: clock.now) }
        self.state = Locked(State(credential: credential))
    }

    /// The current credential, or `nil` when the person is not signed in.
    ///
    /// Setting it (after signing in, or to `nil` after signing out) makes requests in flight with
    /// the previous one be sent again with it when refused, without a refresh. A refresh still
    /// running is abandoned (its task is cancelled and its result ignored), and the requests
    /// waiting on it go on at once with the new credential.
    public var credential: A.Credential? {
        get { state.withLock { $0.credential } }
        set {
            let (waiters, task, wake) = state.withLock { state in
                state.credential = newValue
                state.generation += 1
                let wake = Wake.credential(newValue, state.stamp)
                guard let refresh = state.refresh else { return ([Waiter](), Task<Void, Never>?.none, wake) }
                state.refresh = nil
                state.epoch += 1
                return (refresh.waitersInOrder, refresh.task, wake)
            }
            task?.cancel()
            for waiter in waiters { waiter.resume(returning: wake) }
        }
    }

    /// Whether a refresh is running.
    public var isRefreshing: Bool {
        state.withLock { $0.refresh != nil }
    }

    /// How many requests are waiting for the refresh running (none when no refresh runs).
    public var waitingRequestCount: Int {
        state.withLock { $0.refresh?.waiters.count ?? 0 }
    }

    /// How many refreshes the session has started.
    public var refreshCount: Int {
        state.withLock { $0.refreshCount }
    }

    /// The session's refreshes from now on: one ``SessionRefreshEvent`` as each ends, before the
    /// requests that waited on it go on, whichever client's request started it.
    ///
    /// The stream is registered when this is called, and unregistered when the task iterating it is
    /// cancelled or the stream is dropped (leaving a `for await` loop early keeps it registered
    /// until then); events are handed over without waiting for the listener, and one that falls
    /// behind by more than `bufferingNewest` events loses the oldest. A ``BaseCodeHandler``'s
    /// `sessionRefresh` hears only of the refreshes its own client's requests started; this stream
    /// hears of all of them.
    ///
    /// <!-- listing: context=app,tokens,auth-session -->
    /// ```swift
    /// for await refresh in session.refreshEvents() where refresh.isFailure {
    ///     router.showSignIn()
    /// }
    /// ```
    /// - Parameter bufferingNewest: The events kept for a listener that has not read them (16).
    /// - Returns: The events.
    public func refreshEvents(bufferingNewest: Int = 16) -> AsyncStream<SessionRefreshEvent> {
        // The initializer with a build closure (called at once), rather than `makeStream`, which
        // needs macOS 14 / iOS 17.
        var made: AsyncStream<SessionRefreshEvent>.Continuation?
        let stream = AsyncStream(SessionRefreshEvent.self, bufferingPolicy: .bufferingNewest(max(1, bufferingNewest))) {
            made = $0
        }
        let continuation = made!
        let key = state.withLock { state in
            defer { state.nextListener += 1 }
            state.listeners[state.nextListener] = continuation
            return state.nextListener
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: key) }
        }
        return stream
    }

    /// The number of registered streams of ``refreshEvents(bufferingNewest:)`` (for tests).
    package var refreshListenerCount: Int {
        state.withLock { $0.listeners.count }
    }

    // MARK: - For pipelines

    /// Applies the current credential to a request, first waiting for a refresh that is running.
    ///
    /// Call it when you send requests through a pipeline of your own (``ResponseClient`` takes the
    /// same step before every attempt, bounded by the request's deadline), and pass what it returns to
    /// ``reauthenticate(_:trigger:module:flags:serverMessage:observer:)`` when the answer asks for
    /// re-authentication.
    /// - Parameter request: The request to send.
    /// - Returns: The request with the credential applied (unchanged without a credential), and
    ///   which credential that was.
    /// - Throws: ``ReauthenticationError`` when the refresh it waited for failed;
    ///   `CancellationError` when the task is cancelled while it waits.
    public func authenticate(_ request: TransportRequest) async throws -> AuthenticatedRequest {
        switch await admit(request, deadline: nil, clock: .continuous) {
        case .proceed(let authenticated): return authenticated
        case .failed(let failure): throw failure
        case .cancelled, .timedOut, .unmanaged: throw CancellationError()
        }
    }

    /// Handles an answer that asks for re-authentication: waits for the refresh running, starts one,
    /// or sees that none is needed, then gives the request to send again.
    ///
    /// - Parameters:
    ///   - refused: The request as ``authenticate(_:)`` returned it and as it was sent.
    ///   - trigger: What in the answer asked for re-authentication.
    ///   - module: The `ModuleCode.moduleName` of the request, for the event.
    ///   - flags: The code's catalog flags, for the event (none for a status).
    ///   - serverMessage: The envelope's message, for the event.
    ///   - observer: The handler that receives the ``SessionRefreshEvent`` if this call starts a
    ///     refresh (the handlers of requests that wait on it receive nothing).
    /// - Returns: The request to send again, with the current credential; `nil` when the session
    ///   has no credential (the answer is the caller's, as without a session).
    /// - Throws: ``ReauthenticationError`` when the refresh fails or the window is full;
    ///   `CancellationError` when the task is cancelled while it waits (the refresh goes on).
    public func reauthenticate(
        _ refused: AuthenticatedRequest, trigger: SessionRefreshEvent.Trigger, module: String, flags: CodeFlags = [],
        serverMessage: String? = nil, observer: BaseCodeHandler? = nil
    ) async throws -> AuthenticatedRequest? {
        let cause = RefreshCause(trigger: trigger, module: module, flags: flags, serverMessage: serverMessage)
        switch await readmit(refused, cause: cause, deadline: nil, clock: .continuous, observer: observer) {
        case .proceed(let authenticated): return authenticated
        case .unmanaged: return nil
        case .failed(let failure): throw failure
        case .cancelled, .timedOut: throw CancellationError()
        }
    }

    // MARK: - State

    /// A waiting request's continuation.
    private typealias Waiter = CheckedContinuation<Wake, Never>

    /// Which credential a request was sent with: its generation, and how many refreshes had ended.
    private struct Stamp {
        var generation: UInt64
        var epoch: UInt64
    }

    /// What a waiting request is woken with.
    private enum Wake: Sendable {
        /// Go on with this credential (`nil`: none).
        case credential(A.Credential?, Stamp)
        /// The refresh failed, or the window is full.
        case failed(ReauthenticationError)
        /// The session has no credential: the answer is the caller's.
        case unmanaged
        /// The waiting task was cancelled.
        case cancelled
        /// The waiting request reached its deadline.
        case timedOut
    }

    /// The refresh running and the requests waiting for it.
    private struct Refresh {
        /// Tells this refresh from a later one when it ends.
        let id: UInt64
        /// The generation of the credential being refreshed.
        let generation: UInt64
        var waiters: [UInt64: Waiter]
        var task: Task<Void, Never>?

        /// The waiters in the order they began to wait, so that they resume in the same order on
        /// every run (a dictionary's order changes from one process to the next).
        var waitersInOrder: [Waiter] {
            waiters.sorted { $0.key < $1.key }.map(\.value)
        }
    }

    private struct State {
        var credential: A.Credential?
        /// Increases with every new credential (refreshed or set).
        var generation: UInt64 = 0
        /// Increases with every refresh that ends (or is abandoned).
        var epoch: UInt64 = 0
        /// The error of the last refresh, when it failed.
        var lastFailure: ReauthenticationError?
        var refresh: Refresh?
        /// When the latest refreshes started (at most the window's maximum), oldest first.
        var starts: [Duration] = []
        var refreshCount = 0
        var nextID: UInt64 = 0
        /// The streams of ``refreshEvents(bufferingNewest:)`` being listened to.
        var listeners: [Int: AsyncStream<SessionRefreshEvent>.Continuation] = [:]
        var nextListener = 0

        var stamp: Stamp { Stamp(generation: generation, epoch: epoch) }

        mutating func newID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }

    /// What a waiting request does next, decided under the lock.
    private enum Step {
        /// Wake at once with this.
        case wake(Wake)
        /// Wait for the refresh running.
        case wait
        /// Start a refresh of this credential, for this cause, telling this observer; and wait for it.
        case start(A.Credential, RefreshCause, BaseCodeHandler?)
    }

    /// Everything a started refresh needs.
    private struct Job: Sendable {
        let id: UInt64
        let credential: A.Credential
        let generation: UInt64
        let cause: RefreshCause
        let observer: BaseCodeHandler?
    }
}

/// What in an answer asked for re-authentication, for the event of the refresh it starts.
struct RefreshCause: Sendable {
    var trigger: SessionRefreshEvent.Trigger
    var module: String
    var flags: CodeFlags
    var serverMessage: String?
}

/// How a request goes on after the session has seen it.
enum SessionAdmission: Sendable {
    /// Send this request.
    case proceed(AuthenticatedRequest)
    /// The session has no credential: the answer is the caller's.
    case unmanaged
    /// The session could not be renewed.
    case failed(ReauthenticationError)
    /// The task was cancelled while it waited.
    case cancelled
    /// The request reached its deadline while it waited.
    case timedOut
}

/// What a ``RequestPipeline`` asks of a session, whatever its credential type.
protocol RequestAuthenticating: Sendable {
    /// The HTTP statuses that ask for re-authentication.
    var statusCodes: Set<Int> { get }
    /// Applies the current credential, first waiting (until `deadline` on `clock`) for a refresh
    /// running.
    func admit(_ request: TransportRequest, deadline: Duration?, clock: PipelineClock) async -> SessionAdmission
    /// Handles a refused request (waits, refreshes, or neither), until `deadline` on `clock`.
    func readmit(
        _ refused: AuthenticatedRequest, cause: RefreshCause, deadline: Duration?, clock: PipelineClock,
        observer: BaseCodeHandler?
    ) async -> SessionAdmission
}

/// The sessions whose refresh the current task is running: a request such a refresh sends through
/// the same session would wait for the refresh itself.
enum SessionRefreshScope {
    @TaskLocal static var sessions: Set<ObjectIdentifier> = []
}

extension AuthenticationSession: RequestAuthenticating {
    func admit(_ request: TransportRequest, deadline: Duration?, clock: PipelineClock) async -> SessionAdmission {
        if isRefreshingInThisTask { return .failed(ReauthenticationError(reason: .refreshUsesSession)) }
        // The fast path: no refresh running, one lock.
        let now: (A.Credential?, Stamp)? = state.withLock { state in
            state.refresh == nil ? (state.credential, state.stamp) : nil
        }
        if let (credential, stamp) = now {
            return .proceed(authenticated(request, with: credential, stamp))
        }
        let id = state.withLock { $0.newID() }
        let wake = await suspend(id, until: deadline, on: clock) { state in
            state.refresh == nil ? .wake(.credential(state.credential, state.stamp)) : .wait
        }
        switch wake {
        case .credential(let credential, let stamp): return .proceed(authenticated(request, with: credential, stamp))
        case .failed(let failure): return .failed(failure)
        case .unmanaged: return .unmanaged  // not produced for a new request: only an answer is left to the caller
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        }
    }

    func readmit(
        _ refused: AuthenticatedRequest, cause: RefreshCause, deadline: Duration?, clock: PipelineClock,
        observer: BaseCodeHandler?
    ) async -> SessionAdmission {
        if isRefreshingInThisTask { return .failed(ReauthenticationError(reason: .refreshUsesSession)) }
        // The authenticator's code and the clock run outside the lock; the decision below only
        // uses `matches` when the credential has not changed since it was read.
        let (id, current) = state.withLock { state in (state.newID(), state.credential) }
        let matches = current.map { authenticator.isRequest(refused.request, authenticatedWith: $0) } ?? false
        let now = elapsed()
        let window = self.window
        let wake = await suspend(id, until: deadline, on: clock) { state in
            if state.refresh != nil { return .wait }
            if state.generation != refused.generation {
                return .wake(state.credential == nil ? .unmanaged : .credential(state.credential, state.stamp))
            }
            guard let credential = state.credential else { return .wake(.unmanaged) }
            if state.epoch != refused.epoch, let failure = state.lastFailure {
                // Every refresh that ended since the request was sent failed (one that succeeded
                // would have changed the generation): it fails the same way.
                return .wake(.failed(failure))
            }
            if !matches { return .wake(.credential(credential, state.stamp)) }
            guard window.allowsRefresh(after: state.starts, at: now) else {
                return .wake(.failed(ReauthenticationError(reason: .excessiveRefresh(window))))
            }
            state.starts.append(now)
            if state.starts.count > window.maximumRefreshes { state.starts.removeFirst() }
            return .start(credential, cause, observer)
        }
        switch wake {
        case .credential(let credential?, let stamp):
            return .proceed(authenticated(refused.original, with: credential, stamp))
        case .credential(nil, _), .unmanaged: return .unmanaged
        case .failed(let failure): return .failed(failure)
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        }
    }

    /// The request with `credential` applied (the authenticator's code, outside the lock).
    private func authenticated(_ request: TransportRequest, with credential: A.Credential?, _ stamp: Stamp)
        -> AuthenticatedRequest
    {
        var authenticated = request
        if let credential { authenticator.apply(credential, to: &authenticated) }
        return AuthenticatedRequest(
            request: authenticated, original: request, generation: stamp.generation, epoch: stamp.epoch)
    }

    // MARK: - Waiting

    /// Whether the current task is running this session's refresh (see
    /// ``ReauthenticationError/Reason/refreshUsesSession``).
    private var isRefreshingInThisTask: Bool {
        SessionRefreshScope.sessions.contains(ObjectIdentifier(self))
    }

    /// Decides under the lock what the request `id` does, and waits when it must: until the
    /// refresh ends, the task is cancelled or `deadline` passes on `clock`, whichever comes first.
    private func suspend(
        _ id: UInt64, until deadline: Duration?, on clock: PipelineClock,
        decide: @escaping @Sendable (inout State) -> Step
    ) async -> Wake {
        guard let deadline else { return await suspend(id, decide: decide) }
        if clock.now >= deadline { return .timedOut }
        return await withTaskGroup(of: Wake.self) { group in
            group.addTask { await self.suspend(id, decide: decide) }
            group.addTask {
                try? await clock.sleepUntil(deadline)
                return Task.isCancelled ? .cancelled : .timedOut
            }
            // Whichever ends first; cancelling the other removes its waiter (see `cancelWaiter`).
            let first = await group.next() ?? .cancelled
            group.cancelAll()
            return first
        }
    }

    /// Decides under the lock what the request `id` does, and waits when it must, until the refresh
    /// ends or the task is cancelled.
    ///
    /// Each continuation is resumed exactly once: whoever removes it from the waiters under the
    /// lock (the refresh ending, `credential` being set, or the cancellation handler) resumes it,
    /// and a continuation never registered is resumed here at once.
    private func suspend(_ id: UInt64, decide: (inout State) -> Step) async -> Wake {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                let decided: (wake: Wake?, job: Job?) = state.withLock { state in
                    switch decide(&state) {
                    case .wake(let wake):
                        return (wake, nil)
                    case .wait:
                        state.refresh?.waiters[id] = continuation
                        return (nil, nil)
                    case .start(let credential, let cause, let observer):
                        let job = Job(
                            id: state.newID(), credential: credential, generation: state.generation, cause: cause,
                            observer: observer)
                        state.refresh = Refresh(id: job.id, generation: job.generation, waiters: [id: continuation])
                        state.refreshCount += 1
                        return (nil, job)
                    }
                }
                if let wake = decided.wake {
                    continuation.resume(returning: wake)
                    return
                }
                if let job = decided.job { launch(job) }
                // The cancellation handler may have run before the continuation was registered.
                if Task.isCancelled { cancelWaiter(id) }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    /// Resumes the waiter `id` with ``Wake/cancelled`` if it is still waiting.
    private func cancelWaiter(_ id: UInt64) {
        let waiter = state.withLock { $0.refresh?.waiters.removeValue(forKey: id) }
        waiter?.resume(returning: .cancelled)
    }

    // MARK: - Refreshing

    /// Runs the refresh in a task of its own, so that no waiting request's cancellation reaches it.
    /// The task keeps the task-local values of the request that started it (and so a simulation's
    /// executor: `UnstructuredTasks`), and marks itself as this session's refresh: a request it
    /// sends through the same session is refused instead of waiting for it.
    private func launch(_ job: Job) {
        let sessions = SessionRefreshScope.sessions.union([ObjectIdentifier(self)])
        let task = UnstructuredTasks.run {
            await SessionRefreshScope.$sessions.withValue(sessions) { await self.refresh(job) }
        }
        state.withLock { state in
            if state.refresh?.id == job.id { state.refresh?.task = task }
        }
    }

    /// Refreshes the credential, records the outcome, tells the observer, then wakes the waiters.
    private func refresh(_ job: Job) async {
        let result: Result<A.Credential, any Error>
        do {
            result = .success(try await authenticator.refresh(job.credential))
        } catch {
            result = .failure(error)
        }
        typealias Ended = (
            waiters: [Waiter], wake: Wake, outcome: SessionRefreshEvent.Outcome,
            listeners: [AsyncStream<SessionRefreshEvent>.Continuation]
        )
        let ended: Ended? = state.withLock { state in
            // Abandoned when `credential` was set meanwhile: its waiters have gone on already.
            guard let refresh = state.refresh, refresh.id == job.id else { return nil }
            state.refresh = nil
            state.epoch += 1
            switch result {
            case .success(let credential):
                state.credential = credential
                state.generation += 1
                state.lastFailure = nil
                return (
                    refresh.waitersInOrder, .credential(credential, state.stamp), .refreshed,
                    Array(state.listeners.values)
                )
            case .failure(let error):
                let failure = ReauthenticationError(reason: .refreshFailed, underlyingError: error)
                state.lastFailure = failure
                return (
                    refresh.waitersInOrder, .failed(failure), .failed(failure), Array(state.listeners.values)
                )
            }
        }
        guard let ended else { return }
        let event = SessionRefreshEvent(
            trigger: job.cause.trigger, module: job.cause.module, flags: job.cause.flags,
            serverMessage: job.cause.serverMessage, outcome: ended.outcome)
        job.observer?(event)
        for listener in ended.listeners { listener.yield(event) }
        for waiter in ended.waiters { waiter.resume(returning: ended.wake) }
    }
}

/// A request with a session's credential applied, and which credential that was: what
/// ``AuthenticationSession/authenticate(_:)`` returns and
/// ``AuthenticationSession/reauthenticate(_:trigger:module:flags:serverMessage:observer:)`` takes
/// back when the answer to it asks for re-authentication.
public struct AuthenticatedRequest: Sendable {
    /// The request to send.
    public let request: TransportRequest
    /// The request before the credential was applied: a replay applies the new credential to it,
    /// so nothing of the old one is left.
    let original: TransportRequest
    /// The generation of the credential applied.
    let generation: UInt64
    /// How many refreshes had ended when it was applied.
    let epoch: UInt64
}
