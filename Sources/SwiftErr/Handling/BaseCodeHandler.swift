/// The one place base-tier codes are handled (token expiry, failed automatic sign-in, …).
///
/// A ``ResponseDecoder`` calls its handler exactly once for every response whose code is in
/// the base tier, synchronously, before the module's result is returned or thrown, so the
/// module only ever sees its own codes after the central reaction has happened. The handler may
/// be called from many tasks at once: its closures are `@Sendable` and must protect their own state.
///
/// <!-- listing: context=app -->
/// ```swift
/// let handler = BaseCodeHandler { event in
///     if event.requiresReauthentication { session.expire() }
/// }
/// ```
///
/// ## With an authentication session
/// When a ``ResponseClient`` has an ``AuthenticationSession``, the answers its session handles (a
/// code flagged `CodeFlags.reauthenticate`, a status such as 401) no longer reach the handler one
/// by one: 20 requests answered with token expiry start one refresh, not 20 handler calls.
/// Instead, the handler's `sessionRefresh` closure receives one ``SessionRefreshEvent`` per
/// refresh, when it has ended, before the waiting requests go on. Other base codes, and every
/// code when the session has no credential, reach the handler once per response as before.
///
/// <!-- listing: context=app -->
/// ```swift
/// let handler = BaseCodeHandler(
///     { event in analytics.record(base: event.code.rawValue, module: event.module) },
///     sessionRefresh: { refresh in
///         if refresh.isFailure { router.showSignIn() }   // once per failed refresh
///     })
/// ```
public struct BaseCodeHandler: Sendable {
    private let body: @Sendable (BaseCodeEvent) -> Void
    private let sessionBody: (@Sendable (SessionRefreshEvent) -> Void)?

    /// Creates a handler.
    /// - Parameters:
    ///   - body: Called once per base-tier response, from the task that classified it.
    ///   - sessionRefresh: Called once per refresh of an ``AuthenticationSession``, when it has
    ///     ended, from the task that ran it; `nil` (the default) to ignore refreshes.
    public init(
        _ body: @escaping @Sendable (BaseCodeEvent) -> Void,
        sessionRefresh: (@Sendable (SessionRefreshEvent) -> Void)? = nil
    ) {
        self.body = body
        self.sessionBody = sessionRefresh
    }

    /// Runs the handler for one event.
    /// - Parameter event: The base-tier code received.
    public func callAsFunction(_ event: BaseCodeEvent) {
        body(event)
    }

    /// Runs the handler's `sessionRefresh` closure, if it has one, for one refresh.
    /// - Parameter event: The refresh that ended.
    public func callAsFunction(_ event: SessionRefreshEvent) {
        sessionBody?(event)
    }

    /// A handler that calls `action` only for codes flagged `CodeFlags.reauthenticate`
    /// (token expiry, failed automatic sign-in).
    ///
    /// With an ``AuthenticationSession`` that has a credential, these codes start a refresh and
    /// do not reach `action`; pass `sessionRefresh` to learn when a refresh fails.
    /// - Parameters:
    ///   - action: The re-authentication to start.
    ///   - sessionRefresh: Called once per refresh of an ``AuthenticationSession``, when it has
    ///     ended; `nil` (the default) to ignore refreshes.
    /// - Returns: The handler.
    public static func reauthenticate(
        _ action: @escaping @Sendable (BaseCodeEvent) -> Void,
        sessionRefresh: (@Sendable (SessionRefreshEvent) -> Void)? = nil
    ) -> BaseCodeHandler {
        BaseCodeHandler(
            { event in
                if event.requiresReauthentication { action(event) }
            }, sessionRefresh: sessionRefresh)
    }
}
