// The rules a catalog must follow beyond its shape. The table rules (duplicate codes and module
// names, overlapping ranges, codes outside their module, base or success codes inside a module)
// are the C core's own, reported all at once by `errcore_check_catalog()`; this file adds the
// rules of the generated sources (names must be identifiers, entry names unique in their enum)
// and puts every problem at its place in the file, with the other place involved.

import CErrCore
import SwiftErr

/// Checks a ``CatalogDraft`` for names, duplicates, range and ownership problems.
///
/// Every check is O(n log n) in the size of the catalog, and the draft is handed to the C core
/// without copying its strings: only module names are passed (the core compares them), entries
/// share one placeholder name.
struct CatalogConsistencyCheck {
    private let draft: CatalogDraft
    /// Where problems go; a reference, so that reporting does not mutate the check while a
    /// message (an autoclosure) reads it.
    private let sink: Sink

    private final class Sink {
        var problems: ProblemCollector
        init(_ problems: ProblemCollector) { self.problems = problems }
    }

    private init(_ draft: CatalogDraft, problems: ProblemCollector) {
        self.draft = draft
        self.sink = Sink(problems)
    }

    /// Runs every check, adding the problems found to `problems`.
    static func check(_ draft: CatalogDraft, into problems: inout ProblemCollector) {
        let check = CatalogConsistencyCheck(draft, problems: problems)
        problems = ProblemCollector(limit: 0)  // drops this reference, so the sink's copy is unique
        let usableModuleNames = check.checkNames()
        check.checkTable(usableModuleNames: usableModuleNames)
        problems = check.sink.problems
    }

    // MARK: - Names

    private func label(_ entry: EntryDraft) -> String {
        let name = entry.name.map { " \(DisplayText.quoted($0))" } ?? ""
        switch entry.scope {
        case .success: return "success entry\(name)"
        case .base: return "base entry\(name)"
        case .module(let position): return "\(moduleLabel(position)) entry\(name)"
        }
    }

    private func moduleLabel(_ position: Int) -> String {
        guard let name = draft.modules[position].name, !name.isEmpty else { return "module \(position + 1)" }
        return "module \(DisplayText.quoted(name))"
    }

    private func checkName(_ name: String, at offset: Int, what: @autoclosure () -> String) -> Bool {
        if name.isEmpty {
            report(offset, "\(what()) has an empty name")
            return false
        }
        if !Self.isIdentifier(name) {
            report(
                offset,
                "\(what()) name \(DisplayText.quoted(name)) is not an identifier (ASCII letters, digits and '_', not starting with a digit)"
            )
            return false
        }
        return true
    }

    /// True for `[A-Za-z_][A-Za-z0-9_]*`: names become Swift cases and C comments.
    static func isIdentifier(_ name: String) -> Bool {
        GeneratedNames.isIdentifier(name)
    }

    /// Reports names that are not identifiers, and entry names repeated within their enum.
    /// - Returns: For each module, whether its name is an identifier (only those are handed to
    ///   the C core's duplicate-name rule; the others are already reported).
    private func checkNames() -> [Bool] {
        var usable: [Bool] = []
        usable.reserveCapacity(draft.modules.count)
        for (position, module) in draft.modules.enumerated() {
            guard let name = module.name else {
                usable.append(false)
                continue
            }
            usable.append(checkName(name, at: module.nameOffset, what: "module \(position + 1)"))
        }
        // Entry names must be unique within their scope: the success entry and the base tier
        // share one (the base enum), each module has its own (its enum).
        var scopes: [[EntryDraft]] = [(draft.success.map { [$0] } ?? []) + draft.base]
        scopes.append(contentsOf: draft.modules.map(\.codes))
        for scope in scopes {
            var seen: [String: EntryDraft] = [:]
            for entry in scope {
                func what() -> String {
                    switch entry.scope {
                    case .success: return "the success entry"
                    case .base: return "a base entry (code \(entry.code.map(String.init) ?? "?"))"
                    case .module(let position):
                        return "an entry of \(moduleLabel(position)) (code \(entry.code.map(String.init) ?? "?"))"
                    }
                }
                guard let name = entry.name, checkName(name, at: entry.nameOffset, what: what()) else { continue }
                if let earlier = seen[name] {
                    report(
                        entry.nameOffset,
                        "duplicate name \(DisplayText.quoted(name)): \(label(entry)) (code \(entry.code.map(String.init) ?? "?")) repeats \(label(earlier)) (code \(earlier.code.map(String.init) ?? "?"))",
                        related: earlier.nameOffset)
                } else {
                    seen[name] = entry
                }
            }
        }
        return usable
    }

    // MARK: - Table rules (the C core's)

    private static func text(_ range: RangeDraft) -> String {
        "[\(range.first), \(range.last)]"
    }

    /// The name every entry is given for the C core, which requires a non-empty name but has no
    /// rule about entry names (those are checked above, per enum).
    private static let entryName: StaticString = "e"

