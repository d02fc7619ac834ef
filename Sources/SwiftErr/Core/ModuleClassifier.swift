import CErrCore

/// A module's hot-path view of its catalog: the C table, the module's id in it, and the catalog
/// itself, in a trivially copyable value, so classifying a code is one `errcore_classify()` call,
/// an integer compare and an enum conversion, with no reference counting and no allocation.
///
/// Creating a classifier pins its catalog for the rest of the process (catalogs are meant to be
/// created once, like com_err's registered tables), which is what lets the classifier hold the
/// table without reference counting. Create one per module, in a `static let`:
/// ```swift
/// static let classifier = ModuleClassifier<HomeworkCode>(catalog: .app)
/// ```
/// Modules that do not declare one use the registry's (``ModuleRegistry``).
@frozen
public struct ModuleClassifier<Code: ModuleCode>: @unchecked Sendable {
    // @unchecked Sendable, justified: `pointer` points into the catalog's immutable table and
    // `unmanagedCatalog` to the Sendable catalog, which `init` retains for the process lifetime;
    // nothing here is ever written after `init`.

    /// The catalog's C table, or `nil` when the catalog failed to assemble.
    @usableFromInline
    let pointer: UnsafePointer<errcore_table>?
    /// `Code`'s module id in the table, or `0` when the table has no module of that name.
    @usableFromInline
    let moduleID: UInt16
    /// The catalog, retained once by `init` and never released.
    @usableFromInline
    let unmanagedCatalog: Unmanaged<ResponseCatalog>

    /// Creates the classifier for `Code` in `catalog`, pinning the catalog.
    /// - Parameter catalog: A catalog that should contain `Code`'s module (by name).
    public init(catalog: ResponseCatalog) {
        self.unmanagedCatalog = Unmanaged.passRetained(catalog)
        self.pointer = catalog.pointer
        self.moduleID = catalog.moduleID(named: Code.moduleName) ?? 0
    }

    /// Wraps a catalog that is already pinned (retained for the process lifetime) without
    /// retaining it again.
    /// - Parameter pinned: The pinned catalog.
    public init(pinned: Unmanaged<ResponseCatalog>) {
        let catalog = pinned.takeUnretainedValue()
        self.unmanagedCatalog = pinned
        self.pointer = catalog.pointer
        self.moduleID = catalog.moduleID(named: Code.moduleName) ?? 0
    }

    /// Wraps `catalog` without retaining it: valid only while the caller keeps `catalog` alive.
    init(borrowing catalog: ResponseCatalog) {
        self.unmanagedCatalog = Unmanaged.passUnretained(catalog)
        self.pointer = catalog.pointer
        self.moduleID = catalog.moduleID(named: Code.moduleName) ?? 0
    }

    /// Wraps a pinned catalog whose module id for `Code` is already known.
    init(pinned: Unmanaged<ResponseCatalog>, moduleID: UInt16) {
        self.unmanagedCatalog = pinned
        self.pointer = pinned.takeUnretainedValue().pointer
        self.moduleID = moduleID
    }

    /// The catalog codes are classified through.
    public var catalog: ResponseCatalog {
        unmanagedCatalog.takeUnretainedValue()
    }

    /// `Code`'s module id in the catalog, or `nil` when the catalog does not contain it.
    public var module: UInt16? {
        moduleID == 0 ? nil : moduleID
    }

    /// Why nothing can be classified for `Code`: the catalog's assembly error, or the module missing
    /// from the catalog; `nil` when classification works.
    public var failure: CatalogError? {
        if let failure = catalog.failure {
            return failure
        }
        guard moduleID == 0 else { return nil }
        return CatalogError(
            status: .undeclaredModule,
            message: "module '\(Code.moduleName)' is not part of catalog '\(catalog.table?.name ?? "?")'; classify it through a catalog that includes it")
    }

    /// Classifies a raw code for `Code`'s module.
    ///
    /// Every code gets exactly one outcome: success, a base code, one of the module's codes
    /// (``ModuleCode/unrecognised`` for an unlisted code in its range, or for a code the table
    /// lists but the enum does not), unexpected (unknown, or another module's), or
    /// ``CodeOutcome/invalidCatalog`` when ``failure`` is not `nil`.
    /// - Parameter code: The code the server sent.
    /// - Returns: The raw code, its C classification and the typed outcome.
    @inlinable
    public func classify(_ code: Int64) -> ClassifiedCode<Code> {
        guard let pointer, moduleID != 0 else {
            return ClassifiedCode(code: code, classification: Classification(rawValue: UInt64(ERRCORE_NO_ENTRY)), outcome: .invalidCatalog)
        }
        let classification = Classification(rawValue: errcore_classify(pointer, code))
        let outcome: CodeOutcome<Code>
        switch classification.tier {
        case .success:
            outcome = .success
        case .base:
            outcome = .base(BaseCode(rawValue: code))
        case .module where classification.moduleID == moduleID:
            if classification.isExact, let raw = Int(exactly: code), let value = Code(rawValue: raw) {
                outcome = .module(value)
            } else {
                outcome = .module(Code.unrecognised)
            }
        case .module, .unknown:
            outcome = .unexpected(code)
        }
        return ClassifiedCode(code: code, classification: classification, outcome: outcome)
    }
}
