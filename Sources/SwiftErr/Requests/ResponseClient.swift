import Foundation

/// One call for a whole request: transport → status → envelope → classification → retry → payload.
///
/// <!-- listing: context=app -->
/// ```swift
/// let client = ResponseClient(
///     transport: transport,           // URLSessionTransport(), AsyncHTTPClientTransport(), …
///     decoder: ResponseDecoder(baseHandler: .reauthenticate { _ in session.expire() }),
///     timeouts: .init(attempt: .seconds(10), overall: .seconds(30)))
///
/// do {
///     let item = try await client.send(TransportRequest(url: url), returning: ClassItem.self, module: StudyGroupCode.self)
/// } catch .module(.wrongTeamCode) {
///     warningLabel.isHidden = false
/// } catch {
///     hud.show(error.localizedDescription)
/// }
/// ```
///
/// For each attempt the client
/// 1. applies the credential of its ``AuthenticationSession``, if it has one;
/// 2. sends the request through its ``transport``, within the
///    attempt's time limit and the request's deadline (``Timeouts``);
/// 3. checks the status with the decoder's ``ResponseDecoder/statusValidator``: an unacceptable
///    status is ``ModuleRespError/unacceptableStatus(_:)-enum.case`` keeping the server's `Retry-After`;
/// 4. reads the envelope and classifies its code for the module: a base code runs the decoder's
///    ``ResponseDecoder/baseHandler`` exactly once for that response;
/// 5. when the answer asks for re-authentication and the session renews its credential, sends the
///    request once more with the new credential (a replay, part of the same attempt);
/// 6. on success, decodes the payload as `Model`.
///
/// With ``protections``, every send of step 2 (a replay too) is first admitted by the upstream's
/// ``UpstreamProtection`` and its outcome told to it after step 4 (see "Upstreams" below).
///
/// A failure goes to ``policy`` (``RetryPolicy/disposition(for:)``, the one retryability rule):
/// retryable failures are sent again after the policy's jittered backoff, or the server's
/// `Retry-After` (seconds or an HTTP-date) on 429 and 503, until the attempts, the deadline, the
/// decision hook or cancellation end it. Business answers are final unless their catalog flags say
/// `CodeFlags.retryable`. Errors the transport throws are mapped by the one mapping of foreign
/// errors (``ModuleRespError/init(adapting:)``).
///
/// ## Which requests are repeated
/// Sending a request again must do no harm. By default (``Repeatability/byMethod``) only the
/// methods HTTP defines as idempotent are repeated: GET, HEAD,
/// OPTIONS, PUT, DELETE and TRACE (``idempotentMethods``), plus any request carrying an
/// `Idempotency-Key` header field, which tells the server to apply it once. A POST answered 503
/// is sent once, unless the call says ``Repeatability/safeToRepeat``.
///
/// ## Sessions
/// With an ``AuthenticationSession``
/// (``init(transport:decoder:policy:timeouts:protections:observer:authentication:clock:)``),
/// an answer that asks for re-authentication starts one refresh shared by every request in flight
/// on the session, and each is replayed once with the new credential, whatever its method: the
/// server refused it before acting on it. A replay is neither an attempt nor seen by the policy;
/// the answers the session handles reach ``SessionRefreshEvent`` once per refresh instead of the
/// base handler once per response. See <doc:KeepingASessionAlive>.
///
/// ## Upstreams
/// With ``protections`` (``UpstreamProtections``: a retry budget, a circuit breaker and an adaptive
/// throttle per upstream, by default a host and port; see ``UpstreamKeying``), each send asks the
/// upstream's protection first:
/// - refused (its circuit open, the request shed), a request fails at once with
///   ``ModuleRespError/refused(_:)``, carrying when trying again makes sense, and the upstream sees
///   nothing; it is never retried;
/// - a retry the protection refuses (its budget spent, its circuit opened meanwhile) is not sent:
///   the request ends with the failure in hand. Before waiting for a retry, the client asks whether
///   it would be admitted, so it does not wait for one that would not;
/// - each send's outcome goes back to the protection by the one rule of what a failure is
///   (``UpstreamOutcome``): a business answer, a base code or a 401 is the upstream answering, and
///   never opens its circuit; a cancelled send counts neither way.
///
/// A replay after a session's refresh is admitted as a first send, not as a retry: it follows an
/// answer, not a failure, and happens at most once per request, so the budget does not limit it
/// (the circuit and the throttle still may). ``TransportAttempt/current`` numbers every send of the
/// request, replays included. See <doc:ProtectingAnUpstream>.
///
/// ## Observing whole requests
/// An ``observer`` is told once about every request when it has ended: its error (none when a
/// failure was retried into a success), how many sends it took and when it started.
///
/// ## Forms
/// - ``send(_:returning:module:repeatability:decide:)``: `async throws(ModuleRespError<Code>)`;
/// - ``result(_:returning:module:repeatability:decide:)``: `async` → `Result`;
/// - ``send(_:repeatability:decide:completionHandler:)``: a completion handler, for callback-style code.
///
/// ## Transports
/// The client sends through any ``HTTPTransport``: `URLSessionTransport` from the
/// `SwiftErrURLSession` product (which also lets these calls take a `URLRequest`), the
/// async-http-client transport of `Integrations/SwiftErrAsyncHTTPClient`, or a type of your own
/// passed to ``init(transport:decoder:policy:timeouts:protections:observer:clock:)``. The rest of the
/// pipeline is the same.
public struct ResponseClient: Sendable {
    /// Time limits of a request, measured on the `ContinuousClock`.
    public struct Timeouts: Sendable, Hashable {
        /// The longest one attempt's transport may take (the wait for the response), or `nil` for
        /// no limit beyond the transport's own. An attempt that runs out is cancelled and fails with
        /// ``RequestTimeoutError/Limit/attempt``, which the policy retries like `URLError.timedOut`.
        public var attempt: Duration?
        /// The longest the whole request may take, every attempt and wait included, or `nil`. When
        /// it runs out during an attempt, the attempt is cancelled and the request fails with
        /// ``RequestTimeoutError/Limit/deadline``; a wait that would end after it is not started,
        /// and the failure that asked for it is thrown at once. It does not interrupt the decision
        /// hook.
        public var overall: Duration?

