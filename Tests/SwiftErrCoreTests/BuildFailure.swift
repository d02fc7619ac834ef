import SwiftErrCore

/// The error `Catalog.init(_:)` throws for `definition`, or `nil` when the catalog builds.
func buildFailure(_ definition: CatalogDefinition) -> CatalogError? {
    do {
        _ = try Catalog(definition)
        return nil
    } catch {
        return error
    }
}
