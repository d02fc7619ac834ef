// One catalog written two ways compares equal: the order of codes and ranges is the file's or the
// table's, which says nothing about the catalog.

extension CatalogDefinition {
    /// The definition with its base entries, and each module's ranges and codes, in ascending code
    /// order: a catalog read back from its C table (``Catalog/definition``) and the same catalog as
    /// its file lists it are then equal. Module order stays: it gives the module ids.
    var canonical: CatalogDefinition {
        var copy = self
        copy.base.sort(by: Self.inCodeOrder)
        copy.modules = modules.map(\.canonical)
        return copy
    }

    /// Orders entries by code, and entries with one code (a definition that does not build) by name.
    static func inCodeOrder(_ first: EntryDefinition, _ second: EntryDefinition) -> Bool {
        (first.code, first.name) < (second.code, second.name)
    }
}

extension ModuleDefinition {
    /// The module with its ranges and codes in ascending order.
    var canonical: ModuleDefinition {
        var copy = self
        copy.ranges.sort { ($0.lowerBound, $0.upperBound) < ($1.lowerBound, $1.upperBound) }
        copy.codes.sort(by: CatalogDefinition.inCodeOrder)
        return copy
    }
}
