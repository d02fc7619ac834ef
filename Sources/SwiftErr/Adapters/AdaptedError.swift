/// What an ``ErrorAdapterRegistry`` made of one error: exactly one of three outcomes, so no
/// error is lost.
public enum AdaptedError<Code: ModuleCode>: Sendable {
    /// An adapter (or the identity, for an error that already is a `ModuleRespError<Code>`)
    /// converted the error.
    case adapted(ModuleRespError<Code>, by: String)
    /// The first adapter for the error's type returned `nil`: the error is deliberately ignored.
    case ignored(any Error, by: String)
    /// No adapter knows the error's type; it is kept as ``ModuleRespError/transportFailed(underlying:)``.
    case unknown(ModuleRespError<Code>)

    /// The module error, or `nil` when the error was ignored.
    public var error: ModuleRespError<Code>? {
        switch self {
        case .adapted(let error, _), .unknown(let error): return error
        case .ignored: return nil
        }
    }

    /// The name of the adapter that answered; `nil` for ``unknown(_:)``.
    public var adapterName: String? {
        switch self {
        case .adapted(_, let name), .ignored(_, let name): return name
        case .unknown: return nil
        }
    }
}
