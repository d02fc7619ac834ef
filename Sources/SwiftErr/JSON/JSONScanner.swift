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
/// catalog files are parsed with it into a tree (``JSONTreeParser``).
///
/// It follows RFC 8259: strings must be valid UTF-8 without raw control characters, numbers
/// follow the JSON grammar (no leading zeros), and only `true`, `false` and `null` are literals.
package struct JSONScanner {
    /// The deepest nesting of arrays and objects accepted.
    package static let depthLimit = 512

    package let bytes: UnsafeRawBufferPointer
    package var position = 0

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Starts after a UTF-8 byte order mark, when the bytes begin with one.
    package mutating func skipByteOrderMark() {
        if position == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        }
    }

    package var atEnd: Bool { position >= bytes.count }

    /// The byte at the current position, or `nil` at the end.
    package var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    package func fail(_ expected: String) -> JSONSyntaxError {
        JSONSyntaxError(reason: .expected(expected), offset: position)
    }

    package mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Consumes `byte` or fails saying what was expected.
    package mutating func expect(_ byte: UInt8, _ what: StaticString) throws(JSONSyntaxError) {
        guard peek == byte else { throw fail("\(what)") }
        position += 1
    }

    /// The kind of the value starting at the current position (no bytes consumed).
    package func kindAhead() throws(JSONSyntaxError) -> JSONValueKind {
        guard let byte = peek else { throw fail("a value") }
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            var copy = self
            return try copy.scanNumber() ? .integer : .nonIntegerNumber
        default: throw fail("a value")
        }
    }

    /// Skips one value of any kind, validating it.
    package mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
        guard let byte = peek else { throw fail("a value") }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < Self.depthLimit else {
                throw JSONSyntaxError(reason: .nestingTooDeep(limit: Self.depthLimit), offset: position)
            }
            position += 1
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                position += 1
                return
            }
            while true {
                skipWhitespace()
                try skipString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "':' after an object key")
                skipWhitespace()
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if peek == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}' in an object")
                return
            }
        case UInt8(ascii: "["):
            guard depth < Self.depthLimit else {
                throw JSONSyntaxError(reason: .nestingTooDeep(limit: Self.depthLimit), offset: position)
            }
            position += 1
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                position += 1
                return
            }
            while true {
                skipWhitespace()
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if peek == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                try expect(UInt8(ascii: "]"), "',' or ']' in an array")
                return
            }
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "t"):
            try literal("true")
        case UInt8(ascii: "f"):
            try literal("false")
        case UInt8(ascii: "n"):
            try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try scanNumber()
        default:
            throw fail("a value")
        }
    }

    package mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let start = position
        var i = 0
        let text = word.utf8Start
        while i < word.utf8CodeUnitCount {
            guard position < bytes.count, bytes[position] == text[i] else {
                position = start
                throw fail("'\(word)'")
            }
            position += 1
            i += 1
        }
    }

    /// Scans a number. Returns `true` when it has neither fraction nor exponent.
    package mutating func scanNumber() throws(JSONSyntaxError) -> Bool {
        var integral = true
        let start = position
        if peek == UInt8(ascii: "-") { position += 1 }
        guard let first = peek, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { throw fail("a digit") }
        position += 1
        if first != UInt8(ascii: "0") {
            skipDigits()
        } else if isDigit(peek) {
            throw JSONSyntaxError(reason: .expected("a number without leading zeros"), offset: start)
        }
        if peek == UInt8(ascii: ".") {
            integral = false
            position += 1
            guard isDigit(peek) else { throw fail("a digit after '.'") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            integral = false
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard isDigit(peek) else { throw fail("a digit in the exponent") }
            skipDigits()
        }
        return integral
    }

    /// The value of the integral JSON number in `range` (as ``scanNumber()`` accepted it), or
    /// `nil` when it lies outside `Int64`.
    package func integerValue(of range: Range<Int>) -> Int64? {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // Accumulate negatively so that Int64.min is representable.
        var value: Int64 = 0
        while index < range.upperBound {
            let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
            index += 1
        }
        if negative { return value }
        return value == Int64.min ? nil : -value
    }

    private func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while isDigit(peek) { position += 1 }
    }

    /// Skips a string, validating escapes and UTF-8.
    package mutating func skipString() throws(JSONSyntaxError) {
        try scanString(into: nil)
    }

    /// Skips a string and returns the byte range of its contents (without the quotes) and
    /// whether it contains an escape; without one, the range holds the string's UTF-8 as is.
    package mutating func scanStringRange() throws(JSONSyntaxError) -> (range: Range<Int>, escaped: Bool) {
        let start = position
        try scanString(into: nil)
        let range = (start + 1)..<(position - 1)
        var escaped = false
        for index in range where bytes[index] == UInt8(ascii: "\\") {
            escaped = true
            break
        }
        return (range, escaped)
    }

    /// Reads a string and returns its unescaped UTF-8 bytes.
    package mutating func readString() throws(JSONSyntaxError) -> [UInt8] {
        var out: [UInt8] = []
        try scanString(into: &out)
        return out
    }

    private mutating func scanString(into out: UnsafeMutablePointer<[UInt8]>?) throws(JSONSyntaxError) {
        try expect(UInt8(ascii: "\""), "a string")
        while true {
            guard let byte = peek else { throw fail("'\"' to end the string") }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                // Escape problems are reported at the backslash that starts the escape.
                let escapeStart = position
                func bad(_ expected: String) -> JSONSyntaxError {
                    JSONSyntaxError(reason: .expected(expected), offset: escapeStart)
                }
                position += 1
                guard let escape = peek else { throw bad("an escape character") }
                position += 1
                var scalar: UInt32
                switch escape {
                case UInt8(ascii: "\""): scalar = 0x22
                case UInt8(ascii: "\\"): scalar = 0x5C
                case UInt8(ascii: "/"): scalar = 0x2F
                case UInt8(ascii: "b"): scalar = 0x08
                case UInt8(ascii: "f"): scalar = 0x0C
                case UInt8(ascii: "n"): scalar = 0x0A
                case UInt8(ascii: "r"): scalar = 0x0D
                case UInt8(ascii: "t"): scalar = 0x09
                case UInt8(ascii: "u"):
                    guard let high = hex4() else { throw bad("four hex digits after \\u") }
                    scalar = high
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        guard peek == UInt8(ascii: "\\"), position + 1 < bytes.count,
                            bytes[position + 1] == UInt8(ascii: "u")
                        else {
                            throw bad("a low surrogate escape after a high surrogate")
                        }
                        position += 2
                        guard let low = hex4(), low >= 0xDC00 && low <= 0xDFFF else {
                            throw bad("a low surrogate escape after a high surrogate")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                        throw bad("a high surrogate before a low surrogate escape")
                    }
                default:
                    throw bad("a valid escape character")
                }
                if let out { Self.appendUTF8(scalar, to: &out.pointee) }
            case 0..<0x20:
                throw fail("no raw control character in a string")
            case 0..<0x80:
                out?.pointee.append(byte)
                position += 1
            default:
                let start = position
                let length = try utf8SequenceLength()
                if let out {
                    for i in start..<(start + length) { out.pointee.append(bytes[i]) }
                }
            }
        }
    }

    /// Reads four hex digits, or returns `nil` (position unspecified) when they are not there.
    private mutating func hex4() -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek else { return nil }
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

    /// Validates one multi-byte UTF-8 sequence at the current position and consumes it.
    private mutating func utf8SequenceLength() throws(JSONSyntaxError) -> Int {
        let lead = bytes[position]
        let invalid = JSONSyntaxError(reason: .invalidUTF8, offset: position)
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upper = 0x9F
        case 0xF0:
            length = 4
            lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upper = 0x8F
        default: throw invalid
        }
        guard position + length <= bytes.count else { throw invalid }
        let second = bytes[position + 1]
        guard second >= lower && second <= upper else { throw invalid }
        for i in 2..<max(2, length) {
            let continuation = bytes[position + i]
            guard continuation >= 0x80 && continuation <= 0xBF else { throw invalid }
        }
        position += length
        return length
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
