import CErrCore

/// A module's hot-path view of its catalog, in a trivially copyable value: classifying a code is
/// one `errcore_classify()` call, an integer compare and one table load, with no reference
/// counting and no allocation.
///
/// Creating a classifier pins its catalog for the rest of the process and builds, once, the
/// table that maps the catalog's entries to the module's cases (catalogs are meant to be created
/// once, like com_err's registered tables). Create one per module, in a `static let`:
/// <!-- listing: context=homework-member -->
/// ```swift
/// static let classifier = ModuleClassifier<HomeworkCode>(catalog: .app)
/// ```
/// Modules that do not declare one use SwiftErr's process-wide registry.
@frozen
public struct ModuleClassifier<Code: ModuleCode>: @unchecked Sendable {
    // @unchecked Sendable, justified: every stored property is a `let`. `pointer` points into the
    // catalog's immutable table and `casesByEntry` into an array written only in `init`, before
    // the value exists; both are kept alive for the process lifetime by `state`, which `init`
    // retains and never releases. Nothing behind them is ever written after `init`.

    /// The catalog's C table, or `nil` when there is no usable catalog.
    @usableFromInline
    let pointer: UnsafePointer<errcore_table>?
    /// `Code`'s module id in the table, or `0` when the table has no module of that name.
    @usableFromInline
    let moduleID: UInt16
    /// The entry index that `casesByEntry[0]` stands for.
    @usableFromInline
    let firstEntry: UInt32
    /// How many entries `casesByEntry` covers.
    @usableFromInline
    let entrySpan: UInt32
    /// For entry `firstEntry + i`, the listed case with that entry's code (`nil`: not one of ours).
    @usableFromInline
    let casesByEntry: UnsafePointer<Code?>?
    /// The catalog, the failure and the case table, retained once by `init` and never released.
    @usableFromInline
    let state: Unmanaged<ModuleClassifierState>

    /// Creates the classifier for `Code` in `catalog`, pinning the catalog.
    /// - Parameter catalog: A catalog that should contain `Code`'s module (by name).
    public init(catalog: Catalog) {
        let table = catalog.pointer
        let id = catalog.moduleID(named: Code.moduleName) ?? 0
        // The table entry of a listed case, when the catalog lists its code in this module.
        func entry(of value: Code) -> UInt32? {
            let classification = Classification(rawValue: errcore_classify(table, value.code))
            return classification.moduleID == id ? classification.entryIndex : nil
        }
        // Two passes over the listed cases (the first finds the span of their entries, the second
        // fills the table), so that nothing but the case table is allocated.
        var first: UInt32 = 0
        var last: UInt32 = 0
        var found = false
        if id != 0 {
            for value in Code.listedCases {
                guard let entry = entry(of: value) else { continue }
                first = found ? min(first, entry) : entry
                last = found ? max(last, entry) : entry
                found = true
            }
        }
        let span = found ? last - first + 1 : 0
        let cases = UnsafeMutablePointer<Code?>.allocate(capacity: max(1, Int(span)))
        cases.initialize(repeating: nil, count: max(1, Int(span)))
        if span != 0 {
            for value in Code.listedCases {
                if let entry = entry(of: value) {
                    cases[Int(entry - first)] = value
                }
            }
        }
        self.pointer = table
        self.moduleID = id
        self.firstEntry = first
        self.entrySpan = span
        self.casesByEntry = UnsafePointer(cases)
        self.state = .passRetained(
            ModuleClassifierState(catalog: catalog, failure: nil, cases: UnsafeMutableRawPointer(cases)))
    }

    /// Builds a catalog from `definition` and creates the classifier for `Code` in it; when the
    /// definition is rejected, every code is classified as ``CodeOutcome/invalidCatalog(_:)`` with
    /// the ``CatalogError`` (``failure``). For a `static let` that must not throw:
    /// <!-- listing: context=homework-member -->
    /// ```swift
    /// static let classifier = ModuleClassifier<Self>(building: ShopCatalog.definition.adding(Self.definition))
    /// ```
    /// - Parameter definition: The catalog to build; it should contain `Code`'s module.
    public init(building definition: CatalogDefinition) {
        do {
            self.init(catalog: try Catalog(definition))
        } catch {
            self.init(failure: error)
        }
    }

