// Reading a summary in one pass over its bytes, for `errcat merge`: no tree, no string per key
// or number, codes and counts parsed straight into flat buffers.
//
// The scanner reads what `classify --json` and `merge` write, and any spelling of it that
// differs only in whitespace, member order or a UTF-8 byte order mark. It answers either with
// the summary, exactly the one `SummaryFile.read` gives for those bytes, or with "not read
// here": then the merge hands the bytes to `SummaryFile.read`, which reads them completely and
// reports what is wrong and where. So the scanner never decides that a summary is bad; it gives
// up on anything it does not expect:
//
// - a member name, catalog key, reason, tier or module name that is not byte for byte one it
//   knows (an escape, another spelling, an unknown member): `SummaryFile.read` compares decoded
//   strings, which two different byte sequences can both equal;
// - a member given twice (`SummaryFile.read` takes the first);
// - a count with a sign, a fraction, an exponent or more than 19 digits, or above `Int64.max`; a
//   code outside `Int64`;
// - any JSON syntax error, a value of another kind than the schema's, a count that does not add
//   up, a code out of order.
//
// Values the schema does not interpret (`top`, the catalog's `name`) are validated with
// `JSONScanner.skipValue`, the grammar, UTF-8 rules and nesting limit `SummaryFile.read`'s
// parser (`JSONTreeParser`) applies.

import SwiftErr

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a summary must name to be added to this merge, as the bytes a summary holds: prepared
/// once from the merge's catalog.
struct SummaryExpectations {
    /// A name and what it stands for (an index into a count array).
    struct Key {
        let bytes: [UInt8]
        let index: Int
    }

    /// The catalog identity (`catalog.hash`).
    let identity: [UInt8]
    /// The catalog's module count.
    let moduleCount: Int
    /// Module names as summaries write them, in id order, each with the id that
    /// `Catalog.moduleID(named:)` (what `SummaryFile.read` asks) gives for that name; names
    /// without one are left out.
    let modules: [Key]
    /// The same keys by name.
    let modulesByName: [[UInt8]: Int]
    /// Invalid reasons by `InvalidCategory` name, in the order `SummaryFile.read` searches them.
    let reasons: [Key]
    /// Tiers by name, in the order `SummaryFile.read` searches them.
    let tiers: [Key]

    init(table: Catalog, identity: String) {
        self.identity = Array(identity.utf8)
        moduleCount = table.moduleCount
        var modules: [Key] = []
        for id in stride(from: 1, through: table.moduleCount, by: 1) {
            if let name = table.moduleName(UInt16(id)), let found = table.moduleID(named: name) {
                modules.append(Key(bytes: Array(name.utf8), index: Int(found)))
            }
        }
        self.modules = modules
        modulesByName = Dictionary(modules.map { ($0.bytes, $0.index) }, uniquingKeysWith: { first, _ in first })
        reasons = InvalidCategory.allCases.map { Key(bytes: Array($0.name.utf8), index: $0.rawValue) }
        tiers = SummaryReport.tierOrder.map { Key(bytes: Array($0.name.utf8), index: Int($0.rawValue)) }
    }
}

/// Reads summaries in one pass each (see the file's comment); keeps the buffers of the codes
/// for the next summary.
final class SummaryScanner {
    let expected: SummaryExpectations
    /// The counts of the last summary read, `codes` left empty (they are in ``codes``/``counts``).
    private(set) var data: SummaryData
    /// The codes of the last summary read, ascending; ``pairCount`` of them.
    private(set) var codes: UnsafeMutablePointer<Int64>
    /// Their counts.
    private(set) var counts: UnsafeMutablePointer<UInt64>
    /// The number of codes of the last summary read.
    private(set) var pairCount = 0
    /// Room in `codes` and `counts`.
    private var capacity: Int

    init(_ expected: SummaryExpectations) {
        self.expected = expected
        data = SummaryData(moduleCount: expected.moduleCount)
        capacity = 1024
        codes = .allocate(capacity: capacity)
        counts = .allocate(capacity: capacity)
    }

    deinit {
        codes.deallocate()
        counts.deallocate()
    }

    /// The codes of the last summary read, as `SummaryData.codes` holds them.
    var codePairs: [(code: Int64, count: UInt64)] {
        (0..<pairCount).map { (codes[$0], counts[$0]) }
    }

    /// Top-level members, as bits of `seen`.
    private enum Member: Int, CaseIterable {
        case schema, catalog, total, valid, invalid, untracked, invalidReasons, tiers, modules, unrecognised, codes
        case top

        static let names: [[UInt8]] = [
            "schema", "catalog", "total", "valid", "invalid", "untracked", "invalidReasons", "tiers", "modules",
            "unrecognised", "codes", "top",
        ].map { Array($0.utf8) }
        /// Every member but `top` (which `SummaryFile.read` does not read).
        static let required: UInt32 = (1 << UInt32(top.rawValue)) - 1
    }

