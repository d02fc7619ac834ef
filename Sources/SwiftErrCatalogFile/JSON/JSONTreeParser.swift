import SwiftErr

/// Parses one JSON document into a tree of ``JSONNode``s that remember where each value starts,
/// so catalog problems can be reported with line and column. The bytes are read by the one
/// ``JSONScanner``: the same grammar, UTF-8 rules and nesting limit as response envelopes.
package struct JSONTreeParser {
    private var scanner: JSONScanner
    private var depth = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        scanner = JSONScanner(bytes)
    }

    /// Parses the whole input as exactly one JSON value surrounded by optional whitespace.
    /// A UTF-8 byte order mark at the start is skipped.
    /// - Parameter bytes: The document.
    /// - Returns: The root value.
    /// - Throws: `JSONSyntaxError` at the first syntax error.
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONTreeParser(bytes)
        parser.scanner.skipByteOrderMark()
        parser.scanner.skipWhitespace()
        let root = try parser.parseValue()
        parser.scanner.skipWhitespace()
        guard parser.scanner.atEnd else { throw parser.scanner.fail("the end of the input after the JSON value") }
        return root
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        let start = scanner.position
        switch try scanner.kindAhead() {
        case .object: return JSONNode(offset: start, value: try parseObject())
        case .array: return JSONNode(offset: start, value: try parseArray())
        case .string: return JSONNode(offset: start, value: .string(try readString()))
        case .bool:
            let isTrue = scanner.peek == UInt8(ascii: "t")
            try scanner.literal(isTrue ? "true" : "false")
            return JSONNode(offset: start, value: .bool(isTrue))
        case .null:
            try scanner.literal("null")
            return JSONNode(offset: start, value: .null)
        case .integer, .nonIntegerNumber:
            let integral = try scanner.scanNumber()
            let range = start..<scanner.position
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: scanner.bytes[range]), as: UTF8.self)
            let integer = integral ? scanner.integerValue(of: range) : nil
            return JSONNode(
                offset: start,
                value: .number(JSONNumber(text: text, integer: integer, hasFractionOrExponent: !integral)))
        }
    }

    /// A string value, decoded (the scanner has validated its UTF-8 and escapes).
    private mutating func readString() throws(JSONSyntaxError) -> String {
        String(decoding: try scanner.readString(), as: UTF8.self)
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONScanner.depthLimit {
            throw JSONSyntaxError(reason: .nestingTooDeep(limit: JSONScanner.depthLimit), offset: scanner.position)
        }
        scanner.position += 1  // '{' or '['
        scanner.skipWhitespace()
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var members: [JSONMember] = []
        if scanner.peek == UInt8(ascii: "}") {
            scanner.position += 1
            return .object(members)
        }
        while true {
            scanner.skipWhitespace()
            let keyOffset = scanner.position
            guard scanner.peek == UInt8(ascii: "\"") else { throw scanner.fail("a string") }
            let key = try readString()
            scanner.skipWhitespace()
            try scanner.expect(UInt8(ascii: ":"), "':' after an object key")
            scanner.skipWhitespace()
            members.append(JSONMember(key: key, keyOffset: keyOffset, value: try parseValue()))
            scanner.skipWhitespace()
            if scanner.peek == UInt8(ascii: ",") {
                scanner.position += 1
                continue
            }
            try scanner.expect(UInt8(ascii: "}"), "',' or '}' in an object")
            return .object(members)
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var elements: [JSONNode] = []
        if scanner.peek == UInt8(ascii: "]") {
            scanner.position += 1
            return .array(elements)
        }
        while true {
            scanner.skipWhitespace()
            elements.append(try parseValue())
            scanner.skipWhitespace()
            if scanner.peek == UInt8(ascii: ",") {
                scanner.position += 1
                continue
            }
            try scanner.expect(UInt8(ascii: "]"), "',' or ']' in an array")
            return .array(elements)
        }
    }
}
