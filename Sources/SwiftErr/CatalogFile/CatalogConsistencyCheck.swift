// The rules a catalog must follow beyond its shape — the same rules the C
// builder enforces, but every violation is reported, each with its place in the
// file and the other entry or range involved.

/// Checks a ``CatalogDraft`` for names, duplicates, range and ownership problems.
struct CatalogConsistencyCheck {
    private let draft: CatalogDraft
    private(set) var problems: [DraftProblem] = []

    /// Largest number of modules a table can hold (`ERRCORE_MAX_MODULES`).
    static let maxModules = 65535

    init(_ draft: CatalogDraft) {
        self.draft = draft
    }

    /// Runs every check and returns the problems found.
    static func problems(in draft: CatalogDraft) -> [DraftProblem] {
        var check = CatalogConsistencyCheck(draft)
        check.run()
        return check.problems
    }

    private mutating func run() {
        if draft.modules.count > Self.maxModules {
            report(
                draft.modules[Self.maxModules].offset,
                "too many modules: \(draft.modules.count) (at most \(Self.maxModules))")
        }
        checkNames()
        let ranges = checkRanges()
        checkDuplicateCodes()
        checkOwnership(sortedRanges: ranges)
    }

    // MARK: - Names

    private var allEntries: [EntryDraft] {
        var entries: [EntryDraft] = []
        if let success = draft.success { entries.append(success) }
        entries.append(contentsOf: draft.base)
        for module in draft.modules { entries.append(contentsOf: module.codes) }
        return entries
    }

    private func label(_ entry: EntryDraft) -> String {
        let name = entry.name.map { " \"\($0)\"" } ?? ""
        switch entry.scope {
        case .success: return "success entry\(name)"
        case .base: return "base entry\(name)"
        case .module(let position): return "\(moduleLabel(position)) entry\(name)"
        }
    }

