import SwiftErr

// A catalog as read from a file, before it is checked: every part remembers
// where it was written, so later checks can point at it.

/// Which part of a catalog an entry belongs to.
enum EntryScope: Sendable, Hashable {
    case success
    case base
    /// A module's entry; the payload is the module's 0-based position.
    case module(Int)
}

/// An entry as written. `code` and `name` are nil when the file's value was missing or
/// unusable (that is already reported, so later checks skip them).
struct EntryDraft: Sendable {
    var scope: EntryScope
    var code: Int64?
    var codeOffset: Int
    var name: String?
    var nameOffset: Int
    var flags: UInt8
    /// The message in each language written.
    var texts: [Language: String]
    /// Offset of the entry's object.
    var offset: Int
    /// The string code (format 3), or nil.
    var string: String? = nil
    /// Offset of the `"string"` value.
    var stringOffset: Int = 0
    /// The namespace written (format 3), or nil: the module's first namespace, or the catalog's
    /// own for a base entry or a module without namespaces. An empty one is the catalog's own.
    var namespace: String? = nil
    /// Offset of the `"namespace"` value.
    var namespaceOffset: Int = 0
}

/// A module range as written; only ranges whose bounds are usable integers are kept.
struct RangeDraft: Sendable {
    var first: Int64
    var last: Int64
    /// 0-based position of the owning module.
    var module: Int
    var offset: Int
}

/// A module as written; `name` is nil when missing or unusable (already reported).
struct ModuleDraft: Sendable {
    var name: String?
    var nameOffset: Int
    /// The title in each language written (the default language's is the name when there is no
    /// "title").
    var title: [Language: String]
    var ranges: [RangeDraft]
    var codes: [EntryDraft]
    var offset: Int
    /// The string namespaces it owns (format 3), with each one's offset.
    var namespaces: [(name: String, offset: Int)] = []
}

/// A shape as written: the definition and where it and its name are.
struct ShapeDraft: Sendable {
    var definition: ShapeDefinition
    var offset: Int
    var nameOffset: Int
}

/// A whole catalog as written.
struct CatalogDraft: Sendable {
    var name: String
    /// Offset of the `"name"` value (of the object when there is none).
    var nameOffset: Int
    var success: EntryDraft?
    var base: [EntryDraft]
    var modules: [ModuleDraft]
    /// The catalog's languages, the first its default: the `"languages"` of a
    /// `swifterr-catalog/2` or `/3` file; `nil` for a `swifterr-catalog/1` file (English, then Simplified
    /// Chinese when used).
    var languages: [Language]?
    /// The shapes (format 3) that were usable.
    var shapes: [ShapeDraft] = []
}

/// A problem found at a byte offset, turned into a ``CatalogFileProblem`` once lines are indexed.
struct DraftProblem: Sendable {
    var offset: Int
    var message: String
    var relatedOffset: Int?
}