    private static let schema = Array(SummaryData.schema.utf8)
    private static let hashKey = Array("hash".utf8)
    private static let nameKey = Array("name".utf8)

    /// Reads one summary.
    /// - Parameter bytes: The file's bytes.
    /// - Returns: true with ``data``, ``codes`` and ``counts`` set to what `SummaryFile.read`
    ///   returns for `bytes`; false when `bytes` hold something this scanner does not read (see
    ///   the file's comment), whether or not `SummaryFile.read` accepts it.
    func read(_ bytes: PaddedBytes) -> Bool {
        var cursor = Cursor(base: bytes.base, count: bytes.count)
        if bytes.count >= 3 && bytes.base[0] == 0xEF && bytes.base[1] == 0xBB && bytes.base[2] == 0xBF {
            cursor.position = 3
        }
        reserve(bytes.count / 5 + 1)
        pairCount = 0
        var data = SummaryData(moduleCount: expected.moduleCount)
        var total: UInt64 = 0
        var valid: UInt64 = 0
        var codeSum: UInt64 = 0
        var seen: UInt32 = 0
        cursor.skipWhitespace()
        guard cursor.take(UInt8(ascii: "{")) else { return false }
        repeat {
            cursor.skipWhitespace()
            guard let key = cursor.plainString(),
                let member = Member.names.firstIndex(where: { cursor.equals(key, $0) }),
                seen & (1 << UInt32(member)) == 0
            else { return false }
            seen |= 1 << UInt32(member)
            guard cursor.colon() else { return false }
            switch Member(rawValue: member)! {
            case .schema:
                guard let value = cursor.plainString(), cursor.equals(value, Self.schema) else { return false }
            case .catalog:
                guard readCatalog(&cursor) else { return false }
            case .total:
                guard let value = cursor.count() else { return false }
                total = value
            case .valid:
                guard let value = cursor.count() else { return false }
                valid = value
            case .invalid:
                guard let value = cursor.count() else { return false }
                data.invalid = value
            case .untracked:
                guard let value = cursor.count() else { return false }
                data.untracked = value
            case .invalidReasons:
                guard readCounts(&cursor, keys: expected.reasons, byName: nil, into: &data.invalidReasons) else {
                    return false
                }
            case .tiers:
                guard readCounts(&cursor, keys: expected.tiers, byName: nil, into: &data.tiers) else { return false }
            case .modules:
                guard readCounts(&cursor, keys: expected.modules, byName: expected.modulesByName, into: &data.modules)
                else { return false }
            case .unrecognised:
                guard
                    readCounts(
                        &cursor, keys: expected.modules, byName: expected.modulesByName, into: &data.unrecognised)
                else { return false }
            case .codes:
                guard let sum = readCodes(&cursor) else { return false }
                codeSum = sum
            case .top:
                guard cursor.skipValue(depth: 1) else { return false }
            }
        } while cursor.another()
        guard cursor.take(UInt8(ascii: "}")) else { return false }
        cursor.skipWhitespace()
        guard cursor.position == bytes.count, seen & Member.required == Member.required else { return false }
        // The checks of SummaryFile.read, its wrapping sums included.
        guard data.invalid <= total, valid == total - data.invalid,
            data.invalidReasons.reduce(0, { $0 &+ $1 }) == data.invalid,
            data.tiers.reduce(0, { $0 &+ $1 }) == valid,
            codeSum &+ data.untracked == valid
        else { return false }
        data.lines = total
        self.data = data
        return true
    }

    /// `"catalog":{"name":…,"hash":"…"}` with this merge's hash; the name is any JSON value.
    private func readCatalog(_ cursor: inout Cursor) -> Bool {
        guard cursor.take(UInt8(ascii: "{")) else { return false }
        var hasName = false
        var hasHash = false
        repeat {
            cursor.skipWhitespace()
            guard let key = cursor.plainString(), cursor.colon() else { return false }
            if cursor.equals(key, Self.hashKey) && !hasHash {
                hasHash = true
                guard let value = cursor.plainString(), cursor.equals(value, expected.identity) else { return false }
            } else if cursor.equals(key, Self.nameKey) && !hasName {
                hasName = true
                guard cursor.skipValue(depth: 2) else { return false }
            } else {
                return false
            }
        } while cursor.another()
        return cursor.take(UInt8(ascii: "}")) && hasHash
    }

