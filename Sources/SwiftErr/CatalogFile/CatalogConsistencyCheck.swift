// The rules a catalog must follow beyond its shape. The table rules (duplicate codes and module
// names, empty and overlapping ranges, codes outside their module, base or success codes inside
// a module) are the C core's own, reported all at once by `errcore_check_catalog()`; this file
// adds the rules of the generated sources (names must be identifiers, entry names unique in
// their enum) and puts every problem at its place in the file, with the other place involved.

import CErrCore
import SwiftErrCore

/// Checks a ``CatalogDraft`` for names, duplicates, range and ownership problems.
struct CatalogConsistencyCheck {
    private let draft: CatalogDraft
    private(set) var problems: [DraftProblem] = []

    init(_ draft: CatalogDraft) {
        self.draft = draft
    }

    /// Runs every check and returns the problems found.
    static func problems(in draft: CatalogDraft) -> [DraftProblem] {
        var check = CatalogConsistencyCheck(draft)
        let usableNames = check.checkNames()
        check.checkTable(usableNames: usableNames)
        return check.problems
    }

    // MARK: - Labels

    private func label(_ entry: EntryDraft) -> String {
        let name = entry.name.map { " \"\($0)\"" } ?? ""
        switch entry.scope {
        case .success: return "success entry\(name)"
        case .base: return "base entry\(name)"
        case .module(let position): return "\(moduleLabel(position)) entry\(name)"
        }
    }

    private func moduleLabel(_ position: Int) -> String {
        guard position < draft.modules.count, let name = draft.modules[position].name, !name.isEmpty else {
            return "module \(position + 1)"
        }
        return "module \"\(name)\""
    }

    private static func text(_ range: RangeDraft) -> String {
        "[\(range.first), \(range.last)]"
    }

    // MARK: - Names (rules of the generated sources)

    /// True for `[A-Za-z_][A-Za-z0-9_]*`: names become Swift cases and C comments.
    static func isIdentifier(_ name: String) -> Bool {
        var first = true
        for byte in name.utf8 {
            let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            guard letter || byte == UInt8(ascii: "_") || (digit && !first) else { return false }
            first = false
        }
        return !first
    }

    private mutating func checkName(_ name: String, at offset: Int, what: String) -> Bool {
        if name.isEmpty {
            report(offset, "\(what) has an empty name")
            return false
        }
        if !Self.isIdentifier(name) {
            report(
                offset,
                "\(what) name \"\(name)\" is not an identifier (ASCII letters, digits and '_', not starting with a digit)"
            )
            return false
        }
        return true
    }

    /// Reports names that are not identifiers and entry names repeated within their enum.
    /// - Returns: The names fit to hand to the C core: module names by position, and the entry
    ///   names by scope position (rejected names are `nil`).
    private mutating func checkNames() -> (modules: [Bool], entries: Set<Int>) {
        var goodModules: [Bool] = []
        for (position, module) in draft.modules.enumerated() {
            guard let name = module.name else {
                goodModules.append(false)
                continue
            }
            goodModules.append(checkName(name, at: module.nameOffset, what: "module \(position + 1)"))
        }
        // Entry names must be unique within their scope: the success entry and the base tier
        // share one (the base constants), each module has its own (its enum).
        var goodEntries = Set<Int>()  // entry offsets of usable names
        var scopes: [[EntryDraft]] = [(draft.success.map { [$0] } ?? []) + draft.base]
        scopes.append(contentsOf: draft.modules.map(\.codes))
        for scope in scopes {
            var seen: [String: EntryDraft] = [:]
            for entry in scope {
                let code = entry.code.map(String.init) ?? "?"
                let what: String
                switch entry.scope {
                case .success: what = "the success entry"
                case .base: what = "a base entry (code \(code))"
                case .module(let position): what = "an entry of \(moduleLabel(position)) (code \(code))"
                }
                guard let name = entry.name, checkName(name, at: entry.nameOffset, what: what) else { continue }
                goodEntries.insert(entry.offset)
                if let earlier = seen[name] {
                    let earlierCode = earlier.code.map(String.init) ?? "?"
                    report(
                        entry.nameOffset,
                        "duplicate name \"\(name)\": \(label(entry)) (code \(code)) repeats \(label(earlier)) (code \(earlierCode))",
                        related: earlier.nameOffset)
                } else {
                    seen[name] = entry
                }
            }
        }
        return (goodModules, goodEntries)
    }

