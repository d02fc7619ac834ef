import SwiftErr

/// The label values of one classification: every value comes from the catalog or is one of a few
/// fixed words, never from the code the server sent, so the number of label combinations is
/// bounded by the catalog (its entries, plus one per module, plus one for unknown codes).
///
/// | classification | `tier` | `module` | `name` |
/// |---|---|---|---|
/// | the success code | `success` | `success` | the success entry's name |
/// | a base code | `base` | `base` | the entry's name (`tokenExpire`) |
/// | a module's listed code | `module` | the module's name (`studyGroup`) | the entry's name (`wrongTeamCode`) |
/// | an unlisted code in a module's ranges | `module` | the module's name | `unrecognised` |
/// | any other code | `unknown` | `unknown` | `unknown` |
///
/// A catalog module called `base` or `unknown` cannot be mistaken for the fixed words: its codes
/// carry `tier="module"`.
public struct CodeLabels: Sendable, Hashable {
    /// `success`, `base`, `module` or `unknown` (``SwiftErrCore/Classification/Tier/name``).
    public let tier: String
    /// The module's name for module codes; the tier's name otherwise.
    public let module: String
    /// The entry's name, `unrecognised` for an unlisted code in a module's ranges, `unknown` for a
    /// code the catalog does not know.
    public let name: String

    /// The name given to an unlisted code inside a module's ranges.
    public static let unrecognisedName = "unrecognised"
    /// The module and name given to a code outside the catalog.
    public static let unknownName = "unknown"

    /// Creates labels.
    /// - Parameters:
    ///   - tier: The tier's name.
    ///   - module: The module's name, or the tier's name.
    ///   - name: The entry's name or one of the fixed words.
    public init(tier: String, module: String, name: String) {
        self.tier = tier
        self.module = module
        self.name = name
    }

    /// The labels of a classification made through `catalog`.
    /// - Parameters:
    ///   - classification: The classification.
    ///   - catalog: The catalog that made it.
    public init(_ classification: Classification, in catalog: Catalog) {
        let tier = classification.tier
        switch tier {
        case .unknown:
            self.init(tier: tier.name, module: Self.unknownName, name: Self.unknownName)
        case .success, .base:
            let name = classification.entryIndex.flatMap(catalog.entryName(at:)) ?? Self.unknownName
            self.init(tier: tier.name, module: tier.name, name: name)
        case .module:
            let module = catalog.moduleName(classification.moduleID) ?? Self.unknownName
            let name = classification.entryIndex.flatMap(catalog.entryName(at:)) ?? Self.unrecognisedName
            self.init(tier: tier.name, module: module, name: name)
        }
    }

    /// The labels as metric dimensions: `tier`, `module`, `name`.
    public var dimensions: [(String, String)] {
        [("tier", tier), ("module", module), ("name", name)]
    }
}
