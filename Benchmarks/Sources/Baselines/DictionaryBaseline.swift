// DictionaryBaseline.swift — the `Dictionary<Int, Entry>` baseline: an exact-match hash map from
// code to entry, as an app would write it without a table.

import CErrCore

/// What the dictionary maps each code to.
public struct DictionaryEntry: Sendable {
    /// Position of the entry in the table.
    public var index: UInt32
    /// Owning module id (0 for base tier and success).
    public var module: UInt16
    /// Entry flags.
    public var flags: UInt8
    /// The tier: 1 success, 2 base, 3 module.
    public var tier: UInt8
}

/// `Dictionary<Int, DictionaryEntry>` over every code of a table.
///
/// It answers exact matches only: an unlisted code inside a module's range is a plain miss,
/// so it does less than the C classifier (no range ownership).
public struct DictionaryBaseline: Sendable {
    /// The map.
    public let map: [Int: DictionaryEntry]

    /// Copies every code of `table` into the map.
    /// - Parameter table: a valid table.
    public init(table: UnsafePointer<errcore_table>) {
        let t = table.pointee
        var map = [Int: DictionaryEntry](minimumCapacity: t.entry_count)
        for i in 0..<t.entry_count {
            let code = t.codes[i]
            let entry = t.entries[i]
            let tier: UInt8 = code == t.success_code ? 1 : (entry.module == 0 ? 2 : 3)
            map[Int(code)] = DictionaryEntry(index: UInt32(i), module: entry.module, flags: entry.flags, tier: tier)
        }
        self.map = map
    }

    /// Looks every code up.
    /// - Parameter codes: the input codes.
    /// - Returns: a checksum of the entries found, so the work cannot be optimised away.
    @inline(never)
    public func resolve(_ codes: UnsafeBufferPointer<Int64>) -> Int {
        var sum = 0
        for code in codes {
            if let entry = map[Int(code)] {
                sum &+= Int(entry.index) &+ Int(entry.tier) << 16
            } else {
                sum &+= 0x3_0000
            }
        }
        return sum
    }
}