        /// Creates time limits.
        /// - Parameters:
        ///   - attempt: The limit of one attempt, or `nil`.
        ///   - overall: The limit of the whole request, or `nil`.
        public init(attempt: Duration? = nil, overall: Duration? = nil) {
            self.attempt = attempt
            self.overall = overall
        }

        /// No limits beyond the transport's own.
        public static let none = Timeouts()
    }

    /// Whether a request may be sent more than once.
    public enum Repeatability: Sendable, Hashable {
        /// Repeated when its method is in ``ResponseClient/repeatableMethods`` or it carries an
        /// `Idempotency-Key` header field; otherwise sent once.
        case byMethod
        /// The caller knows that sending it twice does no harm (for example a POST the server
        /// de-duplicates): repeated by the policy whatever its method.
        case safeToRepeat
        /// Sent once, whatever its method.
        case once
    }

    /// GET, HEAD, OPTIONS, PUT, DELETE and TRACE: the methods RFC 9110 defines as idempotent.
    public static let idempotentMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]

    /// Sends requests.
    public var transport: any HTTPTransport
    /// Validates the status, reads the envelope, classifies the code (running its base handler)
    /// and decodes the payload.
    public var decoder: ResponseDecoder
    /// Which failures are sent again, how often and after how long.
    public var policy: RetryPolicy
    /// Time limits of each attempt and of the whole request.
    public var timeouts: Timeouts
    /// The methods repeated under ``Repeatability/byMethod`` (``idempotentMethods`` by default),
    /// upper case.
    public var repeatableMethods: Set<String>
    /// The message of the ``UserStoppedError`` when the decision hook answers stop.
    public var userStopMessage: LocalizedText
    /// The retry budget, circuit breaker and adaptive throttle of each upstream the client sends to
    /// (as the registry's ``UpstreamKeying`` tells them apart), consulted before every send and told
    /// its outcome after it; `nil` for none.
    /// Give every client of the app the same registry, so that each upstream is protected once.
    /// See ``UpstreamProtections`` and <doc:ProtectingAnUpstream>.
    public var protections: UpstreamProtections?
    /// Told once about every request when it has ended (an operation's duration and error), or
    /// `nil`.
    public var observer: (any RequestObserver)?
    /// The time requests run on: their waits and limits, `Retry-After` dates and jitter
    /// (``PipelineClock/continuous``; a simulation's clock in tests).
    public var clock: PipelineClock
    /// The session whose credential every request carries, or `nil` (set by
    /// ``init(transport:decoder:policy:timeouts:protections:observer:authentication:clock:)``).
    var authentication: (any RequestAuthenticating)?

    /// Creates a client over any transport.
    /// - Parameters:
    ///   - transport: Sends requests.
    ///   - decoder: Status, envelope, base handler and payload decoding (2xx, `ret`/`msg`/`data`,
    ///     no base handler by default).
    ///   - policy: The retry policy (``RetryPolicy/default``).
    ///   - timeouts: Time limits (none by default).
    ///   - protections: The protections of the upstreams, one per upstream as their ``UpstreamKeying``
    ///     tells them apart (none by default).
    ///   - observer: Told once about every request when it has ended (none by default).
    ///   - clock: The time requests run on (``PipelineClock/continuous``; a simulation's in tests).
    public init(
        transport: any HTTPTransport, decoder: ResponseDecoder = ResponseDecoder(), policy: RetryPolicy = .default,
        timeouts: Timeouts = .none, protections: UpstreamProtections? = nil, observer: (any RequestObserver)? = nil,
        clock: PipelineClock = .continuous
    ) {
        self.transport = transport
        self.decoder = decoder
        self.policy = policy
        self.timeouts = timeouts
        self.protections = protections
        self.observer = observer
        self.repeatableMethods = Self.idempotentMethods
        self.userStopMessage = UserStoppedError.defaultMessage
        self.clock = clock
    }

    /// Creates a client over any transport whose requests carry the credential of an
    /// ``AuthenticationSession``, kept alive by it: an answer that asks for re-authentication (a
    /// code the catalog flags `CodeFlags.reauthenticate`, or a status in the session's
    /// ``AuthenticationSession/statusCodes``) is sent again once, with the credential of the one
    /// refresh every request in flight waits for (see <doc:KeepingASessionAlive>).
    /// - Parameters:
    ///   - transport: Sends requests.
    ///   - decoder: Status, envelope, base handler and payload decoding.
    ///   - policy: The retry policy (``RetryPolicy/default``).
    ///   - timeouts: Time limits (none by default); a request waiting for a refresh still ends at
    ///     its deadline.
    ///   - protections: The protections of the upstreams, one per upstream as their ``UpstreamKeying``
    ///     tells them apart (none by default).
    ///   - observer: Told once about every request when it has ended (none by default).
    ///   - authentication: The session; clients that share it share its refreshes.
    ///   - clock: The time requests run on (``PipelineClock/continuous``; a simulation's in tests).
    public init<A: Authenticator>(
        transport: any HTTPTransport, decoder: ResponseDecoder = ResponseDecoder(), policy: RetryPolicy = .default,
        timeouts: Timeouts = .none, protections: UpstreamProtections? = nil, observer: (any RequestObserver)? = nil,
        authentication: AuthenticationSession<A>, clock: PipelineClock = .continuous
    ) {
        self.init(
            transport: transport, decoder: decoder, policy: policy, timeouts: timeouts, protections: protections,
            observer: observer, clock: clock)
        self.authentication = authentication
    }

    /// Sends a request and returns its payload, repeating it as the policy says.
    /// - Parameters:
    ///   - request: The request.
    ///   - model: The payload type (`Optional`, ``NoData`` or any `Decodable`).
    ///   - module: The module the request belongs to.
    ///   - repeatability: Whether the request may be sent more than once (by its method by default).
    ///   - decide: Asked before each retry ("try again?"); `nil` retries without asking.
    /// - Returns: The payload of the first successful response.
    /// - Throws: The one ``ModuleRespError`` that ends the request: the last failure (a server code,
    ///   an unacceptable status with its `Retry-After`, an invalid envelope, a decoding failure, a
    ///   transport failure, a ``RequestTimeoutError``), ``ModuleRespError/cancelled``,
    ///   ``ModuleRespError/stoppedByUser(_:)``, with a session
    ///   ``ModuleRespError/reauthenticationFailed(_:)``, and with ``protections``
    ///   ``ModuleRespError/refused(_:)`` when the upstream's protection refused the request.
    public func send<Model: Decodable, Code: ModuleCode>(
        _ request: TransportRequest, returning model: Model.Type = Model.self, module: Code.Type = Code.self,
        repeatability: Repeatability = .byMethod,
        decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)? = nil
    ) async throws(ModuleRespError<Code>) -> Model {
        let start = ContinuousClock.now
        let transport = self.transport
        let decoder = self.decoder
        let end = await pipeline.run(
            request, module: Code.moduleName, repeatability: repeatability, baseHandler: decoder.baseHandler,
            failures: .module(Code.self, policy: policy, decide: decide),
            exchange: { try await transport.send($0) },
            judge: { decoder.verdict(Model.self, module: Code.self, from: $0) })
        switch end.result {
        case .success(let value):
            observer?.requestEnded(request, error: ModuleRespError<Code>?.none, sends: end.sends, since: start)
            return value
        case .failure(let error):
            observer?.requestEnded(request, error: error, sends: end.sends, since: start)
            throw error
        }
    }

    /// The pipeline of this client's settings: the one place that runs a request's attempts.
    var pipeline: RequestPipeline {
        var pipeline = RequestPipeline(policy: policy, timeouts: timeouts, protections: protections, clock: clock)
        pipeline.repeatableMethods = repeatableMethods
        pipeline.userStopMessage = userStopMessage
        pipeline.authentication = authentication
        return pipeline
    }

    /// Sends a request and returns its outcome as a `Result` (see
    /// ``send(_:returning:module:repeatability:decide:)``).
    /// - Parameters:
    ///   - request: The request.
    ///   - model: The payload type.
    ///   - module: The module the request belongs to.
    ///   - repeatability: Whether the request may be sent more than once (by its method by default).
    ///   - decide: Asked before each retry; `nil` retries without asking.
    /// - Returns: The payload, or the one ``ModuleRespError`` that ended the request.
    public func result<Model: Decodable, Code: ModuleCode>(
        _ request: TransportRequest, returning model: Model.Type = Model.self, module: Code.Type = Code.self,
        repeatability: Repeatability = .byMethod,
        decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)? = nil
    ) async -> Result<Model, ModuleRespError<Code>> {
        do {
            return .success(
                try await send(
                    request, returning: Model.self, module: Code.self, repeatability: repeatability, decide: decide))
        } catch {
            return .failure(error)
        }
    }

    /// Sends a request in a new task and calls `completionHandler` exactly once with its outcome;
    /// the model and module are read from the handler's type. The model is `Sendable` because the
    /// outcome leaves the task (to the main queue, typically).
    ///
    /// <!-- listing: context=app -->
    /// ```swift
    /// func queryDemo(with params: [String: String],
    ///                completionHandler: @escaping @Sendable (Result<ClassItem, ModuleRespError<StudyGroupCode>>) -> Void) {
    ///     let url = baseURL.appending(path: "class/query").appending(queryItems: params.map(URLQueryItem.init))
    ///     client.send(TransportRequest(url: url), completionHandler: completionHandler)
    /// }
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - repeatability: Whether the request may be sent more than once (by its method by default).
    ///   - decide: Asked before each retry; `nil` retries without asking.
    ///   - completionHandler: Called once, from the task, with the payload or the one
    ///     ``ModuleRespError`` that ended the request (``ModuleRespError/cancelled`` when the task
    ///     is cancelled). It runs on no particular thread: hop to the main actor for UI work.
    /// - Returns: The task, to cancel the request.
    @discardableResult
    public func send<Model: Decodable & Sendable, Code: ModuleCode>(
        _ request: TransportRequest, repeatability: Repeatability = .byMethod,
        decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)? = nil,
        completionHandler: @escaping @Sendable (Result<Model, ModuleRespError<Code>>) -> Void
    ) -> Task<Void, Never> {
        Task {
            let outcome: Result<Model, ModuleRespError<Code>> = await result(
                request, repeatability: repeatability, decide: decide)
            completionHandler(outcome)
        }
    }

    /// Whether the policy may send `request` more than once.
    /// - Parameters:
    ///   - request: The request.
    ///   - repeatability: What the call says.
    /// - Returns: `true` when it may be repeated.
    public func isRepeatable(_ request: TransportRequest, _ repeatability: Repeatability = .byMethod) -> Bool {
        pipeline.isRepeatable(request, repeatability)
    }
}
