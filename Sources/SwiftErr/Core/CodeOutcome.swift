/// What a raw code means to one module: the typed result of ``ModuleCode/classify(_:)``.
public enum CodeOutcome<Code: ModuleCode>: Sendable, Hashable {
    /// The catalog's success code.
    case success
    /// A base-tier code, for central handling.
    case base(BaseCode)
    /// One of the module's codes, or its ``ModuleCode/unrecognised`` case for an unlisted code
    /// in its range.
    case module(Code)
    /// A code that is neither success, a base code nor this module's: unknown to the catalog or
    /// owned by another module (the seeds' lost case).
    case unexpected(Int64)
    /// The module's catalog could not be assembled or does not contain the module; no code can be
    /// classified through it. ``ModuleClassifier/failure`` has the ``CatalogError``.
    case invalidCatalog
}
