/// What a raw code means to one module: the typed result of ``ModuleCode/classify(_:)``.
///
/// Every `Int64` gets exactly one outcome, and every outcome keeps the server's number:
/// ``BaseCode/rawValue``, ``ModuleCode/code`` (also for the module's unrecognised case), or the
/// payload of ``unexpected(_:)``.
public enum CodeOutcome<Code: ModuleCode>: Sendable, Hashable {
    /// The catalog's success code.
    case success
    /// A base-tier code, for central handling.
    case base(BaseCode)
    /// One of the module's codes; its unrecognised case (``ModuleCode/unrecognised(_:)``) for a
    /// code in its ranges that it does not list.
    case module(Code)
    /// A code that is neither success, a base code nor this module's: unknown to the catalog or
    /// owned by another module.
    case unexpected(Int64)
    /// The module's catalog could not be assembled or does not contain the module; no code can be
    /// classified through it.
    case invalidCatalog(CatalogError)

    /// Whether this is the success code.
    @inlinable
    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    /// The server's number for server codes, or `nil` for ``success`` and ``invalidCatalog(_:)``.
    @inlinable
    public var rawCode: Int64? {
        switch self {
        case .base(let code): return code.rawValue
        case .module(let code): return code.code
        case .unexpected(let raw): return raw
        case .success, .invalidCatalog: return nil
        }
    }
}
