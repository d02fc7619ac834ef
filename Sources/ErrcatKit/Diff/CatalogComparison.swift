// The compatibility rules of `errcat diff`: every difference between an old and a new catalog,
// each classed as breaking or compatible with its reason.
//
// A program built against a catalog depends on its codes staying where they are, on the names
// `errcat gen` turns into Swift cases, constants, types and C symbols, on the module ids the C
// API exposes (a module's 1-based position), and on the flags SwiftErr acts on. Only free codes
// may be used for new entries, and nothing may be renamed, moved or reordered; texts may change.

import SwiftErr
import SwiftErrCatalogFile

/// Compares two valid catalogs.
enum CatalogComparison {
    /// Every difference between `old` and `new`, sorted by code (a module's changes at the first
    /// code of its ranges, the catalog's own first), then by kind.
    static func changes(from old: CatalogDefinition, to new: CatalogDefinition) -> [CatalogChange] {
        var changes: [CatalogChange] = []
        catalogChanges(old, new, into: &changes)
        let renamed = moduleChanges(old, new, into: &changes)
        entryChanges(old, new, renamed: renamed, into: &changes)
        return changes.sorted { a, b in
            if a.sortCode != b.sortCode { return a.sortCode < b.sortCode }
            let groupA = a.code == nil ? (a.place == nil ? 0 : 1) : 2
            let groupB = b.code == nil ? (b.place == nil ? 0 : 1) : 2
            if groupA != groupB { return groupA < groupB }
            if a.place?.module != b.place?.module { return (a.place?.module ?? "") < (b.place?.module ?? "") }
            if a.kind != b.kind { return a.kind.order < b.kind.order }
            return (a.detail ?? "") < (b.detail ?? "")
        }
    }

    // MARK: - The catalog

    private static func catalogChanges(
        _ old: CatalogDefinition, _ new: CatalogDefinition, into changes: inout [CatalogChange]
    ) {
        if old.name != new.name {
            changes.append(
                CatalogChange(
                    kind: .catalogRenamed, changeClass: .breaking, code: nil, place: nil, name: nil, detail: nil,
                    old: old.name, new: new.name,
                    reason:
                        "the generated names follow it: errcore_\(DisplayText.bare(old.name))_table() becomes errcore_\(DisplayText.bare(new.name))_table(), \(DisplayText.bare(GeneratedNames.catalogTypeName(catalog: old.name))) becomes \(DisplayText.bare(GeneratedNames.catalogTypeName(catalog: new.name)))",
                    sortCode: Int64.min, allowKeys: ["catalog"]))
        }
        if old.success.code != new.success.code {
            changes.append(
                CatalogChange(
                    kind: .successCodeChanged, changeClass: .breaking, code: new.success.code, place: .success,
                    name: new.success.name, detail: nil, old: String(old.success.code), new: String(new.success.code),
                    reason: "a response with the old success code \(old.success.code) is no longer a success",
                    sortCode: Int64.min, allowKeys: [String(old.success.code), String(new.success.code)]))
        }
        // Shapes by name: a reader chooses one by name (errcat classify --shape), and each reads
        // responses in its own way.
        for shape in old.shapes {
            let keys = ["shape:\(shape.name)"]
            guard let now = new.shapes.first(where: { $0.name == shape.name }) else {
                changes.append(
                    CatalogChange(
                        kind: .shapeRemoved, changeClass: .breaking, code: nil, place: nil, name: nil,
                        detail: shape.name,
                        old: SwiftLiteral.shape(shape), new: nil,
                        reason:
                            "responses in this shape are no longer read, and --shape \(DisplayText.bare(shape.name)) fails",
                        sortCode: Int64.min, allowKeys: keys))
                continue
            }
            if now != shape {
                changes.append(
                    CatalogChange(
                        kind: .shapeChanged, changeClass: .breaking, code: nil, place: nil, name: nil,
                        detail: shape.name,
                        old: SwiftLiteral.shape(shape), new: SwiftLiteral.shape(now),
                        reason: "the same responses may give other codes, or none",
                        sortCode: Int64.min, allowKeys: keys))
            }
        }
        for shape in new.shapes where !old.shapes.contains(where: { $0.name == shape.name }) {
            changes.append(
                CatalogChange(
                    kind: .shapeAdded, changeClass: .compatible, code: nil, place: nil, name: nil, detail: shape.name,
                    old: nil, new: SwiftLiteral.shape(shape), reason: "responses in this shape are read",
                    sortCode: Int64.min, allowKeys: ["shape:\(shape.name)"]))
        }
    }

