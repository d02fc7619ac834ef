// One difference between two catalogs, as `errcat diff` reports it: what changed, where, whether
// it can break a program built against the old catalog, and why.

import SwiftErrCatalogFile

/// Whether a change can break a program or service built against the old catalog.
enum ChangeClass: String, Sendable {
    /// A program built against the old catalog may no longer compile, or may behave differently.
    case breaking
    /// Programs keep compiling and behaving as before; only text, or new codes, change.
    case compatible
}

/// What kind of difference a ``CatalogChange`` is. The raw values are the `kind` strings of
/// `errcat diff --json` (docs/errcat.md lists them with their class).
enum ChangeKind: String, Sendable, CaseIterable {
    /// The catalog's `name` changed: `errcore_<name>_table()`, `BaseCode+<Name>.swift` and
    /// `<Name>Catalog` are renamed.
    case catalogRenamed = "catalog-renamed"
    /// A shape is gone (`detail`: its name).
    case shapeRemoved = "shape-removed"
    /// A shape of the same name reads responses differently.
    case shapeChanged = "shape-changed"
    /// A new shape.
    case shapeAdded = "shape-added"
    /// The success code changed.
    case successCodeChanged = "success-code-changed"
    /// A module disappeared (its enum, its ranges and its id).
    case moduleRemoved = "module-removed"
    /// A module kept its ranges under another name (its enum type and runtime name change).
    case moduleRenamed = "module-renamed"
    /// A module owns fewer codes: a code it owned is now another module's, or unknown.
    case rangeShrunk = "range-shrunk"
    /// A module no longer owns a string namespace.
    case namespaceRemoved = "namespace-removed"
    /// A module's 1-based position, which is its C module id, changed.
    case moduleIDChanged = "module-id-changed"
    /// A new module.
    case moduleAdded = "module-added"
    /// A module owns more codes (and loses none).
    case rangeGrown = "range-grown"
    /// A module owns a new string namespace.
    case namespaceAdded = "namespace-added"
    /// A module title's text in one language changed.
    case titleChanged = "title-changed"
    /// A module title gained a translation.
    case titleLanguageAdded = "title-language-added"
    /// A module title lost a translation (it falls back to English).
    case titleLanguageRemoved = "title-language-removed"
    /// A code with an entry is gone.
    case codeRemoved = "code-removed"
    /// A code moved to another tier or module.
    case codeMoved = "code-moved"
    /// An entry's name changed (its generated case or constant is renamed).
    case entryRenamed = "entry-renamed"
    /// An entry's string code or its namespace changed, or it lost its string code.
    case stringCodeChanged = "string-code-changed"
    /// An entry gained a flag.
    case flagAdded = "flag-added"
    /// An entry lost a flag.
    case flagRemoved = "flag-removed"
    /// A new code with an entry.
    case codeAdded = "code-added"
    /// An entry gained a string code.
    case stringCodeAdded = "string-code-added"
    /// An entry's message in one language changed.
    case messageChanged = "message-changed"
    /// An entry's message gained a translation.
    case languageAdded = "language-added"
    /// An entry's message lost a translation (it falls back to English).
    case languageRemoved = "language-removed"

    /// The kind's place in the order of changes at the same code.
    var order: Int { Self.allCases.firstIndex(of: self)! }
}

/// Where an entry is: the success entry, the base tier or a module.
enum EntryPlace: Hashable, Sendable {
    case success
    case base
    case module(String)

    /// `success`, `base` or `module`, as the `tier` of `errcat diff --json` and `explain --json`.
    var tier: String {
        switch self {
        case .success: return "success"
        case .base: return "base"
        case .module: return "module"
        }
    }

    /// The module's name, or nil outside the module tier.
    var module: String? {
        if case .module(let name) = self { return name }
        return nil
    }

    /// "success", "base" or "module NAME" (the name escaped for a terminal).
    var description: String {
        switch self {
        case .success: return "success"
        case .base: return "base"
        case .module(let name): return "module \(DisplayText.bare(name))"
        }
    }
}

/// One difference between an old and a new catalog.
struct CatalogChange: Sendable {
    /// What changed.
    var kind: ChangeKind
    /// Whether it can break programs built against the old catalog.
    var changeClass: ChangeClass
    /// The code concerned; nil for changes of the catalog or of a module.
    var code: Int64?
    /// Where the code or module is (in the new catalog when it is there, else in the old one);
    /// nil for changes of the catalog itself.
    var place: EntryPlace?
    /// The entry's name (the new one when it has one), or nil for changes that are not an entry's.
    var name: String?
    /// The flag or language concerned, for flag and text changes.
    var detail: String?
    /// The value before, as text (nil when there was none).
    var old: String?
    /// The value after, as text (nil when there is none).
    var new: String?
    /// Why the change has its class, in one sentence.
    var reason: String
    /// Where the change sorts: its code, or the first code of its module's ranges.
    var sortCode: Int64
    /// The `--allow` values that mark this change as intended: its code (both codes for a changed
    /// success code), `module:NAME` for a module's changes, `catalog` for the catalog's name.
    var allowKeys: [String]
    /// True when an `--allow` value names this (breaking) change.
    var allowed = false
}
