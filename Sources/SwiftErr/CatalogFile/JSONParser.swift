// A small byte-level JSON parser (RFC 8259) that records where each value starts,
// so catalog problems can be reported with line and column.

/// Parses one JSON document from bytes. Strict: no comments, no trailing commas,
/// strings must be valid UTF-8 without raw control characters, nesting is limited.
struct JSONParser {
    /// Deepest nesting of arrays and objects accepted (a catalog needs 5).
    static let maxDepth = 128

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// Creates a parser over `bytes`.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses the whole input as exactly one JSON value surrounded by optional whitespace.
    /// A UTF-8 byte order mark at the start is skipped.
    /// - Returns: The root value.
    /// - Throws: `JSONSyntaxError` at the first syntax error.
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            parser.index = 3
        }
        parser.skipWhitespace()
        if parser.index == bytes.count {
            throw JSONSyntaxError(offset: parser.index, message: "the file contains no JSON value")
        }
        let root = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index != bytes.count {
            throw JSONSyntaxError(offset: parser.index, message: "unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return root
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F {
            return "character '\(Character(Unicode.Scalar(byte)))'"
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        guard index < bytes.count else {
            throw JSONSyntaxError(offset: index, message: "unexpected end of file: expected a value")
        }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONNode(offset: start, value: try parseObject())
        case UInt8(ascii: "["): return JSONNode(offset: start, value: try parseArray())
        case UInt8(ascii: "\""): return JSONNode(offset: start, value: .string(try parseString()))
        case UInt8(ascii: "t"): try expectLiteral("true"); return JSONNode(offset: start, value: .bool(true))
        case UInt8(ascii: "f"): try expectLiteral("false"); return JSONNode(offset: start, value: .bool(false))
        case UInt8(ascii: "n"): try expectLiteral("null"); return JSONNode(offset: start, value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(offset: start, value: .number(try parseNumber()))
        default:
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeCurrent()): expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { text in
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != text[offset] { return false }
            return true
        }
        guard matches else {
            throw JSONSyntaxError(offset: start, message: "invalid literal: expected '\(literal)'")
        }
        index += count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maxDepth {
            throw JSONSyntaxError(offset: index, message: "nesting deeper than \(Self.maxDepth) levels")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1  // {
        var members: [JSONMember] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw JSONSyntaxError(offset: index, message: "unexpected \(describeCurrent()): expected a quoted member name")
            }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw JSONSyntaxError(offset: index, message: "unexpected \(describeCurrent()): expected ':' after member name \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONSyntaxError(offset: index, message: "unexpected end of file: expected ',' or '}' in an object")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members)
            }
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeCurrent()): expected ',' or '}' in an object")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONSyntaxError(offset: index, message: "unexpected end of file: expected ',' or ']' in an array")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(elements)
            }
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeCurrent()): expected ',' or ']' in an array")
        }
    }

    /// Parses a string starting at the opening quote; leaves `index` after the closing quote.
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1  // opening quote
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else {
                throw JSONSyntaxError(offset: start, message: "unterminated string")
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw JSONSyntaxError(offset: start, message: "string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case 0x00..<0x20:
                throw JSONSyntaxError(offset: index, message: "control character 0x\(String(byte, radix: 16, uppercase: true)) inside a string (write it as an escape)")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
        let escapeStart = index
        index += 1  // backslash
        guard index < bytes.count else {
            throw JSONSyntaxError(offset: escapeStart, message: "unterminated escape sequence")
        }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""): utf8.append(0x22)
        case UInt8(ascii: "\\"): utf8.append(0x5C)
        case UInt8(ascii: "/"): utf8.append(0x2F)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw JSONSyntaxError(offset: escapeStart, message: "high surrogate \\u\(String(scalar, radix: 16, uppercase: true)) without a following low surrogate")
                }
                index += 2
                let low = try parseHex4(escapeStart: escapeStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONSyntaxError(offset: escapeStart, message: "high surrogate followed by \\u\(String(low, radix: 16, uppercase: true)), which is not a low surrogate")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw JSONSyntaxError(offset: escapeStart, message: "lone low surrogate \\u\(String(scalar, radix: 16, uppercase: true))")
            }
            // Valid by construction: not a surrogate, at most 0x10FFFF.
            let unicodeScalar = Unicode.Scalar(scalar)!
            utf8.append(contentsOf: UTF8.encode(unicodeScalar)!)
        default:
            throw JSONSyntaxError(offset: escapeStart, message: "invalid escape sequence")
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - index >= 4 else {
            throw JSONSyntaxError(offset: escapeStart, message: "\\u escape needs four hex digits")
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw JSONSyntaxError(offset: escapeStart, message: "\\u escape needs four hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw JSONSyntaxError(offset: start, message: "a '-' must be followed by digits")
        }
        // Accumulate as a negative number so Int64.min fits.
        var magnitude: Int64 = 0
        var fits = true
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count && isDigit(bytes[index]) {
                throw JSONSyntaxError(offset: start, message: "numbers must not have leading zeros")
            }
        } else {
            while index < bytes.count && isDigit(bytes[index]) {
                let digit = Int64(bytes[index] - UInt8(ascii: "0"))
                if fits {
                    let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (next, o2) = times10.subtractingReportingOverflow(digit)
                    if o1 || o2 { fits = false } else { magnitude = next }
                }
                index += 1
            }
        }
        var hasFractionOrExponent = false
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            hasFractionOrExponent = true
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw JSONSyntaxError(offset: start, message: "a '.' in a number must be followed by digits")
            }
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            hasFractionOrExponent = true
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw JSONSyntaxError(offset: start, message: "an exponent in a number must have digits")
            }
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        var integer: Int64? = nil
        if fits && !hasFractionOrExponent {
            if negative {
                integer = magnitude
            } else if magnitude != Int64.min {
                integer = -magnitude
            }
        }
        return JSONNumber(text: text, integer: integer, hasFractionOrExponent: hasFractionOrExponent)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