    // MARK: - Table rules (the C core's)

    /// Hands the catalog to `errcore_check_catalog()` and reports each of its problems at the
    /// entry, module or range concerned. Parts already reported as unusable (no code, a name that
    /// is not an identifier) take part under a neutral placeholder name, so that they cause no
    /// second report.
    private mutating func checkTable(usableNames: (modules: [Bool], entries: Set<Int>)) {
        // The flattened order is the one ``Catalog/init(_:)`` documents: success, base entries,
        // then each module's entries; ranges module by module.
        var entries: [EntryDraft?] = []
        func placeholder(_ kind: String, _ index: Int) -> String { "\u{1}\(kind)\(index)" }
        func definition(_ entry: EntryDraft, code: Int64) -> EntryDefinition {
            let usable = entry.name != nil && usableNames.entries.contains(entry.offset)
            return EntryDefinition(
                code: code, name: usable ? entry.name! : placeholder("e", entries.count),
                message: LocalizedText(english: ""))
        }
        let successCode = draft.success?.code
        var success = EntryDefinition(
            code: successCode ?? 0, name: placeholder("s", 0), message: LocalizedText(english: ""))
        if let entry = draft.success, let code = successCode {
            success = definition(entry, code: code)
            entries.append(entry)
        } else {
            entries.append(nil)
        }
        var base: [EntryDefinition] = []
        for entry in draft.base {
            guard let code = entry.code else { continue }
            base.append(definition(entry, code: code))
            entries.append(entry)
        }
        var ranges: [RangeDraft] = []
        var modules: [ModuleDefinition] = []
        for (position, module) in draft.modules.enumerated() {
            var codes: [EntryDefinition] = []
            for entry in module.codes {
                guard let code = entry.code else { continue }
                codes.append(definition(entry, code: code))
                entries.append(entry)
            }
            // An empty range (first > last) is not a range at all: reported here, left out of the table.
            var closed: [ClosedRange<Int64>] = []
            for range in module.ranges {
                guard range.first <= range.last else {
                    report(
                        range.offset,
                        "range \(Self.text(range)) of \(moduleLabel(position)) is empty: its first code is greater than its last"
                    )
                    continue
                }
                ranges.append(range)
                closed.append(range.first...range.last)
            }
            let name = usableNames.modules[position] ? module.name! : placeholder("m", position)
            modules.append(
                ModuleDefinition(name: name, title: LocalizedText(english: ""), ranges: closed, codes: codes))
        }
        let catalog = CatalogDefinition(name: draft.name, success: success, base: base, modules: modules)
        var builder = CatalogBuilder(catalog)
        let found: [errcore_diag]
        do {
            found = try builder.problems()
        } catch {
            return  // a NUL byte in a string, already reported by the decoder
        }
        for diag in found {
            report(diag, entries: entries, ranges: ranges, successUsable: successCode != nil)
        }
    }

    /// The range of module `id` (1-based) that contains `code`.
    private func range(ofModule id: Int64, containing code: Int64) -> RangeDraft? {
        guard id > 0, Int(id) <= draft.modules.count else { return nil }
        return draft.modules[Int(id) - 1].ranges.first { $0.first <= code && code <= $0.last }
    }

