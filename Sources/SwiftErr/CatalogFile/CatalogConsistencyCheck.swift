// The rules a catalog must follow beyond its shape — the same rules the C
// builder enforces, but every violation is reported, each with its place in the
// file and the other entry or range involved.

/// Checks a ``CatalogDraft`` for names, duplicates, range and ownership problems.
///
/// Every check is O(n log n) in the size of the catalog: names and codes go through
/// dictionaries, and finding the range that holds a code is a binary search.
struct CatalogConsistencyCheck {
    private let draft: CatalogDraft
    /// Where problems go; a reference, so that reporting does not mutate the check while a
    /// message (an autoclosure) reads it.
    private let sink: Sink

    private final class Sink {
        var problems: ProblemCollector
        init(_ problems: ProblemCollector) { self.problems = problems }
    }

    /// Largest number of modules a table can hold (`ERRCORE_MAX_MODULES`).
    static let maxModules = 65535

    private init(_ draft: CatalogDraft, problems: ProblemCollector) {
        self.draft = draft
        self.sink = Sink(problems)
    }

    /// Runs every check, adding the problems found to `problems`.
    static func check(_ draft: CatalogDraft, into problems: inout ProblemCollector) {
        let check = CatalogConsistencyCheck(draft, problems: problems)
        problems = ProblemCollector(limit: 0)  // drops this reference, so the sink's copy is unique
        check.run()
        problems = check.sink.problems
    }

    private func run() {
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

    private func checkNames() {
        var moduleNames: [String: Int] = [:]
        for (position, module) in draft.modules.enumerated() {
            guard let name = module.name,
                checkName(name, at: module.nameOffset, what: "module \(position + 1)")
            else { continue }
            if let earlier = moduleNames[name] {
                report(
                    module.nameOffset,
                    "duplicate module name \(DisplayText.quoted(name)): module \(position + 1) repeats module \(earlier + 1)",
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
    }

    // MARK: - Ranges

    private static func text(_ range: RangeDraft) -> String {
        "[\(range.first), \(range.last)]"
    }

    /// Reports empty and overlapping ranges; returns the non-empty ranges sorted by first code.
    private func checkRanges() -> [RangeDraft] {
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

    /// Ranges sorted by first code, with `reach[i]`, the largest `last` among `sorted[0...i]`.
    private struct RangeSearch {
        let sorted: [RangeDraft]
        let reach: [Int64]

        /// `ranges` must be sorted by first code.
        init(sorted ranges: [RangeDraft]) {
            sorted = ranges
            var reach: [Int64] = []
            reach.reserveCapacity(ranges.count)
            for range in ranges { reach.append(max(reach.last ?? Int64.min, range.last)) }
            self.reach = reach
        }

        /// The range that contains `code`, if any (the earliest-starting one when ranges overlap),
        /// in O(log n): the ranges that start at or before `code` are `sorted[..<starts]`, and the
        /// first of them to reach `code` is the first index where `reach` does.
        func range(containing code: Int64) -> RangeDraft? {
            var low = 0
            var high = sorted.count
            while low < high {
                let mid = (low + high) / 2
                if sorted[mid].first <= code { low = mid + 1 } else { high = mid }
            }
            let starts = low
            low = 0
            high = starts
            while low < high {
                let mid = (low + high) / 2
                if reach[mid] >= code { high = mid } else { low = mid + 1 }
            }
            return low < starts ? sorted[low] : nil
        }
    }

    // MARK: - Codes

    private func checkDuplicateCodes() {
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

    private func checkOwnership(sortedRanges: [RangeDraft]) {
        let owners = RangeSearch(sorted: sortedRanges)
        func findOwner(of code: Int64) -> RangeDraft? {
            owners.range(containing: code)
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
            let own = RangeSearch(
                sorted: module.ranges.filter { $0.first <= $0.last }.sorted {
                    ($0.first, $0.last) < ($1.first, $1.last)
                })
            for entry in module.codes {
                guard let code = entry.code, case .module(let position) = entry.scope else { continue }
                if own.range(containing: code) != nil { continue }
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

    private func report(_ offset: Int, _ message: @autoclosure () -> String, related: Int? = nil) {
        sink.problems.report(offset, message(), related: related)
    }
}
