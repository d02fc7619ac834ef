
/// The process-wide registry that assembles Swift-defined modules into one growing C catalog,
/// lazily, once per module, safely from any thread.
///
/// The registry starts from ``CatalogDefinition/standard`` (the base tier and the seven
/// built-in modules). The first time a module is used (``catalog(for:)``), the registry builds a
/// new table from everything registered so far plus that module, under a lock. Collisions with
/// the base tier or with any module already registered are reported as a ``CatalogError``, which
/// the module keeps (every code classified for it then has the outcome
/// ``CodeOutcome/invalidCatalog``); ``register(_:)`` throws the same error for a check at
/// start-up. Catalogs handed out earlier stay valid: tables are immutable.
///
/// Each lookup takes the lock once. For the cheapest hot path, cache the catalog in the module:
/// `static let catalog = ModuleRegistry.catalog(for: HomeworkCode.self)`.
public enum ModuleRegistry {
    private struct State: Sendable {
        var definition = CatalogDefinition.standard
        var current: ResponseCatalog? = nil
        /// Keyed by the module type, not its name: two types may claim one name, and the second
        /// must get its own answer (an error when the contents differ).
        var catalogs: [ObjectIdentifier: ResponseCatalog] = [:]
        /// One pinned classifier per module type, stored as the module's catalog plus its id
        /// (classifiers are generic, so they are rebuilt from these without pinning again).
        var classifiers: [ObjectIdentifier: AnyClassifier] = [:]
    }

    /// A type-erased pinned classifier: the generic one is recreated around it.
    private struct AnyClassifier: @unchecked Sendable {
        // @unchecked Sendable, justified: holds only the pinned, immutable catalog's address.
        let catalog: Unmanaged<ResponseCatalog>
        let moduleID: UInt16
    }

    private static let state = Locked(State())

    /// The catalog `module` is classified through, assembling it on first use.
    /// - Parameter module: A module enum type.
    /// - Returns: A catalog containing the module, or one holding the ``CatalogError`` that
    ///   explains why it could not be added.
    public static func catalog<Code: ModuleCode>(for module: Code.Type) -> ResponseCatalog {
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

    /// The classifier for `module` in its registry catalog, assembling the catalog on first use.
    ///
    /// The catalog is pinned once per module. Cache the result for the cheapest hot path:
    /// `static let classifier = ModuleRegistry.classifier(for: HomeworkCode.self)`.
    /// - Parameter module: A module enum type.
    /// - Returns: The module's classifier.
    public static func classifier<Code: ModuleCode>(for module: Code.Type) -> ModuleClassifier<Code> {
        let key = ObjectIdentifier(module)
        if let known = state.withLock({ $0.classifiers[key] }) {
            return ModuleClassifier(pinned: known.catalog, moduleID: known.moduleID)
        }
        let catalog = catalog(for: module)
        let pinned = state.withLock { state in
            if let known = state.classifiers[key] {
                return known
            }
            let made = AnyClassifier(catalog: Unmanaged.passRetained(catalog), moduleID: catalog.moduleID(named: Code.moduleName) ?? 0)
            state.classifiers[key] = made
            return made
        }
        return ModuleClassifier(pinned: pinned.catalog, moduleID: pinned.moduleID)
    }

    /// Registers `module` now and reports whether it fits the catalog.
    /// - Parameter module: A module enum type.
    /// - Returns: The catalog the module is classified through.
    /// - Throws: ``CatalogError`` when the module collides with the base tier or a registered
    ///   module (the same code, an overlapping range, the same name with other contents).
    @discardableResult
    public static func register<Code: ModuleCode>(_ module: Code.Type) throws(CatalogError) -> ResponseCatalog {
        let catalog = catalog(for: module)
        if let failure = catalog.failure {
            throw failure
        }
        return catalog
    }

    /// Adds a module definition to the accumulated catalog under the lock.
    private static func add(_ module: ModuleDefinition, to state: inout State) -> ResponseCatalog {
        if let id = state.definition.moduleID(named: module.name) {
            let existing = state.definition.modules[Int(id) - 1]
            guard existing == module else {
                return ResponseCatalog(failure: CatalogError(
                    status: .duplicateModuleName, index: Int(id) - 1, code: Int64(id),
                    message: "duplicate module name: module '\(module.name)' is already registered (module \(id)) with other ranges, codes, flags or messages"))
            }
            if state.current == nil {
                state.current = ResponseCatalog(state.definition)
            }
            return state.current!
        }
        let candidate = state.definition.adding(module)
        let catalog = ResponseCatalog(candidate)
        if catalog.failure == nil {
            state.definition = candidate
            state.current = catalog
        }
        return catalog
    }
}

extension ModuleCode {
    /// The registry's classifier for this module (``ModuleRegistry/classifier(for:)``): the
    /// default for modules that do not declare one. Each use takes the registry's lock once.
    public static var classifier: ModuleClassifier<Self> {
        ModuleRegistry.classifier(for: Self.self)
    }
}