    private mutating func report(
        _ diag: errcore_diag, entries: [EntryDraft?], ranges: [RangeDraft], successUsable: Bool
    ) {
        let index = diag.index == Int(bitPattern: UInt.max) ? nil : diag.index
        let other = diag.other_index == Int(bitPattern: UInt.max) ? nil : diag.other_index
        func entry(_ i: Int?) -> EntryDraft? { i.flatMap { $0 < entries.count ? entries[$0] : nil } }
        func rangeAt(_ i: Int?) -> RangeDraft? { i.flatMap { $0 < ranges.count ? ranges[$0] : nil } }
        switch diag.status {
        case ERRCORE_E_DUPLICATE_CODE:
            guard let later = entry(index), let earlier = entry(other) else { break }
            report(
                later.codeOffset, "duplicate code \(diag.code): \(label(later)) repeats \(label(earlier))",
                related: earlier.codeOffset)
        case ERRCORE_E_DUPLICATE_MODULE_NAME:
            guard let i = index, let j = other, i < draft.modules.count, j < draft.modules.count else { break }
            let name = draft.modules[i].name ?? ""
            report(
                draft.modules[i].nameOffset,
                "duplicate module name \"\(name)\": module \(i + 1) repeats module \(j + 1)",
                related: draft.modules[j].nameOffset)
        case ERRCORE_E_RANGE_OVERLAP:
            guard let range = rangeAt(index), let previous = rangeAt(other) else { break }
            report(
                range.offset,
                "range \(Self.text(range)) of \(moduleLabel(range.module)) overlaps range \(Self.text(previous)) of \(moduleLabel(previous.module))",
                related: previous.offset)
        case ERRCORE_E_SUCCESS_IN_MODULE where diag.subject == ERRCORE_SUBJECT_RANGE:
            guard successUsable, let success = draft.success, let range = rangeAt(index) else { break }
            report(
                success.codeOffset,
                "the success code \(diag.code) lies in range \(Self.text(range)) of \(moduleLabel(range.module))",
                related: range.offset)
        case ERRCORE_E_SUCCESS_IN_MODULE:
            guard successUsable, let moduleEntry = entry(index) else { break }
            report(
                moduleEntry.codeOffset,
                "code \(diag.code) of \(label(moduleEntry)) is the success code, which no module may own",
                related: draft.success?.codeOffset)
        case ERRCORE_E_CODE_OUTSIDE_MODULE:
            guard let moduleEntry = entry(index), case .module(let position) = moduleEntry.scope else { break }
            var message =
                "code \(diag.code) of \(label(moduleEntry)) lies outside every range of \(moduleLabel(position))"
            let owner = range(ofModule: diag.other_code, containing: diag.code)
            if let owner {
                message += "; it is in range \(Self.text(owner)) of \(moduleLabel(owner.module))"
            }
            report(moduleEntry.codeOffset, message, related: owner?.offset)
        case ERRCORE_E_BASE_IN_MODULE_RANGE:
            guard let baseEntry = entry(index) else { break }
            let owner = range(ofModule: diag.other_code, containing: diag.code)
            let place = owner.map { "range \(Self.text($0)) of \(moduleLabel($0.module))" } ?? "a module's range"
            report(
                baseEntry.codeOffset,
                "code \(diag.code) of \(label(baseEntry)) lies in \(place); a base code must be outside every module range",
                related: owner?.offset)
        case ERRCORE_E_COUNT_OVERFLOW where diag.subject == ERRCORE_SUBJECT_MODULE:
            let limit = Int(ERRCORE_MAX_MODULES)
            report(
                draft.modules.count > limit ? draft.modules[limit].offset : 0,
                "too many modules: \(draft.modules.count) (at most \(limit))")
        default:
            // Statuses a catalog file cannot produce (its modules are positional, its names were
            // checked above): reported as the C core words them, so nothing is dropped.
            var copy = diag
            let text = CText.read { buffer, size in errcore_diag_format(&copy, buffer, size) }
            report(0, text)
        }
    }

    private mutating func report(_ offset: Int, _ message: String, related: Int? = nil) {
        problems.append(DraftProblem(offset: offset, message: message, relatedOffset: related))
    }
}
