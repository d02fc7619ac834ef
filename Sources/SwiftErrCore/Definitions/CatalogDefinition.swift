/// A whole catalog before it is built: the success code, the base tier and the modules.
///
/// A module's id in the built ``Catalog`` is its 1-based position in ``modules``.
/// Build one with ``Catalog/init(_:)``, which reports every inconsistency as a
/// ``CatalogError``.
///
/// ```swift
/// let app = try Catalog(ShopCatalog.definition.adding(HomeworkCode.definition))
/// ```
public struct CatalogDefinition: Sendable, Hashable {
    /// The catalog's name, e.g. `"default"`.
    public var name: String
    /// The success entry (code `0` in the default catalog).
    public var success: EntryDefinition
    /// Base-tier entries: codes any request can get, outside every module range.
    public var base: [EntryDefinition]
    /// The feature modules; module id = 1-based index.
    public var modules: [ModuleDefinition]

    /// Creates a catalog definition.
    /// - Parameters:
    ///   - name: The catalog's name.
    ///   - success: The success entry.
    ///   - base: The base-tier entries.
    ///   - modules: The modules, in id order.
    public init(name: String, success: EntryDefinition, base: [EntryDefinition], modules: [ModuleDefinition]) {
        self.name = name
        self.success = success
        self.base = base
        self.modules = modules
    }

    /// The 1-based id of the module named `name`, or `nil` when there is none.
    /// - Parameter name: A module identifier.
    /// - Returns: The module's id in a table built from this definition.
    public func moduleID(named name: String) -> UInt16? {
        for (index, module) in modules.enumerated() where module.name == name {
            return UInt16(truncatingIfNeeded: index + 1)
        }
        return nil
    }

    /// The catalog of nothing: success code `0` (named `success`, "OK" / "成功"), no base tier and no
    /// modules. It is what SwiftErr's process-wide catalog starts from when no catalog is
    /// installed (see `Catalog.install(_:)` in SwiftErr).
    public static let empty = CatalogDefinition(
        name: "empty",
        success: EntryDefinition(
            code: 0, name: "success", message: LocalizedText(english: "OK", simplifiedChinese: "成功")),
        base: [], modules: [])

    /// The same catalog with no modules: its success entry and base tier only, to build an app's
    /// catalog from its own modules.
    public var withoutModules: CatalogDefinition {
        var copy = self
        copy.modules = []
        return copy
    }

    /// A copy with `module` appended (its id is the new module count).
    /// - Parameter module: The module to add.
    /// - Returns: The extended definition.
    public func adding(_ module: ModuleDefinition) -> CatalogDefinition {
        var copy = self
        copy.modules.append(module)
        return copy
    }
}