    /// An object of counts by name (`{}` included); a later count of a name replaces an earlier
    /// one, as in `SummaryFile.read`.
    private func readCounts(
        _ cursor: inout Cursor, keys: [SummaryExpectations.Key], byName: [[UInt8]: Int]?, into counts: inout [UInt64]
    ) -> Bool {
        guard cursor.take(UInt8(ascii: "{")) else { return false }
        cursor.skipWhitespace()
        if cursor.take(UInt8(ascii: "}")) { return true }
        var next = 0
        repeat {
            cursor.skipWhitespace()
            guard let key = cursor.plainString() else { return false }
            let index: Int
            if next < keys.count && cursor.equals(key, keys[next].bytes) {
                index = keys[next].index
                next += 1
            } else if let byName {
                guard let found = byName[cursor.copy(key)] else { return false }
                index = found
            } else {
                guard let found = keys.first(where: { cursor.equals(key, $0.bytes) }) else { return false }
                index = found.index
            }
            guard cursor.colon(), let value = cursor.count() else { return false }
            counts[index] = value
        } while cursor.another()
        return cursor.take(UInt8(ascii: "}"))
    }

    /// `"codes"`: `[[code, count], …]`, codes strictly ascending, into `codes` and `counts`.
    /// - Returns: The counts' sum (wrapping, as `SummaryFile.read` adds them), or nil.
    private func readCodes(_ cursor: inout Cursor) -> UInt64? {
        guard cursor.take(UInt8(ascii: "[")) else { return nil }
        cursor.skipWhitespace()
        if cursor.take(UInt8(ascii: "]")) { return 0 }
        // The pairs in their compact form `[code,count],` with the position in a local; any
        // other byte where whitespace may be (it is checked, one comparison) goes through the
        // cursor. Every pair takes at least five bytes, and `reserve` made room for count / 5 + 1.
        let base = cursor.base
        let codes = self.codes
        let counts = self.counts
        var p = cursor.position
        var pairs = 0
        var sum: UInt64 = 0
        var previous = Int64.min
        @inline(__always) func whitespace() {
            if base[p] <= 0x20 {
                cursor.position = p
                cursor.skipWhitespace()
                p = cursor.position
            }
        }
        while true {
            guard base[p] == UInt8(ascii: "[") else { return nil }
            p &+= 1
            whitespace()
            guard let code = Cursor.code(base, &p) else { return nil }
            whitespace()
            guard base[p] == UInt8(ascii: ",") else { return nil }
            p &+= 1
            whitespace()
            guard let count = Cursor.count(base, &p) else { return nil }
            whitespace()
            guard base[p] == UInt8(ascii: "]"), pairs == 0 || code > previous else { return nil }
            p &+= 1
            previous = code
            codes[pairs] = code
            counts[pairs] = count
            pairs &+= 1
            sum &+= count
            whitespace()
            guard base[p] == UInt8(ascii: ",") else { break }
            p &+= 1
            whitespace()
        }
        guard base[p] == UInt8(ascii: "]") else { return nil }
        cursor.position = p &+ 1
        pairCount = pairs
        return sum
    }

    /// Makes room for `pairs` codes and counts.
    private func reserve(_ pairs: Int) {
        guard pairs > capacity else { return }
        codes.deallocate()
        counts.deallocate()
        while capacity < pairs { capacity *= 2 }
        codes = .allocate(capacity: capacity)
        counts = .allocate(capacity: capacity)
    }
}