    // MARK: - Modules

    /// A module's codes as sorted, disjoint, non-adjacent ranges.
    static func normalized(_ ranges: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
        var result: [ClosedRange<Int64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, last.upperBound == Int64.max || range.lowerBound <= last.upperBound + 1 {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// The codes of `a` that are not in `b` (both normalized), as normalized ranges.
    static func subtracting(_ b: [ClosedRange<Int64>], from a: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
        var result: [ClosedRange<Int64>] = []
        for range in a {
            var pieces = [range]
            for cut in b where cut.overlaps(range) {
                var next: [ClosedRange<Int64>] = []
                for piece in pieces {
                    guard piece.overlaps(cut) else {
                        next.append(piece)
                        continue
                    }
                    if piece.lowerBound < cut.lowerBound { next.append(piece.lowerBound...(cut.lowerBound - 1)) }
                    if piece.upperBound > cut.upperBound { next.append((cut.upperBound + 1)...piece.upperBound) }
                }
                pieces = next
            }
            result += pieces
        }
        return result
    }

    /// "[first, last], [first, last]".
    static func rangesText(_ ranges: [ClosedRange<Int64>]) -> String {
        ranges.isEmpty ? "none" : ranges.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", ")
    }

    /// Appends the changes of modules.
    /// - Returns: The modules renamed, new name by old name.
    private static func moduleChanges(
        _ old: CatalogDefinition, _ new: CatalogDefinition, into changes: inout [CatalogChange]
    ) -> [String: String] {
        let newByName = Dictionary(new.modules.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        let oldByName = Dictionary(old.modules.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        // A module that kept its ranges exactly under a name the old catalog does not have was renamed.
        var renamedTo: [Int: Int] = [:]
        var claimed: Set<Int> = []
        for (oldIndex, module) in old.modules.enumerated() where newByName[module.name] == nil {
            let ranges = normalized(module.ranges)
            if let match = new.modules.indices.first(where: {
                oldByName[new.modules[$0].name] == nil && !claimed.contains($0)
                    && normalized(new.modules[$0].ranges) == ranges
            }) {
                renamedTo[oldIndex] = match
                claimed.insert(match)
            }
        }
        for (oldIndex, module) in old.modules.enumerated() {
            let oldRanges = normalized(module.ranges)
            let first = oldRanges.first?.lowerBound ?? Int64.min
            let keys = ["module:\(module.name)"]
            guard let newIndex = newByName[module.name] ?? renamedTo[oldIndex] else {
                changes.append(
                    CatalogChange(
                        kind: .moduleRemoved, changeClass: .breaking, code: nil, place: .module(module.name), name: nil,
                        detail: nil, old: rangesText(oldRanges), new: nil,
                        reason:
                            "its enum \(DisplayText.bare(GeneratedNames.typeName(module: module.name))) and module id \(oldIndex + 1) are gone, and its codes no longer classify to it",
                        sortCode: first, allowKeys: keys))
                continue
            }
            let newModule = new.modules[newIndex]
            let newRanges = normalized(newModule.ranges)
            let place = EntryPlace.module(newModule.name)
            if newModule.name != module.name {
                changes.append(
                    CatalogChange(
                        kind: .moduleRenamed, changeClass: .breaking, code: nil, place: place, name: nil, detail: nil,
                        old: module.name, new: newModule.name,
                        reason:
                            "its enum \(DisplayText.bare(GeneratedNames.typeName(module: module.name))) becomes \(DisplayText.bare(GeneratedNames.typeName(module: newModule.name))), and its name at run time (errcore_module_find, moduleName) changes",
                        sortCode: first, allowKeys: keys + ["module:\(newModule.name)"]))
            }
            if oldIndex != newIndex {
                changes.append(
                    CatalogChange(
                        kind: .moduleIDChanged, changeClass: .breaking, code: nil, place: place, name: nil, detail: nil,
                        old: String(oldIndex + 1), new: String(newIndex + 1),
                        reason:
                            "a module's id is its position in the file, which C code sees (errcore_class_module); add modules at the end and never reorder them",
                        sortCode: first, allowKeys: keys))
            }
            let lost = subtracting(newRanges, from: oldRanges)
            let gained = subtracting(oldRanges, from: newRanges)
            if !lost.isEmpty {
                changes.append(
                    CatalogChange(
                        kind: .rangeShrunk, changeClass: .breaking, code: nil, place: place, name: nil, detail: nil,
                        old: rangesText(oldRanges), new: rangesText(newRanges),
                        reason: "codes \(rangesText(lost)) no longer belong to the module",
                        sortCode: first, allowKeys: keys))
            } else if !gained.isEmpty {
                changes.append(
                    CatalogChange(
                        kind: .rangeGrown, changeClass: .compatible, code: nil, place: place, name: nil, detail: nil,
                        old: rangesText(oldRanges), new: rangesText(newRanges),
                        reason: "codes \(rangesText(gained)) are new to the module and were unknown before",
                        sortCode: first, allowKeys: keys))
            }
            for namespace in module.namespaces where !newModule.namespaces.contains(namespace) {
                changes.append(
                    CatalogChange(
                        kind: .namespaceRemoved, changeClass: .breaking, code: nil, place: place, name: nil,
                        detail: namespace, old: namespace, new: nil,
                        reason:
                            "its string codes that the catalog does not list no longer classify to the module, and its listed ones move (reported at their codes)",
                        sortCode: first, allowKeys: keys))
            }
            for namespace in newModule.namespaces where !module.namespaces.contains(namespace) {
                changes.append(
                    CatalogChange(
                        kind: .namespaceAdded, changeClass: .compatible, code: nil, place: place, name: nil,
                        detail: namespace, old: nil, new: namespace,
                        reason: "its string codes were unknown, and now classify to the module",
                        sortCode: first, allowKeys: keys))
            }
            textChanges(
                module.title, newModule.title, what: "title", code: nil, place: place, name: nil,
                kinds: (.titleChanged, .titleLanguageAdded, .titleLanguageRemoved), sortCode: first, allowKeys: keys,
                into: &changes)
        }
        let kept = Set(newByName.keys).intersection(oldByName.keys)
        for (newIndex, module) in new.modules.enumerated()
        where !kept.contains(module.name) && !claimed.contains(newIndex) {
            let ranges = normalized(module.ranges)
            changes.append(
                CatalogChange(
                    kind: .moduleAdded, changeClass: .compatible, code: nil, place: .module(module.name), name: nil,
                    detail: nil, old: nil, new: rangesText(ranges),
                    reason: "a new module, id \(newIndex + 1), with an enum of its own",
                    sortCode: ranges.first?.lowerBound ?? Int64.min, allowKeys: ["module:\(module.name)"]))
        }
        var names: [String: String] = [:]
        for (oldIndex, newIndex) in renamedTo { names[old.modules[oldIndex].name] = new.modules[newIndex].name }
        return names
    }

    // MARK: - Entries

    /// Every entry of a catalog by code, with where it is.
    private static func entries(_ catalog: CatalogDefinition) -> [Int64: (place: EntryPlace, entry: EntryDefinition)] {
        var result: [Int64: (place: EntryPlace, entry: EntryDefinition)] = [:]
        result[catalog.success.code] = (.success, catalog.success)
        for entry in catalog.base { result[entry.code] = (.base, entry) }
        for module in catalog.modules {
            for entry in module.codes { result[entry.code] = (.module(module.name), entry) }
        }
        return result
    }

    /// The Swift name a program uses for an entry: `BaseCode.name`, `StudyGroupCode.name`, or the
    /// success entry's name.
    static func generatedName(_ name: String, at place: EntryPlace) -> String {
        switch place {
        case .success: return DisplayText.bare(name)
        case .base: return "BaseCode.\(DisplayText.bare(name))"
        case .module(let module):
            return "\(DisplayText.bare(GeneratedNames.typeName(module: module))).\(DisplayText.bare(name))"
        }
    }

    /// What a code without an entry is in `catalog`: "an unrecognised code of module NAME" or "unknown".
    private static func fallback(of code: Int64, in catalog: CatalogDefinition) -> String {
        for module in catalog.modules where module.ranges.contains(where: { $0.contains(code) }) {
            return "an unrecognised code of module \(DisplayText.bare(module.name))"
        }
        return "an unknown code"
    }

    /// Appends the changes of entries; a code that moved with its module's rename can also be
    /// allowed as `module:OLD`.
    private static func entryChanges(
        _ old: CatalogDefinition, _ new: CatalogDefinition, renamed: [String: String],
        into changes: inout [CatalogChange]
    ) {
        let oldEntries = entries(old)
        let newEntries = entries(new)
        let successChanged = old.success.code != new.success.code
        for code in Set(oldEntries.keys).union(newEntries.keys).sorted() {
            let keys = [String(code)]
            switch (oldEntries[code], newEntries[code]) {
            case (let before?, nil):
                if successChanged && code == old.success.code { continue }
                changes.append(
                    CatalogChange(
                        kind: .codeRemoved, changeClass: .breaking, code: code, place: before.place,
                        name: before.entry.name, detail: nil, old: before.entry.name, new: nil,
                        reason:
                            "\(generatedName(before.entry.name, at: before.place)) is gone and \(code) is now \(fallback(of: code, in: new))",
                        sortCode: code, allowKeys: keys))
            case (nil, let after?):
                if successChanged && code == new.success.code { continue }
                changes.append(
                    CatalogChange(
                        kind: .codeAdded, changeClass: .compatible, code: code, place: after.place,
                        name: after.entry.name, detail: nil, old: nil, new: after.entry.name,
                        reason: "a new entry for a code that was \(fallback(of: code, in: old))",
                        sortCode: code, allowKeys: keys))
            case (let before?, let after?):
                var moveKeys = keys
                if let module = before.place.module, let renamedTo = renamed[module], after.place.module == renamedTo {
                    moveKeys.append("module:\(module)")
                }
                compare(code, before, after, keys: keys, moveKeys: moveKeys, into: &changes)
            case (nil, nil):
                continue
            }
        }
    }

    private static func compare(
        _ code: Int64, _ before: (place: EntryPlace, entry: EntryDefinition),
        _ after: (place: EntryPlace, entry: EntryDefinition), keys: [String], moveKeys: [String],
        into changes: inout [CatalogChange]
    ) {
        let name = after.entry.name
        if before.place != after.place {
            changes.append(
                CatalogChange(
                    kind: .codeMoved, changeClass: .breaking, code: code, place: after.place, name: name, detail: nil,
                    old: before.place.description, new: after.place.description,
                    reason:
                        "\(generatedName(before.entry.name, at: before.place)) becomes \(generatedName(name, at: after.place)), and code that handles \(before.place.description) no longer sees it",
                    sortCode: code, allowKeys: moveKeys))
        }
        if before.entry.name != name {
            changes.append(
                CatalogChange(
                    kind: .entryRenamed, changeClass: .breaking, code: code, place: after.place, name: name,
                    detail: nil, old: before.entry.name, new: name,
                    reason: after.place == .success
                        ? "the success entry's name, which classifications report (errcore_entry_name, explain), changes"
                        : "the generated name changes: \(generatedName(before.entry.name, at: after.place)) becomes \(generatedName(name, at: after.place))",
                    sortCode: code, allowKeys: keys))
        }
        let oldString = stringText(before.entry)
        let newString = stringText(after.entry)
        if oldString != newString, let oldString {
            changes.append(
                CatalogChange(
                    kind: .stringCodeChanged, changeClass: .breaking, code: code, place: after.place, name: name,
                    detail: nil, old: oldString, new: newString,
                    reason: newString == nil
                        ? "responses naming it by \(oldString) no longer classify to it"
                        : "responses naming it by \(oldString) no longer classify to it, only those naming \(newString!)",
                    sortCode: code, allowKeys: keys))
        } else if oldString != newString, let newString {
            changes.append(
                CatalogChange(
                    kind: .stringCodeAdded, changeClass: .compatible, code: code, place: after.place, name: name,
                    detail: nil, old: nil, new: newString,
                    reason: "responses naming it by \(newString) classify to it; they were unknown or unrecognised",
                    sortCode: code, allowKeys: keys))
        }
        let oldFlags = before.entry.flags
        let newFlags = after.entry.flags
        for bit in 0..<8 {
            let flag = CodeFlags(rawValue: 1 << bit)
            guard oldFlags.contains(flag) != newFlags.contains(flag), let flagName = flag.names.first else { continue }
            let rule = flagRule(flag)
            changes.append(
                CatalogChange(
                    kind: newFlags.contains(flag) ? .flagAdded : .flagRemoved, changeClass: rule.changeClass,
                    code: code,
                    place: after.place, name: name, detail: flagName, old: flagsText(oldFlags),
                    new: flagsText(newFlags), reason: rule.reason, sortCode: code, allowKeys: keys))
        }
        textChanges(
            before.entry.message, after.entry.message, what: "message", code: code, place: after.place, name: name,
            kinds: (.messageChanged, .languageAdded, .languageRemoved), sortCode: code, allowKeys: keys,
            into: &changes)
    }

    /// An entry's string code as a change shows it: `"string"` in `namespace "ns"` or in the catalog's
    /// own; `nil` when it has none.
    static func stringText(_ entry: EntryDefinition) -> String? {
        guard let string = entry.string else { return nil }
        let namespace = entry.namespace.flatMap { $0.isEmpty ? nil : $0 }
        return "\(DisplayText.quoted(string)) in "
            + (namespace.map { "namespace \(DisplayText.quoted($0))" } ?? "the catalog's own namespace")
    }

    /// How a change of `flag` is classed, and why.
    static func flagRule(_ flag: CodeFlags) -> (changeClass: ChangeClass, reason: String) {
        switch flag {
        case .retryable:
            return (.breaking, "behaviour: RetryPolicy retries retryable codes and the recovery offers Try Again")
        case .reauthenticate:
            return (.breaking, "behaviour: an AuthenticationSession renews the session and the recovery offers Sign In")
        case .fatal:
            return (.breaking, "behaviour: a fatal code ends the flow and is never retried")
        case .showUser:
            return (
                .compatible, "presentation: a hint that the message is meant for the user; SwiftErr does not act on it"
            )
        default:
            return (
                .breaking, "an application flag: the app gives it its meaning, so errcat cannot tell it is harmless"
            )
        }
    }

    /// "[reauthenticate, showUser]", "[]".
    static func flagsText(_ flags: CodeFlags) -> String {
        "[" + flags.names.joined(separator: ", ") + "]"
    }

    /// The languages either text has, by tag (byte by byte), each with its own text in the old and
    /// the new version (nil where that version has no translation into it).
    static func translations(_ old: LocalizedText, _ new: LocalizedText) -> [(tag: String, old: String?, new: String?)]
    {
        Set(old.languages + new.languages)
            .sorted { $0.tag.utf8.lexicographicallyPrecedes($1.tag.utf8) }
            .map { language in (language.tag, old[language], new[language]) }
    }

    private static func textChanges(
        _ old: LocalizedText, _ new: LocalizedText, what: String, code: Int64?, place: EntryPlace, name: String?,
        kinds: (changed: ChangeKind, added: ChangeKind, removed: ChangeKind), sortCode: Int64, allowKeys: [String],
        into changes: inout [CatalogChange]
    ) {
        for (tag, oldText, newText) in translations(old, new) {
            guard oldText != newText else { continue }
            let kind: ChangeKind
            let reason: String
            switch (oldText, newText) {
            case (nil, _?):
                kind = kinds.added
                reason = "text: a new translation"
            case (_?, nil):
                kind = kinds.removed
                reason = "text: the \(what) falls back to another language in \(tag)"
            default:
                kind = kinds.changed
                reason = "text only"
            }
            changes.append(
                CatalogChange(
                    kind: kind, changeClass: .compatible, code: code, place: place, name: name, detail: tag,
                    old: oldText, new: newText, reason: reason, sortCode: sortCode, allowKeys: allowKeys))
        }
    }
}
