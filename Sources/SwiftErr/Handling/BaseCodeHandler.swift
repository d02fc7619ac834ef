/// The one place base-tier codes are handled (token expiry, failed automatic sign-in, …).
///
/// A ``ResponseDecoder`` calls its handler exactly once for every response whose code is in
/// the base tier, synchronously, before the module's result is returned or thrown, so the
/// module only ever sees its own codes after the central reaction has happened. The handler may
/// be called from many tasks at once: its closure is `@Sendable` and must protect its own state.
///
/// ```swift
/// let handler = BaseCodeHandler { event in
///     if event.requiresReauthentication { session.expire() }
/// }
/// ```
public struct BaseCodeHandler: Sendable {
    private let body: @Sendable (BaseCodeEvent) -> Void

    /// Creates a handler.
    /// - Parameter body: Called once per base-tier response, from the task that classified it.
    public init(_ body: @escaping @Sendable (BaseCodeEvent) -> Void) {
        self.body = body
    }

    /// Runs the handler for one event.
    /// - Parameter event: The base-tier code received.
    public func callAsFunction(_ event: BaseCodeEvent) {
        body(event)
    }

    /// A handler that calls `action` only for codes flagged `CodeFlags.reauthenticate`
    /// (token expiry, failed automatic sign-in).
    /// - Parameter action: The re-authentication to start.
    /// - Returns: The handler.
    public static func reauthenticate(_ action: @escaping @Sendable (BaseCodeEvent) -> Void) -> BaseCodeHandler {
        BaseCodeHandler { event in
            if event.requiresReauthentication { action(event) }
        }
    }
}
