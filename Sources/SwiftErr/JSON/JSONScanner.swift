/// Why bytes are not JSON, and at which byte.
package struct JSONSyntaxError: Error, Sendable, Hashable {
    /// The kinds of syntax error.
    package enum Reason: Sendable, Hashable {
        /// Something else was expected at the offset, e.g. `"',' or '}' in an object"`.
        case expected(String)
        /// A string is not valid UTF-8.
        case invalidUTF8
        /// Arrays and objects are nested deeper than ``JSONScanner/depthLimit``.
        case nestingTooDeep(limit: Int)
    }

    /// What is wrong.
    package var reason: Reason
    /// The 0-based byte offset where it was found.
    package var offset: Int

    /// Creates an error.
    /// - Parameters:
    ///   - reason: What is wrong.
    ///   - offset: The 0-based byte offset where it was found.
    package init(reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// One English phrase, e.g. "expected a value" or "invalid UTF-8 in a string".
    package var message: String {
        switch reason {
        case .expected(let what): return "expected \(what)"
        case .invalidUTF8: return "invalid UTF-8 in a string"
        case .nestingTooDeep(let limit): return "values nested deeper than \(limit) levels"
        }
    }
}

/// The one JSON scanner: validating and non-allocating (except for decoded strings), over raw
/// bytes. Response envelopes are read with it (three members read, everything else skipped) and
/// catalog files are parsed with it into a tree (`JSONTreeParser`, in `SwiftErrCatalogFile`).
///
/// It follows RFC 8259: strings must be valid UTF-8 without raw control characters, numbers
/// follow the JSON grammar (no leading zeros), and only `true`, `false` and `null` are literals.
///
/// Speed: bytes are read through a plain pointer (the buffer is never empty of an address, see
/// `base`), whitespace costs one comparison when there is none, and strings are crossed eight
/// bytes at a time (a word-at-a-time test for `"`, `\`, control bytes and non-ASCII bytes), so
/// the usual short ASCII strings take one or two steps.
package struct JSONScanner {
    /// The deepest nesting of arrays and objects accepted.
    package static let depthLimit = 512

    package let bytes: UnsafeRawBufferPointer
    package var position = 0
    /// The first byte; for an empty buffer an address that is never read (every read is
    /// guarded by `position < count`).
    @usableFromInline let base: UnsafePointer<UInt8>
    /// `bytes.count`.
    @usableFromInline let count: Int

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.count = bytes.count
        self.base =
            bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            ?? UnsafePointer(bitPattern: MemoryLayout<UInt64>.alignment)!
    }

    /// Starts after a UTF-8 byte order mark, when the bytes begin with one.
    package mutating func skipByteOrderMark() {
        if position == 0, count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
            position = 3
        }
    }

    package var atEnd: Bool { position >= count }

    /// The byte at the current position, or `nil` at the end.
    package var peek: UInt8? { position < count ? base[position] : nil }

    /// Whether the byte at the current position is `byte` (false at the end).
    @inline(__always)
    package func at(_ byte: UInt8) -> Bool {
        position < count && base[position] == byte
    }

    package func fail(_ expected: String) -> JSONSyntaxError {
        JSONSyntaxError(reason: .expected(expected), offset: position)
    }

    /// Skips JSON whitespace (space, tab, LF, CR). One comparison when there is none: every
    /// whitespace byte is at most 0x20 and every byte that may follow it is above. A single space
    /// (`", "`, `": "`, as most encoders write) is stepped over in place; a longer run is skipped
    /// out of line.
    @inline(__always)
    package mutating func skipWhitespace() {
        Self.skipWhitespace(base, count, &position)
    }

    @inline(__always)
    static func skipWhitespace(_ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int) {
        guard position < count && base[position] <= 0x20 else { return }
        if base[position] == 0x20 && position &+ 1 < count && base[position &+ 1] > 0x20 {
            position &+= 1
            return
        }
        skipWhitespaceRun(base, count, &position)
    }

    @inline(never)
    private static func skipWhitespaceRun(_ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int) {
        while position < count {
            switch base[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position &+= 1
            default: return
            }
        }
    }

    /// The error for `what` expected at `offset`; out of line, so the scanning loops stay small.
    @inline(never)
    static func expected(_ what: StaticString, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(reason: .expected("\(what)"), offset: offset)
    }

    /// Consumes `byte` or fails saying what was expected.
    @inline(__always)
    package mutating func expect(_ byte: UInt8, _ what: StaticString) throws(JSONSyntaxError) {
        guard at(byte) else { throw Self.expected(what, at: position) }
        position += 1
    }

    /// The kind of the value starting at the current position (no bytes consumed).
    package func kindAhead() throws(JSONSyntaxError) -> JSONValueKind {
        try Self.kindAhead(base, count, position)
    }

    @inline(__always)
    static func kindAhead(_ base: UnsafePointer<UInt8>, _ count: Int, _ position: Int) throws(JSONSyntaxError)
        -> JSONValueKind
    {
        guard position < count else { throw expected("a value", at: position) }
        switch base[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try numberKind(base, count, position)
        default: throw expected("a value", at: position)
        }
    }

    @inline(never)
    private static func numberKind(_ base: UnsafePointer<UInt8>, _ count: Int, _ position: Int)
        throws(JSONSyntaxError) -> JSONValueKind
    {
        var end = position
        var value: Int64 = 0
        var overflow = false
        return try scanNumber(base, count, &end, &value, &overflow) ? .integer : .nonIntegerNumber
    }

    /// Skips one value of any kind, validating it.
    package mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
        try Self.skipValue(base, count, &position, depth: depth)
    }

    /// Enters the container whose opening byte is at `p` (nesting level `depth`): consumes the
    /// opener and the whitespace after it, and the closer too when the container is empty.
    /// - Returns: True for an empty container (`{}`, `[ ]`).
    /// - Throws: `nestingTooDeep` when `depth` reaches the limit.
    @inline(__always)
    private static func isEmptyContainer(
        _ base: UnsafePointer<UInt8>, _ count: Int, _ p: inout Int, closer: UInt8, depth: Int
    ) throws(JSONSyntaxError) -> Bool {
        guard depth < depthLimit else {
            throw JSONSyntaxError(reason: .nestingTooDeep(limit: depthLimit), offset: p)
        }
        p &+= 1
        skipWhitespace(base, count, &p)
        guard p < count && base[p] == closer else { return false }
        p &+= 1
        return true
    }

    /// Skips an object member's value or an array element inside a container at `depth`:
    /// strings and numbers in place, anything else through ``skipValue(_:_:_:depth:)``.
    @inline(__always)
    private static func skipElement(_ base: UnsafePointer<UInt8>, _ count: Int, _ p: inout Int, depth: Int)
        throws(JSONSyntaxError)
    {
        if p < count && base[p] == UInt8(ascii: "\"") {
            _ = try scanString(base, count, &p)
        } else if p < count && isDigit(base[p]) {
            var value: Int64 = 0
            var overflow = false
            _ = try scanNumber(base, count, &p, &value, &overflow)
        } else {
            try skipValue(base, count, &p, depth: depth &+ 1)
        }
    }

    /// Reads what follows a container's element: `,` (another element follows: false) or
    /// `closer` (the container ends: true), each consumed.
    /// - Throws: `problem` at the first other byte or at the end of the input.
    @inline(__always)
    private static func endOfElement(
        _ base: UnsafePointer<UInt8>, _ count: Int, _ p: inout Int, closer: UInt8, _ problem: StaticString
    ) throws(JSONSyntaxError) -> Bool {
        skipWhitespace(base, count, &p)
        guard p < count else { throw expected(problem, at: p) }
        if base[p] == UInt8(ascii: ",") {
            p &+= 1
            return false
        }
        guard base[p] == closer else { throw expected(problem, at: p) }
        p &+= 1
        return true
    }

    /// Skips one value of any kind, validating it; `depth` is the nesting level of the value.
    static func skipValue(_ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int, depth: Int)
        throws(JSONSyntaxError)
    {
        var p = position
        defer { position = p }
        guard p < count else { throw expected("a value", at: p) }
        switch base[p] {
        case UInt8(ascii: "\""):
            _ = try scanString(base, count, &p)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            var value: Int64 = 0
            var overflow = false
            _ = try scanNumber(base, count, &p, &value, &overflow)
        case UInt8(ascii: "{"):
            if try isEmptyContainer(base, count, &p, closer: UInt8(ascii: "}"), depth: depth) { return }
            while true {
                skipWhitespace(base, count, &p)
                _ = try scanString(base, count, &p)
                skipWhitespace(base, count, &p)
                guard p < count && base[p] == UInt8(ascii: ":") else {
                    throw expected("':' after an object key", at: p)
                }
                p &+= 1
                skipWhitespace(base, count, &p)
                try skipElement(base, count, &p, depth: depth)
                if try endOfElement(base, count, &p, closer: UInt8(ascii: "}"), "',' or '}' in an object") {
                    return
                }
            }
        case UInt8(ascii: "["):
            if try isEmptyContainer(base, count, &p, closer: UInt8(ascii: "]"), depth: depth) { return }
            while true {
                skipWhitespace(base, count, &p)
                try skipElement(base, count, &p, depth: depth)
                if try endOfElement(base, count, &p, closer: UInt8(ascii: "]"), "',' or ']' in an array") {
                    return
                }
            }
        case UInt8(ascii: "t"):
            try literal(base, count, &p, "true")
        case UInt8(ascii: "f"):
            try literal(base, count, &p, "false")
        case UInt8(ascii: "n"):
            try literal(base, count, &p, "null")
        default:
            throw expected("a value", at: p)
        }
    }

    package mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        try Self.literal(base, count, &position, word)
    }

    @inline(__always)
    static func literal(_ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int, _ word: StaticString)
        throws(JSONSyntaxError)
    {
        let length = word.utf8CodeUnitCount
        let text = word.utf8Start
        if length <= 8 && position &+ 8 <= count {
            var expected: UInt64 = 0
            for i in 0..<length { expected |= UInt64(text[i]) &<< UInt64(8 &* i) }
            let mask = length == 8 ? UInt64.max : (1 &<< UInt64(8 &* length)) &- 1
            let found = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            guard found & mask == expected else { throw literalError(word, at: position) }
            position &+= length
            return
        }
        guard position &+ length <= count else { throw literalError(word, at: position) }
        var i = 0
        while i < length {
            guard base[position &+ i] == text[i] else { throw literalError(word, at: position) }
            i &+= 1
        }
        position &+= length
    }

    @inline(never)
    private static func literalError(_ word: StaticString, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(reason: .expected("'\(word)'"), offset: offset)
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Scans a number. Returns `true` when it has neither fraction nor exponent.
    package mutating func scanNumber() throws(JSONSyntaxError) -> Bool {
        var value: Int64 = 0
        var overflow = false
        return try Self.scanNumber(base, count, &position, &value, &overflow)
    }

    /// Scans a number and, when it is integral, its value: `value` and `overflow` are as for
    /// ``integerValue(of:)`` (`overflow` set when it lies outside `Int64`); for a number with a
    /// fraction or an exponent they are unspecified.
    /// - Returns: `true` when the number has neither fraction nor exponent.
    @inline(__always)
    static func scanNumber(
        _ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int, _ value: inout Int64,
        _ overflow: inout Bool
    ) throws(JSONSyntaxError) -> Bool {
        let start = position
        var p = position
        let negative = p < count && base[p] == UInt8(ascii: "-")
        if negative { p &+= 1 }
        guard p < count, isDigit(base[p]) else { throw expected("a digit", at: p) }
        let digitsStart = p
        // Up to 18 digits cannot overflow a UInt64 (or an Int64); longer ones are redone exactly.
        var magnitude = UInt64(base[p] &- UInt8(ascii: "0"))
        if magnitude != 0 && p &+ 8 <= count {
            // Up to eight digits at once: find where they end, then convert them in three steps.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
            let values = word &- 0x3030_3030_3030_3030
            let notDigits = (values | (word &+ 0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080
            let digits = notDigits == 0 ? 8 : notDigits.trailingZeroBitCount &>> 3
            magnitude = Self.eightDigits(values &<< UInt64(64 &- 8 &* digits))
            p &+= digits
        } else {
            p &+= 1
        }
        if magnitude != 0 {
            while p < count {
                let digit = base[p] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                magnitude = magnitude &* 10 &+ UInt64(digit)
                p &+= 1
            }
        } else if p < count && isDigit(base[p]) {
            throw expected("a number without leading zeros", at: start)
        }
        if p < count, base[p] == UInt8(ascii: ".") || base[p] | 0x20 == UInt8(ascii: "e") {
            try scanFractionAndExponent(base, count, &p)
            position = p
            return false
        }
        position = p
        if p &- digitsStart > 18 {
            let exact = integerValue(base, start..<p)
            value = exact ?? 0
            overflow = exact == nil
        } else {
            let signed = Int64(bitPattern: magnitude)
            value = negative ? 0 &- signed : signed
            overflow = false
        }
        return true
    }

    /// The value of eight decimal digit values (0...9), the first in the lowest byte.
    @inline(__always)
    private static func eightDigits(_ values: UInt64) -> UInt64 {
        let pairs = ((values & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) &>> 8
        let quads = ((pairs & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
        return ((quads & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
    }

    /// Scans the fraction and exponent that follow a number's integer part (at least one of
    /// them starts at `position`).
    @inline(never)
    private static func scanFractionAndExponent(_ base: UnsafePointer<UInt8>, _ count: Int, _ p: inout Int)
        throws(JSONSyntaxError)
    {
        if p < count && base[p] == UInt8(ascii: ".") {
            p &+= 1
            guard p < count && isDigit(base[p]) else { throw expected("a digit after '.'", at: p) }
            while p < count && isDigit(base[p]) { p &+= 1 }
        }
        if p < count && base[p] | 0x20 == UInt8(ascii: "e") {
            p &+= 1
            if p < count && (base[p] == UInt8(ascii: "+") || base[p] == UInt8(ascii: "-")) { p &+= 1 }
            guard p < count && isDigit(base[p]) else { throw expected("a digit in the exponent", at: p) }
            while p < count && isDigit(base[p]) { p &+= 1 }
        }
    }

    /// The value of the integral JSON number in `range` (as ``scanNumber()`` accepted it), or
    /// `nil` when it lies outside `Int64`.
    package func integerValue(of range: Range<Int>) -> Int64? {
        Self.integerValue(base, range)
    }

    @inline(never)
    private static func integerValue(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> Int64? {
        var index = range.lowerBound
        let negative = base[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // Accumulate negatively so that Int64.min is representable.
        var value: Int64 = 0
        while index < range.upperBound {
            let digit = Int64(base[index] &- UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
            index += 1
        }
        if negative { return value }
        return value == Int64.min ? nil : -value
    }

    /// Skips the value here in a document that ``skipValue(depth:)`` already accepted: finds its
    /// end without checking escapes, numbers, UTF-8 or nesting again (a lookup crossing members it
    /// does not follow). On other input it stays within the bytes and stops at the end, with no
    /// error and no meaning.
    package mutating func skipValidatedValue() {
        var p = position
        defer { position = p }
        guard p < count else { return }
        switch base[p] {
        case UInt8(ascii: "\""):
            _ = Self.skipValidatedString(base, count, &p)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while p < count {
                switch base[p] {
                case UInt8(ascii: "\""):
                    _ = Self.skipValidatedString(base, count, &p)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth &+= 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth &-= 1
                    if depth == 0 {
                        p &+= 1
                        return
                    }
                default:
                    break
                }
                p &+= 1
            }
        default:
            // A number or a literal: up to the byte that ends it.
            while p < count {
                switch base[p] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return
                default: p &+= 1
                }
            }
        }
    }

    /// The string here in a validated document (``skipValidatedValue()``): the byte range of its
    /// contents and whether it holds an escape, found eight bytes at a time.
    package mutating func scanValidatedStringRange() -> (range: Range<Int>, escaped: Bool) {
        let start = position
        let escaped = Self.skipValidatedString(base, count, &position)
        return ((start &+ 1)..<max(start &+ 1, position &- 1), escaped)
    }

    /// Skips the string at `p` (its opening quote) of a validated document, stopping only at a
    /// quote or a backslash; returns whether it holds an escape.
    @inline(__always)
    private static func skipValidatedString(_ base: UnsafePointer<UInt8>, _ count: Int, _ p: inout Int) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        var escaped = false
        p &+= 1
        while true {
            if p &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
                let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
                let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
                // A zero byte of either marks a quote or a backslash; the lowest flag is a real one.
                let special = (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & (ones &* 0x80)
                if special == 0 {
                    p &+= 8
                    continue
                }
                p &+= special.trailingZeroBitCount &>> 3
            } else if p >= count {
                return escaped
            }
            switch base[p] {
            case UInt8(ascii: "\""):
                p &+= 1
                return escaped
            case UInt8(ascii: "\\"):
                escaped = true
                p &+= 2
            default:
                p &+= 1
            }
        }
    }

    /// Skips a string, validating escapes and UTF-8.
    package mutating func skipString() throws(JSONSyntaxError) {
        _ = try Self.scanString(base, count, &position)
    }

    /// Skips a string and returns the byte range of its contents (without the quotes) and
    /// whether it contains an escape; without one, the range holds the string's UTF-8 as is.
    package mutating func scanStringRange() throws(JSONSyntaxError) -> (range: Range<Int>, escaped: Bool) {
        let start = position
        let escaped = try Self.scanString(base, count, &position)
        return ((start + 1)..<(position - 1), escaped)
    }

    /// Reads a string and returns its unescaped UTF-8 bytes: a string without an escape (most)
    /// is checked eight bytes at a time and copied at once; one with an escape is decoded byte by
    /// byte.
    package mutating func readString() throws(JSONSyntaxError) -> [UInt8] {
        let start = position
        let (range, escaped) = try scanStringRange()
        if !escaped { return Array(UnsafeRawBufferPointer(rebasing: bytes[range])) }
        position = start
        return try readEscapedString()
    }

    /// Reads a string with escapes (``readString()``'s second pass), validating as it decodes.
    private mutating func readEscapedString() throws(JSONSyntaxError) -> [UInt8] {
        var out: [UInt8] = []
        guard at(UInt8(ascii: "\"")) else { throw Self.expected("a string", at: position) }
        position += 1
        var runStart = position
        while true {
            guard position < count else { throw Self.expected("'\"' to end the string", at: position) }
            let byte = base[position]
            switch byte {
            case UInt8(ascii: "\""):
                Self.append(base + runStart, position - runStart, to: &out)
                position += 1
                return out
            case UInt8(ascii: "\\"):
                Self.append(base + runStart, position - runStart, to: &out)
                Self.appendUTF8(try Self.scanEscape(base, count, &position), to: &out)
                runStart = position
            case 0..<0x20:
                throw Self.expected("no raw control character in a string", at: position)
            case 0..<0x80:
                position += 1
            default:
                try Self.skipUTF8Sequence(base, count, &position)
            }
        }
    }

    @inline(__always)
    private static func append(_ start: UnsafePointer<UInt8>, _ length: Int, to out: inout [UInt8]) {
        if length > 0 { out.append(contentsOf: UnsafeBufferPointer(start: start, count: length)) }
    }

    /// The bytes of `word` that need a closer look inside a string, as their high bits: `"`,
    /// `\`, control bytes (below 0x20) and non-ASCII bytes (0x80 and above). A flag can also be
    /// set in a byte above (later than) a flagged one, by a borrow, but never below it, so the
    /// lowest flag always marks a real such byte.
    @inline(__always)
    private static func stringSpecialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let quoteZero = (quote &- ones) & ~quote
        let backslashZero = (backslash &- ones) & ~backslash
        let control = (word &- ones &* 0x20) & ~word
        return (quoteZero | backslashZero | control | word) & (ones &* 0x80)
    }

    /// Skips the string at `position` (which must start with a quote to be one), validating
    /// escapes and UTF-8. Returns whether it contains an escape.
    @inline(__always)
    static func scanString(_ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int) throws(JSONSyntaxError)
        -> Bool
    {
        var p = position
        defer { position = p }
        guard p < count && base[p] == UInt8(ascii: "\"") else { throw expected("a string", at: p) }
        p &+= 1
        var escaped = false
        while true {
            // Eight bytes at a time while eight remain; then byte by byte.
            if p &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
                let special = stringSpecialBytes(word)
                if special == 0 {
                    p &+= 8
                    continue
                }
                p &+= special.trailingZeroBitCount &>> 3
            } else if p >= count {
                throw expected("'\"' to end the string", at: p)
            }
            let byte = base[p]
            if byte == UInt8(ascii: "\"") {
                p &+= 1
                return escaped
            }
            if byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\\") {
                p &+= 1
                continue
            }
            try scanStringSpecial(base, count, &p)
            escaped = escaped || byte == UInt8(ascii: "\\")
        }
    }

    /// Consumes an escape, or the multi-byte UTF-8 sequences that follow one another from
    /// `position` (text in most scripts but Latin is one such run), or fails on a control byte.
    @inline(never)
    private static func scanStringSpecial(_ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int)
        throws(JSONSyntaxError)
    {
        let byte = base[position]
        if byte == UInt8(ascii: "\\") {
            _ = try scanEscape(base, count, &position)
        } else if byte < 0x20 {
            throw expected("no raw control character in a string", at: position)
        } else {
            var p = position
            defer { position = p }
            repeat {
                try skipUTF8Sequence(base, count, &p)
            } while p < count && base[p] >= 0x80
        }
    }

    /// Reads the escape at `position` (a backslash) and returns its scalar.
    static func scanEscape(_ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int)
        throws(JSONSyntaxError) -> UInt32
    {
        // Escape problems are reported at the backslash that starts the escape.
        let escapeStart = position
        position += 1
        guard position < count else { throw expected("an escape character", at: escapeStart) }
        let escape = base[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""): return 0x22
        case UInt8(ascii: "\\"): return 0x5C
        case UInt8(ascii: "/"): return 0x2F
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "u"):
            guard let high = hex4(base, count, &position) else {
                throw expected("four hex digits after \\u", at: escapeStart)
            }
            if high >= 0xD800 && high <= 0xDBFF {
                guard position + 1 < count, base[position] == UInt8(ascii: "\\"),
                    base[position + 1] == UInt8(ascii: "u")
                else {
                    throw expected("a low surrogate escape after a high surrogate", at: escapeStart)
                }
                position += 2
                guard let low = hex4(base, count, &position), low >= 0xDC00 && low <= 0xDFFF else {
                    throw expected("a low surrogate escape after a high surrogate", at: escapeStart)
                }
                return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            }
            if high >= 0xDC00 && high <= 0xDFFF {
                throw expected("a high surrogate before a low surrogate escape", at: escapeStart)
            }
            return high
        default:
            throw expected("a valid escape character", at: escapeStart)
        }
    }

    /// Reads four hex digits, or returns `nil` (position unspecified) when they are not there.
    private static func hex4(_ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int) -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < count else { return nil }
            let byte = base[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence at `position` and consumes it.
    @inline(__always)
    private static func skipUTF8Sequence(_ base: UnsafePointer<UInt8>, _ count: Int, _ position: inout Int)
        throws(JSONSyntaxError)
    {
        guard let shape = UTF8SequenceShape(lead: base[position]) else {
            throw JSONSyntaxError(reason: .invalidUTF8, offset: position)
        }
        let length = shape.length
        guard position + length <= count else { throw JSONSyntaxError(reason: .invalidUTF8, offset: position) }
        let second = base[position + 1]
        guard second >= shape.lower && second <= shape.upper else {
            throw JSONSyntaxError(reason: .invalidUTF8, offset: position)
        }
        var i = 2
        while i < length {
            guard base[position + i] & 0xC0 == 0x80 else {
                throw JSONSyntaxError(reason: .invalidUTF8, offset: position)
            }
            i += 1
        }
        position += length
    }

    package static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
