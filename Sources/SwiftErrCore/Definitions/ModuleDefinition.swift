/// A feature module of a catalog: its identity, the code ranges it owns and the codes it lists.
///
/// Every code in ``codes`` must lie in one of ``ranges``. A code inside the ranges that is
/// not listed still belongs to the module, as "unrecognised".
public struct ModuleDefinition: Sendable, Hashable {
    /// The identifier, e.g. `"studyGroup"`. Must not be empty.
    public var name: String
    /// The display name, e.g. "Study group" / "学习小组".
    public var title: LocalizedText
    /// The closed ranges of codes the module owns. Ranges of different modules must not overlap.
    public var ranges: [ClosedRange<Int64>]
    /// The codes the module names.
    public var codes: [EntryDefinition]
    /// The string namespaces the module owns (a `domain` such as `"googleapis.com"`, a Stripe
    /// error `type`, the prefix of a Problem Details `type` URI): a string code in one of them
    /// that the catalog does not list is the module's, unrecognised, as an unlisted integer code
    /// inside its ranges is. No two modules own the same namespace.
    public var namespaces: [String]

    /// Creates a module definition.
    /// - Parameters:
    ///   - name: The identifier (non-empty).
    ///   - title: The display name.
    ///   - ranges: The code ranges the module owns.
    ///   - codes: The codes the module names, each inside `ranges`.
    public init(name: String, title: LocalizedText, ranges: [ClosedRange<Int64>], codes: [EntryDefinition]) {
        self.name = name
        self.title = title
        self.ranges = ranges
        self.codes = codes
        self.namespaces = []
    }

    /// Creates a module definition that owns string namespaces.
    /// - Parameters:
    ///   - name: The identifier (non-empty).
    ///   - title: The display name.
    ///   - ranges: The code ranges the module owns.
    ///   - namespaces: The string namespaces the module owns.
    ///   - codes: The codes the module names, each inside `ranges`.
    public init(
        name: String, title: LocalizedText, ranges: [ClosedRange<Int64>], namespaces: [String],
        codes: [EntryDefinition]
    ) {
        self.init(name: name, title: title, ranges: ranges, codes: codes)
        self.namespaces = namespaces
    }
}
