/// An ordered list of ``ErrorAdapter``s with one entry point, ``handle(_:)``.
///
/// For each error, the registry first passes a `ModuleRespError<Code>` through unchanged, then
/// asks the adapters in order; the first adapter whose ``ErrorAdapter/Foreign`` type matches
/// answers (its `nil` means "ignore"). An error no adapter knows becomes
/// ``ModuleRespError/transportFailed(underlying:)`` with the error kept. Adding an error type is
/// one ``append(_:)`` call, not another branch.
///
/// ```swift
/// var adapters = ErrorAdapterRegistry<StudyGroupCode>.standard
/// adapters.prepend(MoyaErrorAdapter())
/// if let error = adapters.adapt(caught) { show(error) }
/// ```
public struct ErrorAdapterRegistry<Code: ModuleCode>: Sendable {
    private struct Entry: Sendable {
        let name: String
        /// `nil`: the adapter does not apply; `.some(x)`: it answered `x`.
        let attempt: @Sendable (any Error) -> ModuleRespError<Code>??
    }

    private var entries: [Entry] = []

    /// A registry with no adapters: only `ModuleRespError<Code>` passes through, everything else
    /// is ``AdaptedError/unknown(_:)``.
    public init() {}

    /// The built-in adapters, in this order: ``CancellationErrorAdapter``, ``URLErrorAdapter``,
    /// ``DecodingErrorAdapter``, ``POSIXErrorAdapter``, ``HTTPStatusErrorAdapter``.
    public static var standard: ErrorAdapterRegistry<Code> {
        var registry = ErrorAdapterRegistry()
        registry.append(CancellationErrorAdapter<Code>())
        registry.append(URLErrorAdapter<Code>())
        registry.append(DecodingErrorAdapter<Code>())
        registry.append(POSIXErrorAdapter<Code>())
        registry.append(HTTPStatusErrorAdapter<Code>())
        return registry
    }

    /// The adapters' names, in the order they are asked.
    public var adapterNames: [String] { entries.map(\.name) }

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
        Entry(name: adapter.name) { error in
            guard let foreign = error as? Adapter.Foreign else { return nil }
            return .some(adapter.adapt(foreign))
        }
    }

    /// Converts any error.
    /// - Parameter error: The error caught.
    /// - Returns: Exactly one outcome: adapted, deliberately ignored, or unknown (kept as a
    ///   transport failure).
    public func handle(_ error: any Error) -> AdaptedError<Code> {
        if let own = error as? ModuleRespError<Code> {
            return .adapted(own, by: "identity")
        }
        for entry in entries {
            guard let answer = entry.attempt(error) else { continue }
            if let adapted = answer { return .adapted(adapted, by: entry.name) }
            return .ignored(error, by: entry.name)
        }
        return .unknown(.transportFailed(underlying: error))
    }

    /// Converts any error, or `nil` when an adapter ignores it.
    /// - Parameter error: The error caught.
    /// - Returns: ``AdaptedError/error`` of ``handle(_:)``.
    public func adapt(_ error: any Error) -> ModuleRespError<Code>? {
        handle(error).error
    }
}
