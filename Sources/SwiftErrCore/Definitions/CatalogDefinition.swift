/// A whole catalog before it is built: the success code, the base tier and the modules.
///
/// A module's id in the built ``Catalog`` is its 1-based position in ``modules``.
/// Build one with ``Catalog/init(_:)``, which reports every inconsistency as a
/// ``CatalogError``.
///
/// ```swift
/// let app = try Catalog(CatalogDefinition.builtIn.adding(HomeworkCode.definition))
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

    /// The built-in catalog's definition, read back from the C core's static table (which is
    /// generated from `catalog/default.json`): success `0`, the eight base codes and the seven
    /// default modules, in module-id order.
    public static var builtIn: CatalogDefinition {
        Catalog.builtIn.definition
    }

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
