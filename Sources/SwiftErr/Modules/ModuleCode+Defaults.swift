// The defaults of `ModuleCode` that need what SwiftErrCore leaves out for Embedded Swift: a lock
// (the process-wide catalog) and reflection (case names).

extension ModuleCode {
    /// The process-wide catalog's classifier for this module: the module is added to the catalog
    /// on first use (see `Catalog.register(_:)` and `Catalog.install(_:)`). The default for modules
    /// that do not declare their own `classifier`; each use takes the catalog's lock once.
    public static var classifier: ModuleClassifier<Self> {
        CatalogRegistry.process.classifier(for: Self.self)
    }

    /// The case name, e.g. `"wrongTeamCode"`, read through reflection metadata (for a case with
    /// a payload, the name without it).
    ///
    /// Embedded Swift has no such metadata: there, implement `ModuleCode.name` yourself (the
    /// generated modules do).
    public var name: String {
        let described = String(describing: self)
        guard let parenthesis = described.firstIndex(of: "(") else { return described }
        return String(described[..<parenthesis])
    }
}
