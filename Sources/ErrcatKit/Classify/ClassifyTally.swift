// The counts behind `classify`'s summary: per tier, per module, per code, per invalid reason.
// Memory is bounded: entries are counted by index; codes without an entry are counted
// individually up to `maxTrackedCodes` distinct values, the rest only in aggregate.
//
// Tallies merge: a run over chunks of the input (`--jobs`) counts each chunk on its own and adds
// the chunks' tallies in input order, which gives exactly the tally of one pass over the input
// (see `add(_:)`).

import SwiftErr

/// Counts of codes without a catalog entry: an open-addressing hash table that remembers the
/// order in which codes first appeared, so that tallies merge in input order.
struct CodeCounter {
    private var keys: [Int64]
    private var counts: [UInt64]
    /// Slot of each code, in order of first appearance.
    private(set) var order: [Int32] = []
    private var mask: Int

    init() {
        keys = [Int64](repeating: 0, count: 64)
        counts = [UInt64](repeating: 0, count: 64)
        mask = 63
    }

    /// Distinct codes counted.
    var count: Int { order.count }

    @inline(__always)
    private static func hash(_ code: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: code) &* 0x9E37_79B9_7F4A_7C15) >> 20)
    }

    /// The slot holding `code`, or the empty slot where it would go (its count is 0).
    @inline(__always)
    private func slot(of code: Int64) -> Int {
        var slot = Self.hash(code) & mask
        while counts[slot] != 0 && keys[slot] != code { slot = (slot &+ 1) & mask }
        return slot
    }

    /// Adds `amount` (> 0) to `code`'s count; a new code is added only when `limit` distinct codes
    /// are not yet reached. Returns false when the code was new and the limit stopped it.
    @inline(__always)
    mutating func add(_ code: Int64, _ amount: UInt64, limit: Int = .max) -> Bool {
        let slot = slot(of: code)
        if counts[slot] != 0 {
            counts[slot] &+= amount
            return true
        }
        guard order.count < limit else { return false }
        keys[slot] = code
        counts[slot] = amount
        order.append(Int32(slot))
        if order.count * 2 > mask { grow() }
        return true
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldCounts = counts
        let oldOrder = order
        let capacity = (mask + 1) * 2
        keys = [Int64](repeating: 0, count: capacity)
        counts = [UInt64](repeating: 0, count: capacity)
        mask = capacity - 1
        order = []
        order.reserveCapacity(oldOrder.count)
        for old in oldOrder {
            let slot = slot(of: oldKeys[Int(old)])
            keys[slot] = oldKeys[Int(old)]
            counts[slot] = oldCounts[Int(old)]
            order.append(Int32(slot))
        }
    }

    /// Every (code, count), in order of first appearance.
    var entries: [(code: Int64, count: UInt64)] {
        order.map { (keys[Int($0)], counts[Int($0)]) }
    }

    /// Forgets every code, keeping the storage.
    mutating func removeAll() {
        for slot in order {
            counts[Int(slot)] = 0
        }
        order.removeAll(keepingCapacity: true)
    }
}

/// Why lines were invalid: the summary's categories, counted by index.
enum InvalidCategory: Int, CaseIterable {
    case empty, notACode, codeNotInteger, codeOutOfRange, tooLong, malformedJSON, invalidUTF8, notAnObject
    case missingCode, messageNotString, duplicateKey, nestingTooDeep, ambiguousShape, wrongKind, missingFlag

    /// The name in summaries, e.g. "malformed JSON".
    var name: String {
        switch self {
        case .empty: return "empty line"
        case .notACode: return "not a code"
        case .codeNotInteger: return "code not an integer"
        case .codeOutOfRange: return "code out of range"
        case .tooLong: return "line too long"
        case .malformedJSON: return "malformed JSON"
        case .invalidUTF8: return "invalid UTF-8"
        case .notAnObject: return "envelope not an object"
        case .missingCode: return "missing code"
        case .messageNotString: return "message not a string"
        case .duplicateKey: return "duplicate key"
        case .nestingTooDeep: return "nesting too deep"
        case .ambiguousShape: return "ambiguous shape"
        case .wrongKind: return "value of the wrong kind"
        case .missingFlag: return "missing failure flag"
        }
    }
}

/// Counters for one `classify` run, or for one chunk of it.
struct ClassifyTally {
    /// Distinct codes without an entry (unknown, unrecognised) counted one by one at most.
    static let maxTrackedCodes = 65_536

