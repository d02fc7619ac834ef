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
/// An open-addressing table of (code, sum) entries, each entry one 16-byte slot, so that finding
/// a code costs one cache line however large the table grows (summaries of a fleet can bring
/// hundreds of thousands of distinct codes). `Int64.min` marks an empty slot; that code itself
/// is counted apart.
///
/// Summaries of one catalog list mostly the same codes in the same order, so the slot the
/// previous summary's pair at the same position used is tried first, and the hash is computed
/// only when that guess is wrong.
final class CodeSums {
    private struct Entry {
        var code: Int64
        var sum: UInt64
    }

    private static let empty = Int64.min
    private var entries: UnsafeMutablePointer<Entry>
    /// Slots − 1 (a power of two minus one).
    private var mask: Int
    /// 64 − log2(slots): the hash is the product's top bits.
    private var shift: UInt64
    /// Distinct codes in the table (`Int64.min` excluded).
    private var stored = 0
    /// The sum of `Int64.min`, when that code was added.
    private var minimumSum: UInt64? = nil
    /// The slot of each pair of the last `add`, by position: the guesses for the next one.
    private var guesses: UnsafeMutablePointer<Int>
    private var guessCapacity: Int
    /// Guesses valid (the pairs of the last `add`, or 0 after the table grew).
    private var guessCount = 0
    /// Whether more than a quarter of the guesses were wrong in the last `add`: the next one then
    /// loads the home slots of a block of pairs ahead instead of trying guesses.
    private var lookAhead = false
    /// The codes of the slots loaded ahead, combined: kept so that those loads are made.
    private var touchedCodes: Int64 = 0
    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    init() {
        mask = 2047
        shift = 64 - 11
        entries = .allocate(capacity: mask + 1)
        entries.initialize(repeating: Entry(code: Self.empty, sum: 0), count: mask + 1)
        guessCapacity = 1024
        guesses = .allocate(capacity: guessCapacity)
    }

    deinit {
        entries.deallocate()
        guesses.deallocate()
    }

    /// Distinct codes added.
    var count: Int { stored + (minimumSum == nil ? 0 : 1) }

    /// Adds `counts[i]` to the sum of `codes[i]`, for each `i` in order.
    /// - Returns: false when a sum would exceed `UInt64.max` (the sums are then partly added).
    func add(codes: UnsafePointer<Int64>, counts: UnsafePointer<UInt64>, count pairs: Int) -> Bool {
        if pairs > guessCapacity {
            guesses.deallocate()
            while guessCapacity < pairs { guessCapacity *= 2 }
            guesses = .allocate(capacity: guessCapacity)
            guessCount = 0
        }
        // Local copies of the table's pointer, its hash shift and the guesses' count (no access
        // to the object's properties per pair), taken again after a new code grew the table.
        var table = entries
        var shift = self.shift
        var guessed = guessCount
        let guesses = self.guesses
        let tryGuesses = !lookAhead
        var hits = 0
        var touched: Int64 = 0
        var pair = 0
        while pair < pairs {
            let blockEnd = min(pair + 32, pairs)
            if lookAhead {
                // Load the home slots of the next pairs before looking any of them up: the loads
                // do not wait for one another, so their cache misses overlap.
                for index in pair..<blockEnd {
                    let home = Int(truncatingIfNeeded: (UInt64(bitPattern: codes[index]) &* Self.multiplier) &>> shift)
                    touched ^= table[home].code
                }
            }
            while pair < blockEnd {
                let code = codes[pair]
                guard code != Self.empty else {
                    guesses[pair] = 0
                    guard addMinimum(counts[pair]) else {
                        guessCount = max(guessCount, pair + 1)
                        return false
                    }
                    pair += 1
                    continue
                }
                // Every guess is a slot of the table (which only grows): a wrong one costs a lookup.
                let guess = pair < guessed ? guesses[pair] : -1
                let slot: Int
                if tryGuesses && guess >= 0 && table[guess].code == code {
                    slot = guess
                    hits += 1
                } else {
                    let (found, grew) = place(of: code)
                    slot = found
                    // Looking ahead, the guess is not tried but still judged.
                    if found == guess { hits += 1 }
                    if grew {
                        table = entries
                        shift = self.shift
                        guessed = 0
                    }
                }
                guesses[pair] = slot
                let (sum, overflow) = table[slot].sum.addingReportingOverflow(counts[pair])
                if overflow {
                    guessCount = max(guessCount, pair + 1)
                    return false
                }
                table[slot].sum = sum
                pair += 1
            }
        }
        guessCount = max(guessCount, pairs)
        // Guesses of which more than a quarter fail (summaries of different codes) are not worth
        // trying; the next summary looks ahead instead.
        lookAhead = hits * 4 < pairs * 3
        touchedCodes ^= touched
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
        if let minimumSum { pairs.append((Self.empty, minimumSum)) }
        for slot in 0...mask where entries[slot].code != Self.empty {
            pairs.append((entries[slot].code, entries[slot].sum))
        }
        pairs.sort { $0.code < $1.code }
        return pairs
    }

    private func addMinimum(_ amount: UInt64) -> Bool {
        let (sum, overflow) = (minimumSum ?? 0).addingReportingOverflow(amount)
        if overflow { return false }
        minimumSum = sum
        return true
    }

    @inline(__always)
    private func home(of code: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: code) &* Self.multiplier) &>> shift)
    }

    /// The slot of `code` (not `Int64.min`), added with a sum of 0 when it is new, and whether
    /// the table grew (moving every entry).
    @inline(never)
    private func place(of code: Int64) -> (slot: Int, grew: Bool) {
        var slot = home(of: code)
        while entries[slot].code != Self.empty {
            if entries[slot].code == code { return (slot, false) }
            slot = (slot &+ 1) & mask
        }
        guard (stored + 1) * 2 > mask + 1 else {
            entries[slot].code = code
            stored += 1
            return (slot, false)
        }
        grow()
        slot = home(of: code)
        while entries[slot].code != Self.empty { slot = (slot &+ 1) & mask }
        entries[slot].code = code
        stored += 1
        return (slot, true)
    }

    /// Doubles the table and puts every entry back in it.
    private func grow() {
        let old = entries
        let oldSlots = mask + 1
        mask = mask * 2 + 1
        shift -= 1
        entries = .allocate(capacity: mask + 1)
        entries.initialize(repeating: Entry(code: Self.empty, sum: 0), count: mask + 1)
        for index in 0..<oldSlots where old[index].code != Self.empty {
            var slot = home(of: old[index].code)
            while entries[slot].code != Self.empty { slot = (slot &+ 1) & mask }
            entries[slot] = old[index]
        }
        old.deallocate()
    }
}