    private func moduleLabel(_ position: Int) -> String {
        guard let name = draft.modules[position].name, !name.isEmpty else { return "module \(position + 1)" }
        return "module \"\(name)\""
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

    private mutating func checkNames() {
        var moduleNames: [String: Int] = [:]
        for (position, module) in draft.modules.enumerated() {
            guard let name = module.name,
                checkName(name, at: module.nameOffset, what: "module \(position + 1)")
            else { continue }
            if let earlier = moduleNames[name] {
                report(
                    module.nameOffset,
                    "duplicate module name \"\(name)\": module \(position + 1) repeats module \(earlier + 1)",
                    related: draft.modules[earlier].nameOffset)
            } else {
                moduleNames[name] = position
            }
        }
        // Entry names must be unique within their scope: the success entry and the base tier
        // share one (the base enum), each module has its own (its enum).
        var scopes: [[EntryDraft]] = [(draft.success.map { [$0] } ?? []) + draft.base]
        scopes.append(contentsOf: draft.modules.map(\.codes))
        for scope in scopes {
            var seen: [String: EntryDraft] = [:]
            for entry in scope {
                let what: String
                switch entry.scope {
                case .success: what = "the success entry"
                case .base: what = "a base entry (code \(entry.code.map(String.init) ?? "?"))"
                case .module(let position):
                    what = "an entry of \(moduleLabel(position)) (code \(entry.code.map(String.init) ?? "?"))"
                }
                guard let name = entry.name, checkName(name, at: entry.nameOffset, what: what) else { continue }
                if let earlier = seen[name] {
                    report(
                        entry.nameOffset,
                        "duplicate name \"\(name)\": \(label(entry)) (code \(entry.code.map(String.init) ?? "?")) repeats \(label(earlier)) (code \(earlier.code.map(String.init) ?? "?"))",
                        related: earlier.nameOffset)
                } else {
                    seen[name] = entry
                }
            }
        }
    }

    // MARK: - Ranges

    private static func text(_ range: RangeDraft) -> String {
        "[\(range.first), \(range.last)]"
    }

    /// Reports empty and overlapping ranges; returns the non-empty ranges sorted by first code.
    private mutating func checkRanges() -> [RangeDraft] {
        var valid: [RangeDraft] = []
        for module in draft.modules {
            for range in module.ranges {
                if range.first > range.last {
                    report(
                        range.offset,
                        "range \(Self.text(range)) of \(moduleLabel(range.module)) is empty: its first code is greater than its last"
                    )
                } else {
                    valid.append(range)
                }
            }
        }
        valid.sort { ($0.first, $0.last) < ($1.first, $1.last) }
        // Sweep: compare each range with the one reaching furthest so far.
        var furthest: RangeDraft? = nil
        for range in valid {
            if let previous = furthest, range.first <= previous.last {
                report(
                    range.offset,
                    "range \(Self.text(range)) of \(moduleLabel(range.module)) overlaps range \(Self.text(previous)) of \(moduleLabel(previous.module))",
                    related: previous.offset)
            }
            if furthest == nil || range.last > furthest!.last {
                furthest = range
            }
        }
        return valid
    }

    /// The range that contains `code`, if any (the earliest-starting one when ranges overlap).
    /// `reach[i]` is the largest `last` among `sorted[0...i]`, which bounds the backward scan.
    private func range(containing code: Int64, in sorted: [RangeDraft], reach: [Int64]) -> RangeDraft? {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid].first <= code { low = mid + 1 } else { high = mid }
        }
        var index = low - 1
        var found: RangeDraft? = nil
        while index >= 0 && reach[index] >= code {
            if sorted[index].last >= code { found = sorted[index] }
            index -= 1
        }
        return found
    }

    // MARK: - Codes

    private mutating func checkDuplicateCodes() {
        var seen: [Int64: EntryDraft] = [:]
        for entry in allEntries {
            guard let code = entry.code else { continue }
            if let earlier = seen[code] {
                report(
                    entry.codeOffset, "duplicate code \(code): \(label(entry)) repeats \(label(earlier))",
                    related: earlier.codeOffset)
            } else {
                seen[code] = entry
            }
        }
    }

    private mutating func checkOwnership(sortedRanges: [RangeDraft]) {
        var reach: [Int64] = []
        reach.reserveCapacity(sortedRanges.count)
        for range in sortedRanges { reach.append(max(reach.last ?? Int64.min, range.last)) }
        func findOwner(of code: Int64) -> RangeDraft? {
            range(containing: code, in: sortedRanges, reach: reach)
        }
        if let success = draft.success, let code = success.code,
            let owner = findOwner(of: code)
        {
            report(
                success.codeOffset,
                "the success code \(code) lies in range \(Self.text(owner)) of \(moduleLabel(owner.module))",
                related: owner.offset)
        }
        for entry in draft.base {
            guard let code = entry.code, let owner = findOwner(of: code) else { continue }
            report(
                entry.codeOffset,
                "code \(code) of \(label(entry)) lies in range \(Self.text(owner)) of \(moduleLabel(owner.module)); a base code must be outside every module range",
                related: owner.offset)
        }
        for module in draft.modules {
            for entry in module.codes {
                guard let code = entry.code, case .module(let position) = entry.scope else { continue }
                let own = module.ranges.contains { $0.first <= code && code <= $0.last }
                if own { continue }
                var message = "code \(code) of \(label(entry)) lies outside every range of \(moduleLabel(position))"
                let owner = findOwner(of: code)
                if let owner {
                    message += "; it is in range \(Self.text(owner)) of \(moduleLabel(owner.module))"
                } else if let success = draft.success, success.code == code {
                    message += "; it is the success code"
                }
                report(entry.codeOffset, message, related: owner?.offset)
            }
        }
    }

    private mutating func report(_ offset: Int, _ message: String, related: Int? = nil) {
        problems.append(DraftProblem(offset: offset, message: message, relatedOffset: related))
    }
}
