import SwiftErrDefaultCatalog

@testable import SwiftErr

/// A catalog registry of the tests' own, started from the built-in catalog: what the process-wide
/// catalog is in an app that installs `Catalog.builtIn` at start-up. A test module that needs the
/// built-in base tier and modules around it declares
/// `static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }`,
/// which takes the same path as SwiftErr's default `ModuleCode.classifier`, on this registry.
///
/// Nothing installs a catalog in the test process's own process-wide catalog: it stays the empty
/// catalog, which `ProcessCatalogTests` relies on.
enum DefaultCatalogRegistry {
    static let registry: CatalogRegistry = {
        let registry = CatalogRegistry()
        do {
            _ = try registry.install(Catalog.builtIn)
        } catch {
            preconditionFailure("a fresh registry refused the built-in catalog: \(error)")
        }
        return registry
    }()

    /// The classifier of `module` in ``registry``, the module added on first use.
    static func classifier<Code: ModuleCode>(for module: Code.Type) -> ModuleClassifier<Code> {
        registry.classifier(for: module)
    }

    /// Adds `module` to ``registry`` now (`Catalog.register(_:)` on this registry).
    @discardableResult
    static func register<Code: ModuleCode>(_ module: Code.Type) throws(CatalogError) -> Catalog {
        try registry.catalog(for: module).get()
    }
}
