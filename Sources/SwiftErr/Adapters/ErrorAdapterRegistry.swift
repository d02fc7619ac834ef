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
/// ```swift
/// var adapters = ErrorAdapterRegistry<StudyGroupCode>.standard
/// adapters.prepend(MoyaErrorAdapter())
/// if let error = adapters.adapt(caught) { show(error) }
/// ```
public struct ErrorAdapterRegistry<Code: ModuleCode>: Sendable {
    private struct Entry: Sendable {
        /// The adapter's name, made only when asked: an adapter's default name formats its type's
        /// name, and ``ResponseClient`` builds the standard registry for every request.
        let name: @Sendable () -> String
        /// `nil`: the adapter does not apply; `.some(x)`: it answered `x`.
        let attempt: @Sendable (any Error) -> ModuleRespError<Code>??
    }

    private var entries: [Entry] = []

    /// A registry with no adapters: only `ModuleRespError<Code>` passes through, everything else
    /// is ``AdaptedError/unknown(_:)``.
    public init() {}

    /// The built-in adapters, in this order: ``CancellationErrorAdapter``, ``URLErrorAdapter``,
    /// ``DecodingErrorAdapter``, ``POSIXErrorAdapter``, ``HTTPStatusErrorAdapter``,
    /// ``ReauthenticationErrorAdapter``, ``UpstreamRefusalAdapter``.
    public static var standard: ErrorAdapterRegistry<Code> {
        var registry = ErrorAdapterRegistry()
        registry.append(CancellationErrorAdapter<Code>())
        registry.append(URLErrorAdapter<Code>())
        registry.append(DecodingErrorAdapter<Code>())
        registry.append(POSIXErrorAdapter<Code>())
        registry.append(HTTPStatusErrorAdapter<Code>())
        registry.append(ReauthenticationErrorAdapter<Code>())
        registry.append(UpstreamRefusalAdapter<Code>())
        return registry
    }

    /// The adapters' names, in the order they are asked.
    public var adapterNames: [String] { entries.map { $0.name() } }

    /// Adds an adapter after the existing ones (asked last).
    /// - Parameter adapter: The adapter.
    public mutating func append<Adapter: ErrorAdapter>(_ adapter: Adapter) where Adapter.Code == Code {
        entries.append(Self.entry(for: adapter))
    }

    /// Adds an adapter before the existing ones (asked first, so it overrides a built-in
    /// adapter for the same type).
    /// - Parameter adapter: The adapter.
    public mutating func prepend<Adapter: ErrorAdapter>(_ adapter: Adapter) where Adapter.Code == Code {
        entries.insert(Self.entry(for: adapter), at: 0)
    }

    private static func entry<Adapter: ErrorAdapter>(for adapter: Adapter) -> Entry where Adapter.Code == Code {
        Entry(
            name: { adapter.name },
            attempt: { error in
                guard let foreign = error as? Adapter.Foreign else { return nil }
                return .some(adapter.adapt(foreign))
            })
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
        for entry in entries {
            guard let answer = entry.attempt(error) else { continue }
            if let adapted = answer { return .adapted(adapted, by: entry.name()) }
            return .ignored(error, by: entry.name())
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
