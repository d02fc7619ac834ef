// The public face of the process-wide catalog: install the app's catalog, read the catalog in
// use, register a module defined in Swift on top of it.

extension Catalog {
    /// Installs `definition` as the process-wide catalog: the catalog that modules without a
    /// classifier of their own are classified through, and that modules defined in Swift are
    /// registered on top of. Call it once at start-up, before the first classification.
    ///
    /// The modules that the SwiftErrCatalogPlugin (or `errcat gen swift --installing`) generates
    /// install their catalog on their first use, so an app that uses only those needs no call;
    /// calling `ShopCatalog.install()` at start-up makes the order not matter.
    ///
    /// The process-wide catalog's starting point is fixed at its first use: this call, or the first
    /// time SwiftErr hands out a catalog or a classifier from it (``current``, ``register(_:)``,
    /// `ModuleClassifier.registered`, the first classification of a module that uses the default
    /// `ModuleCode.classifier`). When nothing was installed before that, the starting point is
    /// `CatalogDefinition.empty`: success `0`, no base tier, no
    /// modules.
    ///
    /// Installing the catalog in use again (the same definition, its codes in any order) changes
    /// nothing and returns the catalog in use. Installing another catalog after the first use throws,
    /// and changes nothing: classifiers handed out earlier keep their catalog, so switching would
    /// classify one code two ways in one process.
    /// - Parameter definition: The app's catalog, e.g. `ShopCatalog.definition`.
    /// - Returns: The process-wide catalog.
    /// - Throws: `CatalogError` when `definition` does not build (its problems, as
    ///   `Catalog.init(_:)` reports them), or with status
    ///   `CatalogError.Status.catalogInUse` when the process-wide catalog is already in
    ///   use with another starting point.
    @discardableResult
    public static func install(_ definition: CatalogDefinition) throws(CatalogError) -> Catalog {
        try CatalogRegistry.process.install(definition)
    }

    /// Installs a catalog that is already built as the process-wide catalog (for example a static
    /// table, `Catalog.builtIn` of the `SwiftErrDefaultCatalog` product), as
    /// ``install(_:)-(CatalogDefinition)`` does; the catalog itself becomes ``current``.
    /// - Parameter catalog: The app's catalog.
    /// - Returns: The process-wide catalog.
    /// - Throws: `CatalogError` with status `CatalogError.Status.catalogInUse` when
    ///   the process-wide catalog is already in use with another starting point.
    @discardableResult
    public static func install(_ catalog: Catalog) throws(CatalogError) -> Catalog {
        try CatalogRegistry.process.install(catalog)
    }

    /// The process-wide catalog now: the installed catalog (or
    /// `CatalogDefinition.empty`) and every module defined in Swift that has been
    /// registered so far. Reading it fixes the starting point (see
    /// ``install(_:)-(CatalogDefinition)``).
    public static var current: Catalog {
        CatalogRegistry.process.current
    }

    /// Adds `module` to the process-wide catalog now, and reports whether it fits.
    ///
    /// Modules that do not declare their own `classifier` are registered on first use anyway;
    /// call this at start-up, after installing the app's catalog, to find a collision early.
    /// - Parameter module: A module enum type.
    /// - Returns: The catalog the module is classified through.
    /// - Throws: `CatalogError` when the module collides with the catalog: the same code as an
    ///   entry, an overlapping range, a base code inside its ranges, the name of a module already
    ///   there with other contents.
    @discardableResult
    public static func register<Code: ModuleCode>(_ module: Code.Type) throws(CatalogError) -> Catalog {
        try CatalogRegistry.process.catalog(for: module).get()
    }
}

extension ModuleClassifier {
    /// The classifier of `Code` in the process-wide catalog (the module is added on first use, see
    /// `Catalog.register(_:)`). Cache it for the cheapest hot path:
    /// `static let classifier = ModuleClassifier<Self>.registered`.
    public static var registered: ModuleClassifier<Code> {
        CatalogRegistry.process.classifier(for: Code.self)
    }

    /// Installs `definition` as the process-wide catalog
    /// (``SwiftErrCore/Catalog/install(_:)-(CatalogDefinition)``) and creates the classifier of `Code`
    /// in it: the classifier of every module the SwiftErrCatalogPlugin generates,
    /// `static let classifier = ModuleClassifier<Self>(installing: ShopCatalog.definition)`.
    ///
    /// When the catalog cannot be installed (another one is in use) or `Code` does not fit it, every
    /// code is classified as `CodeOutcome.invalidCatalog(_:)` with the `CatalogError`
    /// (`failure`).
    /// - Parameter definition: The catalog `Code` belongs to.
    public init(installing definition: CatalogDefinition) {
        do {
            try Catalog.install(definition)
            self = ModuleClassifier.registered
        } catch {
            self.init(failure: error)
        }
    }
}
