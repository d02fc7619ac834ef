// The counts behind `classify`'s summary: per tier, per module, per code, per invalid reason.
// Memory is bounded: entries are counted by index; codes without an entry are counted
// individually up to `maxTrackedCodes` distinct values, the rest only in aggregate.

import SwiftErr

/// Counters for one `classify` run.
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
    /// Lines per code, for codes without an entry, while fewer than `maxTrackedCodes` are known.
    private(set) var otherCodes: [Int64: UInt64] = [:]
    /// Lines whose code had no entry and arrived after `otherCodes` was full.
    private(set) var untracked: UInt64 = 0
    /// Invalid lines per reason category.
    private(set) var invalidReasons: [String: UInt64] = [:]

    init(table: Catalog) {
        modules = [UInt64](repeating: 0, count: table.moduleCount + 1)
        unrecognised = [UInt64](repeating: 0, count: table.moduleCount + 1)
        entries = [UInt64](repeating: 0, count: table.entryCount)
    }

    /// Counts one invalid line.
    mutating func addInvalid(_ problem: LineProblem) {
        lines += 1
        invalid += 1
        invalidReasons[problem.category, default: 0] += 1
    }

    /// Counts a block of classified lines.
    mutating func add(codes: UnsafeBufferPointer<Int64>, classes: UnsafeBufferPointer<Classification>) {
        lines += UInt64(codes.count)
        var other: [Int64] = []
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
                                other.append(codes[index])
                            }
                        }
                    }
                }
            }
        }
        for code in other {
            if let count = otherCodes[code] {
                otherCodes[code] = count + 1
            } else if otherCodes.count < ClassifyTally.maxTrackedCodes {
                otherCodes[code] = 1
            } else {
                untracked += 1
            }
        }
    }

    /// Lines that were classified (all but the invalid ones).
    var valid: UInt64 { lines - invalid }

    /// The most frequent codes: (code, count), by count descending then code ascending.
    func topCodes(_ limit: Int, table: Catalog) -> [(code: Int64, count: UInt64)] {
        var all: [(code: Int64, count: UInt64)] = []
        for (index, count) in entries.enumerated() where count > 0 {
            all.append((table.code(at: UInt32(index)) ?? 0, count))
        }
        for (code, count) in otherCodes { all.append((code, count)) }
        all.sort { $0.count != $1.count ? $0.count > $1.count : $0.code < $1.code }
        return Array(all.prefix(limit))
    }
}