    /// Creates a classifier with no catalog: every code is classified as
    /// ``CodeOutcome/invalidCatalog(_:)`` with `failure`.
    /// - Parameter failure: Why there is no catalog for `Code`.
    public init(failure: CatalogError) {
        self.pointer = nil
        self.moduleID = 0
        self.firstEntry = 0
        self.entrySpan = 0
        self.casesByEntry = nil
        self.state = .passRetained(ModuleClassifierState(catalog: nil, failure: failure, cases: nil))
    }

    /// The catalog codes are classified through, or `nil` when there is none.
    public var catalog: Catalog? {
        state.takeUnretainedValue().catalog
    }

    /// `Code`'s module id in the catalog, or `nil` when the catalog does not contain it.
    public var module: UInt16? {
        moduleID == 0 ? nil : moduleID
    }

    /// Why nothing can be classified for `Code`: the catalog's assembly error, or the module missing
    /// from the catalog; `nil` when classification works.
    public var failure: CatalogError? {
        let state = state.takeUnretainedValue()
        if let failure = state.failure {
            return failure
        }
        guard moduleID == 0 else { return nil }
        return CatalogError(module: Code.moduleName, missingFrom: state.catalog?.name ?? "?")
    }

    /// Classifies a raw code for `Code`'s module.
    ///
    /// Every code gets exactly one outcome: success, a base code, one of the module's codes (the
    /// unrecognised case for an unlisted code in its ranges, or for a code the catalog lists but
    /// the enum does not), unexpected (unknown, or another module's), or
    /// ``CodeOutcome/invalidCatalog(_:)`` when ``failure`` is not `nil`.
    /// - Parameter code: The code the server sent.
    /// - Returns: The typed outcome.
    @inlinable
    public func classify(_ code: Int64) -> CodeOutcome<Code> {
        guard let pointer, moduleID != 0 else { return invalidCatalog() }
        return outcome(of: Classification(rawValue: errcore_classify(pointer, code)), code: code)
    }

    /// The catalog's untyped classification of a raw code (tier, module id, entry, flags).
    /// - Parameter code: The code the server sent.
    /// - Returns: The classification; ``Classification/unknown`` when there is no catalog.
    @inlinable
    public func classification(of code: Int64) -> Classification {
        guard let pointer else { return .unknown }
        return Classification(rawValue: errcore_classify(pointer, code))
    }

    /// The typed outcome of a classification made through this classifier's catalog, for
    /// example one of a batch from ``Catalog/classify(_:into:)``.
    /// - Parameters:
    ///   - classification: The catalog's classification of `code`.
    ///   - code: The code that was classified.
    /// - Returns: The typed outcome.
    @inlinable
    public func outcome(of classification: Classification, code: Int64) -> CodeOutcome<Code> {
        guard moduleID != 0 else { return invalidCatalog() }
        switch classification.tier {
        case .success:
            return .success
        case .base:
            return .base(BaseCode(rawValue: code))
        case .module where classification.moduleID == moduleID:
            if let entry = classification.entryIndex, let cases = casesByEntry {
                let slot = entry &- firstEntry
                if slot < entrySpan, let value = cases[Int(slot)] {
                    return .module(value)
                }
            }
            return .module(Code.unrecognised(code))
        case .module, .unknown:
            return .unexpected(code)
        }
    }

    /// The outcome when no code can be classified (kept out of line: the cold path).
    @usableFromInline
    func invalidCatalog() -> CodeOutcome<Code> {
        .invalidCatalog(failure ?? CatalogError(moduleWithoutCatalog: Code.moduleName))
    }
}

/// What a ``ModuleClassifier`` keeps alive: its catalog or the reason it has none, and the
/// case table (freed with the state; a classifier's state is never released).
@usableFromInline
final class ModuleClassifierState: @unchecked Sendable {
    // @unchecked Sendable, justified: all stored properties are `let`s; `cases` is written only
    // before this object is created and freed only in `deinit`, when no classifier refers to it.
    let catalog: Catalog?
    let failure: CatalogError?
    private let cases: UnsafeMutableRawPointer?

    init(catalog: Catalog?, failure: CatalogError?, cases: UnsafeMutableRawPointer?) {
        self.catalog = catalog
        self.failure = failure
        self.cases = cases
    }

    deinit {
        cases?.deallocate()
    }
}
