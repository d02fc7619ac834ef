// What `errcat diff` prints: one line per change and a summary, or one JSON object
// (schema "errcat-diff/1", docs/errcat.md).

import SwiftErrCatalogFile

/// The changes between two catalogs, with the `--allow` values applied, ready to print.
struct DiffReport {
    /// The JSON schema name; it changes only when a key's meaning changes.
    static let schema = "errcat-diff/1"

    /// The two files as given on the command line, and their catalogs' names.
    var oldFile: String
    var newFile: String
    var oldCatalog: String
    var newCatalog: String
    /// Every change, in order; breaking changes an `--allow` named are marked `allowed`.
    var changes: [CatalogChange]
    /// `--allow` values that name no breaking change, in the order given.
    var staleAllows: [String]

    /// Applies `allows` (normalized `--allow` values) to `changes`.
    init(
        oldFile: String, newFile: String, old: String, new: String, changes: [CatalogChange], allows: [String]
    ) {
        self.oldFile = oldFile
        self.newFile = newFile
        oldCatalog = old
        newCatalog = new
        var used: Set<String> = []
        self.changes = changes.map { change in
            var change = change
            if change.changeClass == .breaking, change.allowKeys.contains(where: allows.contains) {
                change.allowed = true
                used.formUnion(change.allowKeys.filter(allows.contains))
            }
            return change
        }
        var seen: Set<String> = []
        staleAllows = allows.filter { !used.contains($0) && seen.insert($0).inserted }
    }

    /// Breaking changes no `--allow` names.
    var breakingCount: Int { changes.filter { $0.changeClass == .breaking && !$0.allowed }.count }
    /// Breaking changes an `--allow` names.
    var allowedCount: Int { changes.filter(\.allowed).count }
    /// Compatible changes.
    var compatibleCount: Int { changes.filter { $0.changeClass == .compatible }.count }

    /// The label of a change's line: BREAKING, ALLOWED or COMPATIBLE.
    static func label(_ change: CatalogChange) -> String {
        if change.allowed { return "ALLOWED" }
        return change.changeClass == .breaking ? "BREAKING" : "COMPATIBLE"
    }

    /// A value for a line: names and numbers as they are when plain, texts quoted; all escaped.
    private static func shown(_ value: String?, kind: ChangeKind) -> String {
        guard let value else { return "none" }
        switch kind {
        case .messageChanged, .languageAdded, .languageRemoved, .titleChanged, .titleLanguageAdded,
            .titleLanguageRemoved:
            return DisplayText.quoted(value, limit: 200)
        case .flagAdded, .flagRemoved, .rangeShrunk, .rangeGrown, .moduleAdded, .moduleRemoved, .codeMoved,
            .shapeAdded, .shapeRemoved, .shapeChanged, .stringCodeChanged, .stringCodeAdded:
            return DisplayText.sanitized(value)
        default:
            return DisplayText.bare(value)
        }
    }

    /// What changed, in words: "flag retryable added: [showUser] → [retryable, showUser]".
    static func what(_ change: CatalogChange) -> String {
        let old = shown(change.old, kind: change.kind)
        let new = shown(change.new, kind: change.kind)
        let detail = change.detail.map { DisplayText.bare($0) } ?? ""
        switch change.kind {
        case .catalogRenamed: return "catalog renamed: \(old) → \(new)"
        case .successCodeChanged: return "success code changed: \(old) → \(new)"
        case .moduleRemoved: return "module removed (ranges \(old))"
        case .moduleRenamed: return "module renamed: \(old) → \(new)"
        case .moduleIDChanged: return "module id changed: \(old) → \(new)"
        case .rangeShrunk: return "ranges shrunk: \(old) → \(new)"
        case .rangeGrown: return "ranges grown: \(old) → \(new)"
        case .moduleAdded: return "module added (ranges \(new))"
        case .titleChanged: return "title (\(detail)) changed: \(old) → \(new)"
        case .titleLanguageAdded: return "title language \(detail) added: \(new)"
        case .titleLanguageRemoved: return "title language \(detail) removed: \(old)"
        case .codeRemoved: return "code removed"
        case .codeAdded: return "code added"
        case .codeMoved: return "code moved: \(old) → \(new)"
        case .entryRenamed: return "renamed: \(old) → \(new)"
        case .flagAdded: return "flag \(detail) added: \(old) → \(new)"
        case .flagRemoved: return "flag \(detail) removed: \(old) → \(new)"
        case .messageChanged: return "message (\(detail)) changed: \(old) → \(new)"
        case .languageAdded: return "message language \(detail) added: \(new)"
        case .languageRemoved: return "message language \(detail) removed: \(old)"
        case .shapeRemoved: return "shape removed: \(old)"
        case .shapeChanged: return "shape changed: \(old) → \(new)"
        case .shapeAdded: return "shape added: \(new)"
        case .namespaceRemoved: return "namespace \(shown(change.detail, kind: .messageChanged)) removed"
        case .namespaceAdded: return "namespace \(shown(change.detail, kind: .messageChanged)) added"
        case .stringCodeChanged: return "string code changed: \(old) → \(new)"
        case .stringCodeAdded: return "string code added: \(new)"
        }
    }