/// A position in padded bytes (``PaddedBytes``): every read is of a byte at or before the first
/// padding byte, because the position only moves past a byte it has compared with something
/// other than zero.
private struct Cursor {
    let base: UnsafePointer<UInt8>
    /// The number of bytes (the padding starts here).
    let end: Int
    var position = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.end = count
    }

    /// Skips JSON whitespace (space, tab, LF, CR). One comparison when there is none: every
    /// whitespace byte is at most 0x20 and every byte that may follow it is above.
    @inline(__always)
    mutating func skipWhitespace() {
        if base[position] <= 0x20 { skipWhitespaceRun() }
    }

    @inline(never)
    private mutating func skipWhitespaceRun() {
        while true {
            let byte = base[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position &+= 1
        }
    }

    /// Consumes `byte` if it is next.
    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        guard base[position] == byte else { return false }
        position &+= 1
        return true
    }

    /// Whitespace, `:`, whitespace.
    @inline(__always)
    mutating func colon() -> Bool {
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { return false }
        skipWhitespace()
        return true
    }

    /// After a container's element: whitespace, then true after a `,` (consumed: another
    /// element follows), false otherwise (the container's closer must follow).
    @inline(__always)
    mutating func another() -> Bool {
        skipWhitespace()
        return take(UInt8(ascii: ","))
    }

    /// A count: a JSON integer from 0 to `Int64.max`, written without a sign.
    @inline(__always)
    mutating func count() -> UInt64? {
        Self.count(base, &position)
    }

    /// A code: a JSON integer in `Int64`'s range.
    @inline(__always)
    mutating func code() -> Int64? {
        Self.code(base, &position)
    }

    /// A count at `position` in `base` (see ``count()``).
    @inline(__always)
    static func count(_ base: UnsafePointer<UInt8>, _ position: inout Int) -> UInt64? {
        guard let value = digits(base, &position), value <= UInt64(Int64.max) else { return nil }
        return value
    }

    /// A code at `position` in `base` (see ``code()``).
    @inline(__always)
    static func code(_ base: UnsafePointer<UInt8>, _ position: inout Int) -> Int64? {
        if base[position] == UInt8(ascii: "-") {
            position &+= 1
            guard let magnitude = digits(base, &position), magnitude <= Int64.min.magnitude else { return nil }
            return Int64(bitPattern: 0 &- magnitude)
        }
        guard let value = digits(base, &position), value <= UInt64(Int64.max) else { return nil }
        return Int64(value)
    }

    /// Digits of a JSON integer without its sign: at most 19, no leading zero, no fraction or
    /// exponent after them.
    ///
    /// Eight bytes at a time: a word-at-a-time test finds where the digits end and three
    /// multiplies convert up to eight of them, so a number costs no loop whose exit depends on
    /// its length (the reads stay within the padding: each starts at or before a byte not yet
    /// known to be a digit).
    @inline(__always)
    static func digits(_ base: UnsafePointer<UInt8>, _ position: inout Int) -> UInt64? {
        let start = position
        var p = position
        defer { position = p }
        // One digit alone (most counts of a long tail of codes) without the word-at-a-time test.
        let first = base[p] &- UInt8(ascii: "0")
        var value: UInt64
        var length: Int
        if first < 10 && base[p &+ 1] &- UInt8(ascii: "0") >= 10 {
            p &+= 1
            value = UInt64(first)
            length = 1
        } else {
            (value, length) = eightDigits(base + p)
            p &+= length
            if length == 8 && base[p] &- UInt8(ascii: "0") < 10 {
                let (more, moreLength) = eightDigits(base + p)
                value = value &* powerOfTen(moreLength) &+ more
                p &+= moreLength
                length &+= moreLength
                while length < 20 {
                    let digit = base[p] &- UInt8(ascii: "0")
                    guard digit < 10 else { break }
                    value = value &* 10 &+ UInt64(digit)
                    p &+= 1
                    length &+= 1
                }
            }
            guard length > 0 && length <= 19 && (length == 1 || base[start] != UInt8(ascii: "0")) else {
                return nil
            }
        }
        let next = base[p]
        guard next != UInt8(ascii: ".") && next | 0x20 != UInt8(ascii: "e") else { return nil }
        return value
    }

    /// 10 to the power `exponent` (0 to 8).
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1000
        case 4: return 10000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        default: return 100_000_000
        }
    }

    /// The decimal digits at the start of the eight bytes at `bytes`: their value and how many
    /// there are (0 to 8).
    @inline(__always)
    private static func eightDigits(_ bytes: UnsafePointer<UInt8>) -> (value: UInt64, length: Int) {
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
        let values = word &- 0x3030_3030_3030_3030
        // A byte's flag is set when it is not a digit; a borrow can set flags only above (after)
        // the first such byte, so the lowest flag marks where the digits end.
        let notDigits = (values | (word &+ 0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080
        let length = notDigits == 0 ? 8 : notDigits.trailingZeroBitCount &>> 3
        guard length > 0 else { return (0, 0) }
        // The digits moved to the top bytes, zero bytes (leading zeros) below them.
        let aligned = values &<< UInt64(64 &- 8 &* length)
        let pairs = ((aligned & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) &>> 8
        let quads = ((pairs & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
        return (((quads & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32, length)
    }

    /// A string without escapes: the range of its bytes (its UTF-8, validated).
    mutating func plainString() -> Range<Int>? {
        var scanner = JSONScanner(UnsafeRawBufferPointer(start: base, count: end))
        scanner.position = position
        guard let string = try? scanner.scanStringRange(), !string.escaped else { return nil }
        position = scanner.position
        return string.range
    }

    /// Skips and validates any value nested `depth` levels in the document (see
    /// `JSONScanner.skipValue(depth:)`).
    mutating func skipValue(depth: Int) -> Bool {
        var scanner = JSONScanner(UnsafeRawBufferPointer(start: base, count: end))
        scanner.position = position
        guard (try? scanner.skipValue(depth: depth)) != nil else { return false }
        position = scanner.position
        return true
    }

    /// Whether the bytes in `range` are `expected`.
    func equals(_ range: Range<Int>, _ expected: [UInt8]) -> Bool {
        guard range.count == expected.count else { return false }
        return expected.withUnsafeBufferPointer { expected in
            guard let start = expected.baseAddress else { return true }
            return memcmp(base + range.lowerBound, start, expected.count) == 0
        }
    }

    /// The bytes in `range`.
    func copy(_ range: Range<Int>) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }
}
