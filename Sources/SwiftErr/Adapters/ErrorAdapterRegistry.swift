/// An ordered list of ``ErrorAdapter``s with one entry point, ``handle(_:)``.
///
/// For each error, the registry first passes a `ModuleRespError<Code>` through unchanged and
/// converts a `ModuleRespError` of another module (``ModuleRespError/init(converting:)``: a
/// business answer stays a server code), then asks the adapters in order; the first adapter
/// whose ``ErrorAdapter/Foreign`` type matches answers (its `nil` means "ignore"). An error no
/// adapter knows becomes ``ModuleRespError/transportFailed(underlying:)`` with the error kept.
/// Adding an error type is one ``append(_:)`` call, not another branch.
///
/// ``standard`` is the one mapping of foreign errors in SwiftErr: ``ResponseDecoder``,
/// ``ResponseClient``, ``Retrier`` (by default) and ``ModuleRespError/init(adapting:)`` all use
/// it, so a `URLError(.userCancelledAuthentication)` or a thrown ``HTTPStatusError`` means the
/// same everywhere. Pass it to the error channel's `emit(adapting:with:)` for the same answers.
///
/// <!-- listing: context=app -->
/// ```swift
/// var adapters = ErrorAdapterRegistry<StudyGroupCode>.standard
/// adapters.prepend(MoyaErrorAdapter())
/// if let error = adapters.adapt(caught) { show(error) }
/// ```
public struct ErrorAdapterRegistry<Code: ModuleCode>: Sendable {
    /// The adapters, in the order they are asked. Kept as existentials rather than closures over
    /// them: a built-in adapter is an empty struct, stored inside the existential, so building the
    /// standard registry (which ``ResponseClient`` does for every request) allocates the array
    /// and nothing else; two closures per adapter cost two allocations each. An adapter's name is
    /// made only when asked (its default formats its generic type's name).
    private var entries: [any ErrorAdapter<Code>]

    /// A registry with no adapters: only `ModuleRespError<Code>` passes through, everything else
    /// is ``AdaptedError/unknown(_:)``.
    public init() {
        entries = []
    }

    /// The built-in adapters, in this order: ``CancellationErrorAdapter``, ``URLErrorAdapter``,
    /// ``DecodingErrorAdapter``, ``POSIXErrorAdapter``, ``HTTPStatusErrorAdapter``,
    /// ``ReauthenticationErrorAdapter``, ``UpstreamRefusalAdapter``.
    public static var standard: ErrorAdapterRegistry<Code> {
        var registry = ErrorAdapterRegistry()
        registry.entries = [
            CancellationErrorAdapter<Code>(), URLErrorAdapter<Code>(), DecodingErrorAdapter<Code>(),
            POSIXErrorAdapter<Code>(), HTTPStatusErrorAdapter<Code>(), ReauthenticationErrorAdapter<Code>(),
            UpstreamRefusalAdapter<Code>(),
        ]
        return registry
    }

    /// The adapters' names, in the order they are asked.
    public var adapterNames: [String] { entries.map { $0.name } }

    /// Adds an adapter after the existing ones (asked last).
    /// - Parameter adapter: The adapter.
    public mutating func append<Adapter: ErrorAdapter>(_ adapter: Adapter) where Adapter.Code == Code {
        entries.append(adapter)
    }

    /// Adds an adapter before the existing ones (asked first, so it overrides a built-in
    /// adapter for the same type).
    /// - Parameter adapter: The adapter.
    public mutating func prepend<Adapter: ErrorAdapter>(_ adapter: Adapter) where Adapter.Code == Code {
        entries.insert(adapter, at: 0)
    }

    /// What `adapter` answers for `error`: `nil` when it does not apply, `.some(x)` when it
    /// answered `x` (`nil` inside: it ignores the error).
    private static func attempt<Adapter: ErrorAdapter>(_ adapter: Adapter, _ error: any Error)
        -> ModuleRespError<Code>?? where Adapter.Code == Code
    {
        guard let foreign = error as? Adapter.Foreign else { return nil }
        return .some(adapter.adapt(foreign))
    }

    /// Converts any error.
    /// - Parameter error: The error caught.
    /// - Returns: Exactly one outcome: adapted (by the identity, by the conversion of another
    ///   module's error, or by an adapter), deliberately ignored, or unknown (kept as a transport
    ///   failure).
    public func handle(_ error: any Error) -> AdaptedError<Code> {
        if let own = error as? ModuleRespError<Code> {
            return .adapted(own, by: "identity")
        }
        if let other = error as? any ModuleRespErrorConverting {
            return .adapted(other.converted(to: Code.self), by: "module conversion")
        }
        for adapter in entries {
            guard let answer = Self.attempt(adapter, error) else { continue }
            if let adapted = answer { return .adapted(adapted, by: adapter.name) }
            return .ignored(error, by: adapter.name)
        }
        return .unknown(.transportFailed(underlying: error))
    }

    /// Converts any error, or `nil` when an adapter ignores it.
    /// - Parameter error: The error caught.
    /// - Returns: ``AdaptedError/error`` of ``handle(_:)``.
    public func adapt(_ error: any Error) -> ModuleRespError<Code>? {
        handle(error).error
    }

    /// Converts any error into exactly one module error, with no "ignored" outcome: an error an
    /// adapter ignores is kept as ``ModuleRespError/transportFailed(underlying:)``.
    ///
    /// For callers that must produce an error (a typed `throws`), unlike a channel, which can
    /// leave an ignored error out.
    /// - Parameter error: The error caught.
    /// - Returns: The module error.
    public func moduleError(for error: any Error) -> ModuleRespError<Code> {
        handle(error).error ?? .transportFailed(underlying: error)
    }
}

extension ModuleRespError {
    /// Converts any error by the one mapping of foreign errors, ``ErrorAdapterRegistry/standard``:
    /// `CancellationError`, `URLError.cancelled`, `URLError.userCancelledAuthentication` and
    /// `POSIXError.ECANCELED` → ``cancelled``; other `URLError`s and `POSIXError`s → a transport
    /// failure keeping them; `DecodingError` → ``decodingFailed(underlying:)``;
    /// ``HTTPStatusError`` → ``unacceptableStatus(_:)-enum.case`` with its `Retry-After`;
    /// ``ReauthenticationError`` → ``reauthenticationFailed(_:)``; ``UpstreamRefusal`` →
    /// ``refused(_:)``; another module's
    /// `ModuleRespError` → ``init(converting:)``; anything else → a transport failure keeping it.
    /// - Parameter error: The error caught.
    public init(adapting error: any Error) {
        self = ErrorAdapterRegistry<Code>.standard.moduleError(for: error)
    }
}