    /// Where a change is: "11001 base tokenExpire", "module tag", "catalog".
    static func subject(_ change: CatalogChange) -> String {
        if [.shapeRemoved, .shapeChanged, .shapeAdded].contains(change.kind), let name = change.detail {
            return "shape \(DisplayText.bare(name))"
        }
        guard let place = change.place else { return "catalog" }
        guard let code = change.code else { return place.description }
        return "\(code) \(place.description)" + (change.name.map { " \(DisplayText.bare($0))" } ?? "")
    }

    /// One line per change (CLASS SUBJECT: WHAT (REASON)), then the summary line.
    func writeText(into out: inout OutputBuffer) {
        for change in changes {
            let label = Self.label(change)
            out.write(label + String(repeating: " ", count: max(1, 11 - label.count)))
            out.write("\(Self.subject(change)): \(Self.what(change)) (\(DisplayText.sanitized(change.reason)))")
            out.endLine()
        }
        out.write(summary)
        out.endLine()
    }

    /// "no changes", or "N changes: B breaking, A allowed, C compatible".
    var summary: String {
        guard !changes.isEmpty else { return "no changes" }
        return
            "\(changes.count) change\(changes.count == 1 ? "" : "s"): \(breakingCount) breaking, \(allowedCount) allowed, \(compatibleCount) compatible"
    }

    /// The report as one JSON object, one change per line.
    func writeJSON(into out: inout OutputBuffer) {
        out.write("{\"schema\":")
        out.write(jsonString: Self.schema)
        for (key, file, catalog) in [("old", oldFile, oldCatalog), ("new", newFile, newCatalog)] {
            out.write(",")
            out.write(jsonKey: key)
            out.write("{\"file\":")
            out.write(jsonString: file)
            out.write(",\"catalog\":")
            out.write(jsonString: catalog)
            out.write("}")
        }
        out.write(",\"changes\":[")
        for (index, change) in changes.enumerated() {
            out.write(index == 0 ? "\n" : ",\n")
            out.write("{\"class\":")
            out.write(jsonString: change.changeClass.rawValue)
            out.write(",\"allowed\":\(change.allowed),\"kind\":")
            out.write(jsonString: change.kind.rawValue)
            out.write(",\"code\":")
            if let code = change.code { out.write(integer: code) } else { out.write("null") }
            out.write(",\"tier\":")
            out.write(jsonOptionalString: change.place?.tier)
            out.write(",\"module\":")
            out.write(jsonOptionalString: change.place?.module)
            out.write(",\"name\":")
            out.write(jsonOptionalString: change.name)
            out.write(",\"detail\":")
            out.write(jsonOptionalString: change.detail)
            out.write(",\"old\":")
            out.write(jsonOptionalString: change.old)
            out.write(",\"new\":")
            out.write(jsonOptionalString: change.new)
            out.write(",\"reason\":")
            out.write(jsonString: change.reason)
            out.write("}")
        }
        out.write(changes.isEmpty ? "]" : "\n]")
        out.write(",\"staleAllows\":")
        out.write(jsonStrings: staleAllows)
        out.write(
            ",\"summary\":{\"changes\":\(changes.count),\"breaking\":\(breakingCount),\"allowed\":\(allowedCount),\"compatible\":\(compatibleCount)}}"
        )
        out.endLine()
    }
}