    /// Hands the catalog to `errcore_check_catalog()` and reports each of its problems at the
    /// entry, module or range concerned. An entry without a usable code, an empty range (first
    /// greater than last: reported here) and a module name that is not an identifier (reported
    /// above, replaced by a unique placeholder) cause no second report.
    private func checkTable(usableModuleNames: [Bool]) {
        // Flattened as ``Catalog/init(_:)`` documents: the success entry, the base entries, then
        // each module's entries; ranges module by module.
        var entryDrafts: [EntryDraft?] = []
        var ranges: [RangeDraft] = []
        var cEntries: [errcore_entry_def] = []
        var cRanges: [errcore_range] = []
        let entryCount = 1 + draft.base.count + draft.modules.reduce(0) { $0 + $1.codes.count }
        entryDrafts.reserveCapacity(entryCount)
        cEntries.reserveCapacity(entryCount)
        let name = UnsafeRawPointer(Self.entryName.utf8Start).assumingMemoryBound(to: CChar.self)
        func add(_ entry: EntryDraft?, code: Int64, module: Int) {
            entryDrafts.append(entry)
            cEntries.append(
                errcore_entry_def(
                    code: code, module: UInt16(truncatingIfNeeded: module), flags: 0, name: name, message_en: nil,
                    message_zh: nil, messages: nil))
        }
        let successCode = draft.success?.code
        add(successCode == nil ? nil : draft.success, code: successCode ?? 0, module: 0)
        for entry in draft.base {
            if let code = entry.code { add(entry, code: code, module: 0) }
        }
        var moduleNames: [UInt8] = []
        var moduleNameOffsets: [Int] = []
        for (position, module) in draft.modules.enumerated() {
            for entry in module.codes {
                if let code = entry.code { add(entry, code: code, module: position + 1) }
            }
            for range in module.ranges {
                guard range.first <= range.last else {
                    report(
                        range.offset,
                        "range \(Self.text(range)) of \(moduleLabel(position)) is empty: its first code is greater than its last"
                    )
                    continue
                }
                ranges.append(range)
                cRanges.append(
                    errcore_range(
                        first: range.first, last: range.last, module: UInt16(truncatingIfNeeded: position + 1)))
            }
            moduleNameOffsets.append(moduleNames.count)
            if usableModuleNames[position], let name = module.name {
                moduleNames.append(contentsOf: name.utf8)
            } else {
                moduleNames.append(contentsOf: "\u{1}\(position)".utf8)  // unique, never an identifier
            }
            moduleNames.append(0)
        }
        let successUsable = successCode != nil
        moduleNames.withUnsafeBufferPointer { pool in
            pool.withMemoryRebound(to: CChar.self) { chars in
                let cModules = moduleNameOffsets.map { offset in
                    errcore_module_def(name: chars.baseAddress! + offset, title_en: nil, title_zh: nil, titles: nil)
                }
                cEntries.withUnsafeBufferPointer { entries in
                    cModules.withUnsafeBufferPointer { modules in
                        cRanges.withUnsafeBufferPointer { rangeBuffer in
                            var def = errcore_catalog_def(
                                success_code: successCode ?? 0, entries: entries.baseAddress,
                                entry_count: entries.count, modules: modules.baseAddress, module_count: modules.count,
                                ranges: rangeBuffer.baseAddress, range_count: rangeBuffer.count,
                                languages: nil, language_count: 0)
                            Self.forEachProblem(in: &def) { diag in
                                report(diag, entries: entryDrafts, ranges: ranges, successUsable: successUsable)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with every problem `errcore_check_catalog()` reports for `def`, in its order.
    private static func forEachProblem(in def: inout errcore_catalog_def, _ body: (errcore_diag) -> Void) {
        var size = 0
        var diag = errcore_diag()
        guard errcore_check_size(&def, &size, &diag) == ERRCORE_OK else {
            body(diag)
            return
        }
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: max(size, 8), alignment: 8)
        defer { scratch.deallocate() }
        withoutActuallyEscaping(body) { body in
            let box = Unmanaged.passRetained(ProblemReceiver(body))
            defer { box.release() }
            _ = errcore_check_catalog(
                &def, scratch, max(size, 8),
                { context, diag in
                    guard let context, let diag else { return 0 }
                    Unmanaged<ProblemReceiver>.fromOpaque(context).takeUnretainedValue().receive(diag.pointee)
                    return 0
                }, box.toOpaque())
        }
    }

    /// Carries the Swift closure through the C callback's context pointer.
    private final class ProblemReceiver {
        let receive: (errcore_diag) -> Void
        init(_ receive: @escaping (errcore_diag) -> Void) { self.receive = receive }
    }

    /// The range of module `id` (1-based) that contains `code`.
    private func range(ofModule id: Int64, containing code: Int64) -> RangeDraft? {
        guard id > 0, Int(id) <= draft.modules.count else { return nil }
        return draft.modules[Int(id) - 1].ranges.first { $0.first <= code && code <= $0.last }
    }

    private func report(_ diag: errcore_diag, entries: [EntryDraft?], ranges: [RangeDraft], successUsable: Bool) {
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
            report(
                draft.modules[i].nameOffset,
                "duplicate module name \(DisplayText.quoted(draft.modules[i].name ?? "")): module \(i + 1) repeats module \(j + 1)",
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
            let owner = range(ofModule: diag.other_code, containing: diag.code)
            let place = owner.map { "; it is in range \(Self.text($0)) of \(moduleLabel($0.module))" } ?? ""
            report(
                moduleEntry.codeOffset,
                "code \(diag.code) of \(label(moduleEntry)) lies outside every range of \(moduleLabel(position))\(place)",
                related: owner?.offset)
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
            report(0, CText.read { buffer, size in errcore_diag_format(&copy, buffer, size) })
        }
    }

    private func report(_ offset: Int, _ message: @autoclosure () -> String, related: Int? = nil) {
        sink.problems.report(offset, message(), related: related)
    }
}
