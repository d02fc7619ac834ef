/// The process-wide registry that assembles Swift-defined modules into one growing C catalog,
/// lazily, once per module, safely from any thread.
///
/// The registry starts from the built-in catalog (`CatalogDefinition.builtIn`). The first time
/// a module is used, the registry builds a new catalog from everything registered so far plus
/// that module, under a lock. A collision with the base tier or with a module already registered
/// is a `CatalogError`, which the module keeps: every code classified for it then has the
/// outcome `CodeOutcome.invalidCatalog(_:)`. Catalogs handed out earlier stay valid: catalogs
/// are immutable.
enum ModuleRegistry {
    private struct State: Sendable {
        var definition = CatalogDefinition.builtIn
        /// The catalog built from `definition`.
        var current = Catalog.builtIn
        /// Keyed by the module type, not its name: two types may claim one name, and the second
        /// must get its own answer (an error when the contents differ).
        var catalogs: [ObjectIdentifier: Result<Catalog, CatalogError>] = [:]
        /// One classifier per module type (a `ModuleClassifier<Code>`, stored type-erased).
        var classifiers: [ObjectIdentifier: any Sendable] = [:]
    }

    private static let state = Locked(State())

    /// The catalog `module` is classified through, assembling it on first use.
    static func catalog<Code: ModuleCode>(for module: Code.Type) -> Result<Catalog, CatalogError> {
        let key = ObjectIdentifier(module)
        if let known = state.withLock({ $0.catalogs[key] }) {
            return known
        }
        // Compute the module's definition outside the lock: it calls the module's own code.
        let definition = Code.definition
        return state.withLock { state in
            if let known = state.catalogs[key] {
                return known
            }
            let catalog = add(definition, to: &state)
            state.catalogs[key] = catalog
            return catalog
        }
    }

    /// The classifier for `module` in its registry catalog, created once per module.
    static func classifier<Code: ModuleCode>(for module: Code.Type) -> ModuleClassifier<Code> {
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
            guard existing == module else {
                return .failure(
                    CatalogError(
                        status: .duplicateModuleName, index: Int(id) - 1, code: Int64(id),
                        message:
                            "duplicate module name: module '\(module.name)' is already registered (module \(id)) with other ranges, codes, flags or messages"
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

extension Catalog {
    /// Adds `module` to the process-wide catalog now, and reports whether it fits.
    ///
    /// Modules that do not declare their own `classifier` are registered on first use anyway;
    /// call this at start-up to find a collision early.
    /// - Parameter module: A module enum type.
    /// - Returns: The catalog the module is classified through.
    /// - Throws: `CatalogError` when the module collides with the base tier or a registered
    ///   module (the same code, an overlapping range, the same name with other contents).
    @discardableResult
    public static func register<Code: ModuleCode>(_ module: Code.Type) throws(CatalogError) -> Catalog {
        try ModuleRegistry.catalog(for: module).get()
    }
}

extension ModuleClassifier {
    /// The classifier of `Code` in the process-wide registry's catalog (the registry adds the
    /// module on first use, see `Catalog.register(_:)`). Cache it for the cheapest hot path:
    /// `static let classifier = ModuleClassifier<Self>.registered`.
    public static var registered: ModuleClassifier<Code> {
        ModuleRegistry.classifier(for: Code.self)
    }
}