    private(set) var lines: UInt64 = 0
    private(set) var invalid: UInt64 = 0
    /// Indexed by `Classification.Tier.rawValue`.
    private(set) var tiers = [UInt64](repeating: 0, count: 4)
    /// Module-tier lines per module id (element 0 unused).
    private(set) var modules: [UInt64]
    /// Unrecognised module-tier lines per module id.
    private(set) var unrecognised: [UInt64]
    /// Lines per entry index.
    private(set) var entries: [UInt64]
    /// Lines per code, for codes without an entry, while fewer than `maxTrackedCodes` are known
    /// (a chunk's own tally keeps every code; the limit applies when chunks are added up).
    private(set) var otherCodes = CodeCounter()
    /// Lines whose code had no entry and arrived after `otherCodes` was full.
    private(set) var untracked: UInt64 = 0
    /// Invalid lines per `InvalidCategory`.
    private(set) var invalidReasons = [UInt64](repeating: 0, count: InvalidCategory.allCases.count)
    /// Whether `otherCodes` stops at `maxTrackedCodes` (the run's tally) or not (a chunk's).
    private let limited: Bool

    init(table: Catalog, limited: Bool = true) {
        modules = [UInt64](repeating: 0, count: table.moduleCount + 1)
        unrecognised = [UInt64](repeating: 0, count: table.moduleCount + 1)
        entries = [UInt64](repeating: 0, count: table.entryCount)
        self.limited = limited
    }

    /// Counts one invalid line.
    mutating func addInvalid(_ problem: LineProblem) {
        lines += 1
        invalid += 1
        invalidReasons[problem.category.rawValue] += 1
    }

    /// Counts a block of classified lines.
    mutating func add(codes: UnsafeBufferPointer<Int64>, classes: UnsafeBufferPointer<Classification>) {
        lines += UInt64(codes.count)
        let limit = limited ? ClassifyTally.maxTrackedCodes : .max
        var untracked: UInt64 = 0
        tiers.withUnsafeMutableBufferPointer { tiers in
            modules.withUnsafeMutableBufferPointer { modules in
                entries.withUnsafeMutableBufferPointer { entries in
                    unrecognised.withUnsafeMutableBufferPointer { unrecognised in
                        for index in 0..<codes.count {
                            let raw = classes[index].rawValue
                            let tier = Int(truncatingIfNeeded: raw >> 56) & 3
                            let module = Int(truncatingIfNeeded: (raw >> 32) & 0xFFFF)
                            let entry = UInt32(truncatingIfNeeded: raw)
                            tiers[tier] &+= 1
                            modules[module] &+= 1
                            if entry != 0xFFFF_FFFF {
                                entries[Int(entry)] &+= 1
                            } else {
                                unrecognised[module] &+= 1
                                if !otherCodes.add(codes[index], 1, limit: limit) { untracked &+= 1 }
                            }
                        }
                    }
                }
            }
        }
        self.untracked &+= untracked
    }

    /// Counts one classified line that has no integer code to count it by (a string code the
    /// catalog does not list): by tier and module, and as untracked.
    mutating func addUncoded(_ classification: Classification) {
        lines += 1
        tiers[Int(classification.tier.rawValue) & 3] += 1
        modules[Int(classification.moduleID)] += 1
        if classification.isExact {
            entries[Int(classification.entryIndex!)] += 1
        } else {
            unrecognised[Int(classification.moduleID)] += 1
            untracked += 1
        }
    }

    /// Adds the tally of the input that follows this one (a later chunk, in input order).
    ///
    /// Exactly what one pass over both inputs counts: a code without an entry that the pass
    /// would track is one already tracked here, or a new one while there is room; new codes
    /// take the room in the order they first appear in `later`, as in the pass.
    mutating func add(_ later: ClassifyTally) {
        lines += later.lines
        invalid += later.invalid
        for index in tiers.indices { tiers[index] += later.tiers[index] }
        for index in modules.indices {
            modules[index] += later.modules[index]
            unrecognised[index] += later.unrecognised[index]
        }
        for index in entries.indices { entries[index] += later.entries[index] }
        for index in invalidReasons.indices { invalidReasons[index] += later.invalidReasons[index] }
        let limit = limited ? ClassifyTally.maxTrackedCodes : .max
        for (code, count) in later.otherCodes.entries where !otherCodes.add(code, count, limit: limit) {
            untracked += count
        }
        untracked += later.untracked
    }

    /// Forgets all counts, keeping the storage (a chunk tally, reused).
    mutating func reset() {
        lines = 0
        invalid = 0
        for index in tiers.indices { tiers[index] = 0 }
        for index in modules.indices {
            modules[index] = 0
            unrecognised[index] = 0
        }
        for index in entries.indices { entries[index] = 0 }
        for index in invalidReasons.indices { invalidReasons[index] = 0 }
        otherCodes.removeAll()
        untracked = 0
    }

    /// Lines that were classified (all but the invalid ones).
    var valid: UInt64 { lines - invalid }

    /// Every code counted: (code, count), by code ascending when `ordered` (else entries first,
    /// then the other codes in the order they came).
    func allCodes(table: Catalog, ordered: Bool = true) -> [(code: Int64, count: UInt64)] {
        var all: [(code: Int64, count: UInt64)] = []
        for (index, count) in entries.enumerated() where count > 0 {
            all.append((table.code(at: UInt32(index)) ?? 0, count))
        }
        all += otherCodes.entries
        if ordered { all.sort { $0.code < $1.code } }
        return all
    }
}
