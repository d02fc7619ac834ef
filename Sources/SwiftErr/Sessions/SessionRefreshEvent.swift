/// One refresh of an ``AuthenticationSession``, as the central handler sees it: once per refresh,
/// when it has ended, however many requests waited on it.
///
/// ``BaseCodeHandler``'s `sessionRefresh` closure receives it, on the task that ran the refresh,
/// before the waiting requests go on. Requests that a session handles (a code flagged
/// `CodeFlags.reauthenticate`, a status such as 401) do not reach the handler one by one.
///
/// <!-- listing: context=app -->
/// ```swift
/// let handler = BaseCodeHandler(
///     { event in analytics.record(base: event.code.rawValue, module: event.module) },
///     sessionRefresh: { refresh in
///         if case .failed = refresh.outcome { router.showSignIn() }   // once, not once per request
///     })
/// ```
public struct SessionRefreshEvent: Sendable {
    /// What asked for the refresh.
    public enum Trigger: Sendable, Hashable {
        /// A server code flagged `CodeFlags.reauthenticate` in the requesting module's catalog:
        /// a base code such as token expiry (11001), or a module's own code.
        case code(Int64)
        /// An HTTP status in ``AuthenticationSession/statusCodes`` (401 by default).
        case status(Int)
    }

    /// How the refresh ended.
    public enum Outcome: Sendable {
        /// The session has a new credential; the waiting requests are sent again with it.
        case refreshed
        /// The session could not be renewed; every waiting request fails with this error.
        case failed(ReauthenticationError)
    }

    /// The answer that started the refresh.
    public var trigger: Trigger
    /// The `ModuleCode.moduleName` of the request whose answer started the refresh.
    public var module: String
    /// The flags of the code that started it in that module's catalog (empty for a status).
    public var flags: CodeFlags
    /// The envelope's message of the answer that started it, when it had one.
    public var serverMessage: String?
    /// How the refresh ended.
    public var outcome: Outcome

    /// Creates an event.
    /// - Parameters:
    ///   - trigger: What asked for the refresh.
    ///   - module: The requesting module's name.
    ///   - flags: The code's catalog flags (empty for a status).
    ///   - serverMessage: The envelope's message, if any.
    ///   - outcome: How the refresh ended.
    public init(
        trigger: Trigger, module: String, flags: CodeFlags = [], serverMessage: String? = nil, outcome: Outcome
    ) {
        self.trigger = trigger
        self.module = module
        self.flags = flags
        self.serverMessage = serverMessage
        self.outcome = outcome
    }

    /// Whether the refresh failed (the person has to sign in again).
    public var isFailure: Bool {
        if case .failed = outcome { return true }
        return false
    }
}
