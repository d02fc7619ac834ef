// The process-wide catalog: an app's catalog as the starting point, and the modules defined in
// Swift registered on top of it.

/// A catalog that grows by the modules registered on it: a starting point (the installed catalog,
/// or ``CatalogDefinition/empty`` when none is installed) plus each module defined in Swift, added
/// on its first use, once, safely from any thread.
///
/// ``process`` is SwiftErr's process-wide catalog, reached through `Catalog.install(_:)`,
/// `Catalog.current`, `Catalog.register(_:)`, `ModuleClassifier.registered` and the default
/// `ModuleCode.classifier`; tests make registries of their own.
///
/// The starting point is fixed at the registry's first use: the first install, or the first time
/// it hands out a catalog or a classifier. Installing the catalog in use again changes nothing;
/// installing another one is a `CatalogError` with status ``CatalogError/Status/catalogInUse``,
/// because the classifiers handed out before keep the catalog they were made with: switching
/// would classify one code two ways in one process. A module that collides with the catalog (the
/// same code, an overlapping range, a base code in its range, its name with other contents) gets
/// a `CatalogError`, which it keeps: every code classified for it then has the outcome
/// `CodeOutcome.invalidCatalog(_:)`. Catalogs handed out earlier stay valid: catalogs are
/// immutable.
final class CatalogRegistry: Sendable {
    /// SwiftErr's process-wide catalog.
    static let process = CatalogRegistry()

    private struct State: Sendable {
        /// The installed catalog, in its `canonical` form, or `nil` while the
        /// starting point is the empty catalog.
        var installed: CatalogDefinition?
        /// The starting point and every module registered so far.
        var definition: CatalogDefinition
        /// The catalog built from `definition`.
        var current: Catalog
        /// Whether the starting point is fixed.
        var inUse = false
        /// Keyed by the module type, not its name: two types may claim one name, and the second
        /// must get its own answer (an error when the contents differ).
        var catalogs: [ObjectIdentifier: Result<Catalog, CatalogError>] = [:]
        /// One classifier per module type (a `ModuleClassifier<Code>`, stored type-erased).
        var classifiers: [ObjectIdentifier: any Sendable] = [:]
    }

    private let state: Locked<State>

    /// A registry that starts from the empty catalog until a catalog is installed.
    init() {
        let empty: Catalog
        do {
            empty = try Catalog(CatalogDefinition.empty)
        } catch {
            // CatalogDefinition.empty is one success entry, which errcore_build() always accepts
            // (CatalogRegistryTests builds it); this cannot be reached.
            preconditionFailure("the empty catalog does not build: \(error)")
        }
        state = Locked(State(definition: CatalogDefinition.empty, current: empty))
    }

    /// Makes `definition` the starting point, or checks that it is the one in use.
    /// - Parameter definition: The catalog to install.
    /// - Returns: The registry's catalog.
    /// - Throws: `CatalogError` when `definition` does not build, or, with status
    ///   ``CatalogError/Status/catalogInUse``, when another starting point is in use.
    @discardableResult
    func install(_ definition: CatalogDefinition) throws(CatalogError) -> Catalog {
        try install(definition, built: nil)
    }

    /// Makes `catalog` (itself, not a copy) the starting point, or checks that it is the one in use.
    /// - Parameter catalog: The catalog to install.
    /// - Returns: The registry's catalog.
    /// - Throws: `CatalogError` with status ``CatalogError/Status/catalogInUse`` when another
    ///   starting point is in use.
    @discardableResult
    func install(_ catalog: Catalog) throws(CatalogError) -> Catalog {
        try install(catalog.definition, built: catalog)
    }

    private func install(_ definition: CatalogDefinition, built: Catalog?) throws(CatalogError) -> Catalog {
        let wanted = definition.canonical
        return try state.withLock { state throws(CatalogError) -> Catalog in
            if state.inUse {
                if state.installed == wanted { return state.current }
                throw CatalogError(
                    status: .catalogInUse,
                    message: """
                        cannot install catalog '\(definition.name)': the process-wide catalog is already in use, \
                        started from \(state.installed.map { "catalog '\($0.name)'" } ?? "the empty catalog (none was installed before its first use)"); \
                        install the app's catalog once, at start-up, before the first classification
                        """)
            }
            let catalog: Catalog
            if let built {
                catalog = built
            } else {
                catalog = try Catalog(definition)
            }
            state.installed = wanted
            state.definition = definition
            state.current = catalog
            state.inUse = true
            return catalog
        }
    }

    /// The catalog now: the starting point and the modules registered so far. Fixes the starting
    /// point.
    var current: Catalog {
        state.withLock { state in
            state.inUse = true
            return state.current
        }
    }

    /// The catalog `module` is classified through, adding the module on its first use.
    func catalog<Code: ModuleCode>(for module: Code.Type) -> Result<Catalog, CatalogError> {
        let key = ObjectIdentifier(module)
        if let known = state.withLock({ $0.catalogs[key] }) {
            return known
        }
        // Compute the module's definition outside the lock: it calls the module's own code.
        let definition = Code.definition
        return state.withLock { state in
            state.inUse = true
            if let known = state.catalogs[key] {
                return known
            }
            let catalog = Self.add(definition, to: &state)
            state.catalogs[key] = catalog
            return catalog
        }
    }

    /// The classifier for `module` in its registry catalog, created once per module.
    func classifier<Code: ModuleCode>(for module: Code.Type) -> ModuleClassifier<Code> {
        let key = ObjectIdentifier(module)
        if let known = state.withLock({ $0.classifiers[key] }) as? ModuleClassifier<Code> {
            return known
        }
        let catalog = catalog(for: module)
        return state.withLock { state in
            if let known = state.classifiers[key] as? ModuleClassifier<Code> {
                return known
            }
            let made: ModuleClassifier<Code>
            switch catalog {
            case .success(let catalog): made = ModuleClassifier(catalog: catalog)
            case .failure(let failure): made = ModuleClassifier(failure: failure)
            }
            state.classifiers[key] = made
            return made
        }
    }

    /// Adds a module definition to the accumulated catalog under the lock.
    private static func add(_ module: ModuleDefinition, to state: inout State) -> Result<Catalog, CatalogError> {
        if let id = state.definition.moduleID(named: module.name) {
            let existing = state.definition.modules[Int(id) - 1]
            guard existing.canonical == module.canonical else {
                return .failure(
                    CatalogError(
                        status: .duplicateModuleName, index: Int(id) - 1, code: Int64(id),
                        message:
                            "duplicate module name: module '\(module.name)' is already in catalog '\(state.definition.name)' (module \(id)) with other ranges, codes, flags or messages"
                    ))
            }
            return .success(state.current)
        }
        let candidate = state.definition.adding(module)
        do {
            let catalog = try Catalog(candidate)
            state.definition = candidate
            state.current = catalog
            return .success(catalog)
        } catch {
            return .failure(error)
        }
    }
}
