// Adding summaries up: the counts every summary has (lines, reasons, tiers, modules) and the
// count of every code, each sum exact in 64 bits, an overflow reported instead of wrapped.

extension SummaryData {
    /// Adds `other`'s counts except `codes` (added by the caller). Returns false on overflow.
    mutating func add(_ other: SummaryData) -> Bool {
        var overflow = false
        func sum(_ a: inout UInt64, _ b: UInt64) {
            let (value, wrapped) = a.addingReportingOverflow(b)
            a = value
            overflow = overflow || wrapped
        }
        sum(&lines, other.lines)
        sum(&invalid, other.invalid)
        sum(&untracked, other.untracked)
        for index in invalidReasons.indices { sum(&invalidReasons[index], other.invalidReasons[index]) }
        for index in tiers.indices { sum(&tiers[index], other.tiers[index]) }
        for index in modules.indices {
            sum(&modules[index], other.modules[index])
            sum(&unrecognised[index], other.unrecognised[index])
        }
        return !overflow
    }
}

/// The sum of each code's counts over the summaries added, for any number of distinct codes.
///
/// Codes and sums sit in two dense arrays in the order the codes first came; an open-addressing
/// table maps a code to its place. Summaries of one catalog list mostly the same codes in the
/// same (ascending) order, so the place after the last code added is tried first, and the hash
/// is computed only when that guess is wrong.
final class CodeSums {
    private var codes: UnsafeMutablePointer<Int64>
    private var sums: UnsafeMutablePointer<UInt64>
    /// Room in `codes` and `sums`.
    private var capacity: Int
    /// Distinct codes added.
    private(set) var count = 0
    /// Dense index + 1 of the code in each slot; 0 for an empty slot.
    private var slots: UnsafeMutablePointer<Int>
    /// Slots − 1 (a power of two minus one).
    private var mask: Int
    /// 64 − log2(slots): the hash is the product's top bits.
    private var shift: UInt64
    /// The dense index tried first for the next code.
    private var guess = 0

    init() {
        capacity = 1024
        codes = .allocate(capacity: capacity)
        sums = .allocate(capacity: capacity)
        mask = 2047
        shift = 64 - 11
        slots = .allocate(capacity: mask + 1)
        slots.initialize(repeating: 0, count: mask + 1)
    }

    deinit {
        codes.deallocate()
        sums.deallocate()
        slots.deallocate()
    }

    /// Adds `counts[i]` to the sum of `codes[i]`, for each `i` in order.
    /// - Returns: false when a sum would exceed `UInt64.max` (the sums are then partly added).
    func add(codes newCodes: UnsafePointer<Int64>, counts: UnsafePointer<UInt64>, count pairs: Int) -> Bool {
        // The loop works on local copies of the pointers and the count (no access to the
        // object's properties per pair), taken again after a new code may have moved them.
        var known = codes
        var totals = sums
        var distinct = count
        var index = guess
        for pair in 0..<pairs {
            let code = newCodes[pair]
            if index >= distinct || known[index] != code {
                index = place(of: code)
                known = codes
                totals = sums
                distinct = count
            }
            let (sum, overflow) = totals[index].addingReportingOverflow(counts[pair])
            if overflow { return false }
            totals[index] = sum
            index &+= 1
        }
        guess = index
        return true
    }

    /// Adds `amount` to the sum of `code`.
    /// - Returns: false when the sum would exceed `UInt64.max`.
    func add(_ code: Int64, _ amount: UInt64) -> Bool {
        var code = code
        var amount = amount
        return add(codes: &code, counts: &amount, count: 1)
    }

    /// Every code added with its sum, by code ascending.
    func sorted() -> [(code: Int64, count: UInt64)] {
        var pairs: [(code: Int64, count: UInt64)] = []
        pairs.reserveCapacity(count)
        for index in 0..<count { pairs.append((codes[index], sums[index])) }
        pairs.sort { $0.code < $1.code }
        return pairs
    }

    @inline(__always)
    private func slot(of code: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: code) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// The dense index of `code`, added with a sum of 0 when it is new.
    @inline(never)
    private func place(of code: Int64) -> Int {
        var slot = slot(of: code)
        while slots[slot] != 0 {
            let index = slots[slot] &- 1
            if codes[index] == code { return index }
            slot = (slot &+ 1) & mask
        }
        if count == capacity { growDense() }
        let index = count
        codes[index] = code
        sums[index] = 0
        count += 1
        slots[slot] = index + 1
        if count * 2 > mask { growSlots() }
        return index
    }

    private func growDense() {
        let larger = capacity * 2
        let newCodes = UnsafeMutablePointer<Int64>.allocate(capacity: larger)
        let newSums = UnsafeMutablePointer<UInt64>.allocate(capacity: larger)
        newCodes.initialize(from: codes, count: count)
        newSums.initialize(from: sums, count: count)
        codes.deallocate()
        sums.deallocate()
        codes = newCodes
        sums = newSums
        capacity = larger
    }

    /// Doubles the table and puts every code back in it.
    private func growSlots() {
        slots.deallocate()
        mask = mask * 2 + 1
        shift -= 1
        slots = .allocate(capacity: mask + 1)
        slots.initialize(repeating: 0, count: mask + 1)
        for index in 0..<count {
            var slot = slot(of: codes[index])
            while slots[slot] != 0 { slot = (slot &+ 1) & mask }
            slots[slot] = index + 1
        }
    }
}
