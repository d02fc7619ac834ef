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
    }
}
