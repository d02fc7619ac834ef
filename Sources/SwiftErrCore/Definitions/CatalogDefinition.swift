/// A whole catalog before it is built: the success code, the base tier and the modules.
///
/// A module's id in the built ``Catalog`` is its 1-based position in ``modules``.
/// Build one with ``Catalog/init(_:)``, which reports every inconsistency as a
/// ``CatalogError``.
///
/// <!-- listing: context=shop,homework -->
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
    /// The catalog's message languages, the first its default (where every lookup ends). A
    /// language a text uses that is not listed is added after these when the catalog is built
    /// (``allLanguages``).
    public var languages: [Language]
    /// The shapes the catalog's backends answer in, in the order they are tried; empty: none
    /// declared (readers use the `{"ret": …}` envelope of their configuration).
    public var shapes: [ShapeDefinition]

    /// Creates a catalog definition.
    /// - Parameters:
    ///   - name: The catalog's name.
    ///   - success: The success entry.
    ///   - base: The base-tier entries.
    ///   - modules: The modules, in id order.
    ///   - languages: The message languages, the first the default; `nil` (the default): English,
    ///     then every other language the texts use, in the order they first appear.
    public init(
        name: String, success: EntryDefinition, base: [EntryDefinition], modules: [ModuleDefinition],
        languages: [Language]? = nil
    ) {
        self.name = name
        self.success = success
        self.base = base
        self.modules = modules
        self.languages = []
        self.shapes = []
        self.languages = languages ?? Self.languagesUsed(by: self, after: [.english])
    }

    /// Creates a catalog definition that declares its shapes.
    /// - Parameters:
    ///   - name: The catalog's name.
    ///   - success: The success entry.
    ///   - base: The base-tier entries.
    ///   - modules: The modules, in id order.
    ///   - languages: The message languages, as in ``init(name:success:base:modules:languages:)``.
    ///   - shapes: The shapes its backends answer in.
    public init(
        name: String, success: EntryDefinition, base: [EntryDefinition], modules: [ModuleDefinition],
        languages: [Language]? = nil, shapes: [ShapeDefinition]
    ) {
        self.init(name: name, success: success, base: base, modules: modules, languages: languages)
        self.shapes = shapes
    }

    /// Every entry with a string code: the success entry, the base entries, then each module's,
    /// in order.
    public var stringEntries: [EntryDefinition] {
        ([success] + base + modules.flatMap { $0.codes }).filter { $0.string != nil }
    }

    /// ``languages``, then every other language a message or title uses, in the order they first
    /// appear: the languages of a table built from this definition.
    public var allLanguages: [Language] {
        Self.languagesUsed(by: self, after: languages)
    }

    /// Every text of the catalog: the success entry's, the base entries', then each module's title
    /// and its entries' messages.
    public var allTexts: [LocalizedText] {
        var texts = [success.message] + base.map { $0.message }
        for module in modules {
            texts.append(module.title)
            texts += module.codes.map { $0.message }
        }
        return texts
    }

    private static func languagesUsed(by definition: CatalogDefinition, after start: [Language]) -> [Language] {
        var result = start
        var seen = Set(start)
        for text in definition.allTexts {
            for language in text.languages where !seen.contains(language) {
                seen.insert(language)
                result.append(language)
            }
        }
        return result
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
        copy.languages = copy.allLanguages
        return copy
    }
}
