import SwiftErrCore

/// Finds the value at a path of ``ShapeDefinition/PathStep``s in a JSON document: the byte offset
/// where it starts and its kind, or `nil` when the document has no value there.
///
/// The document must be valid JSON (``JSONScanner/skipValue(depth:)`` over it succeeded): the
/// lookup crosses the members and elements before the one it follows with the scanner, so it
/// reads each byte at most once per path, allocates only to decode a key or a compared value that
/// holds escapes, and keeps within the scanner's nesting limit. Keys compare as their unescaped
/// UTF-8 bytes (`"err\u006fr"` is `error`); in an object that repeats a key, the first member
/// counts.
package struct JSONPathLookup {
    private var scanner: JSONScanner

    /// A lookup over `bytes`, a valid JSON document (with or without a byte order mark).
    package init(_ bytes: UnsafeRawBufferPointer) {
        scanner = JSONScanner(bytes)
    }

    /// The value at `path`: where it starts, and its kind; `nil` when a step finds no member, no
    /// element or no matching element, or meets a value of another kind.
    package mutating func find(_ path: [ShapeDefinition.PathStep]) throws(JSONSyntaxError) -> (
        offset: Int, kind: JSONValueKind
    )? {
        scanner.position = 0
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        for (depth, step) in path.enumerated() {
            let found: Bool
            switch step {
            case .key(let key):
                found = try enterMember(Array(key.utf8), depth: depth)
            case .index(let index):
                found = try enterElement { position, _ throws(JSONSyntaxError) in position == index }
            case .firstWhere(let key, let value):
                let keyBytes = Array(key.utf8)
                let valueBytes = Array(value.utf8)
                found = try enterElement { _, lookup throws(JSONSyntaxError) in
                    try lookup.memberString(keyBytes, depth: depth + 1) == valueBytes
                }
            }
            guard found else { return nil }
        }
        return (scanner.position, try scanner.kindAhead())
    }

    /// At an object: moves to the value of its first member named `key` and returns true; false
    /// when the value here is not an object or has no such member.
    private mutating func enterMember(_ key: [UInt8], depth: Int) throws(JSONSyntaxError) -> Bool {
        guard scanner.at(UInt8(ascii: "{")) else { return false }
        scanner.position += 1
        scanner.skipWhitespace()
        if scanner.at(UInt8(ascii: "}")) { return false }
        while true {
            let matches = try readKey() == key
            scanner.skipWhitespace()
            try scanner.expect(UInt8(ascii: ":"), "':'")
            scanner.skipWhitespace()
            if matches { return true }
            try scanner.skipValue(depth: depth + 1)
            scanner.skipWhitespace()
            if scanner.at(UInt8(ascii: ",")) {
                scanner.position += 1
                scanner.skipWhitespace()
            } else {
                return false
            }
        }
    }

    /// A key's unescaped bytes (the bytes as written when it has no escape).
    private mutating func readKey() throws(JSONSyntaxError) -> [UInt8] {
        let start = scanner.position
        let (range, escaped) = try scanner.scanStringRange()
        if !escaped { return Array(UnsafeRawBufferPointer(rebasing: scanner.bytes[range])) }
        scanner.position = start
        return try scanner.readString()
    }

    /// At an array: moves to its first element for which `accept(position, lookup at it)` holds
    /// and returns true; false when the value here is not an array or no element is accepted.
    private mutating func enterElement(
        _ accept: (Int, inout JSONPathLookup) throws(JSONSyntaxError) -> Bool
    ) throws(JSONSyntaxError) -> Bool {
        guard scanner.at(UInt8(ascii: "[")) else { return false }
        scanner.position += 1
        scanner.skipWhitespace()
        if scanner.at(UInt8(ascii: "]")) { return false }
        var index = 0
        while true {
            var probe = self
            if try accept(index, &probe) { return true }
            try scanner.skipValue(depth: 1)
            scanner.skipWhitespace()
            guard scanner.at(UInt8(ascii: ",")) else { return false }
            scanner.position += 1
            scanner.skipWhitespace()
            index += 1
        }
    }

    /// At an object: the unescaped bytes of its member `key` when that is a string; `nil`
    /// otherwise (not an object, no such member, another kind).
    private mutating func memberString(_ key: [UInt8], depth: Int) throws(JSONSyntaxError) -> [UInt8]? {
        guard try enterMember(key, depth: depth), scanner.at(UInt8(ascii: "\"")) else { return nil }
        return try scanner.readString()
    }

    /// The string starting at `offset` (the lookup's document), unescaped.
    package mutating func string(at offset: Int) throws(JSONSyntaxError) -> [UInt8] {
        scanner.position = offset
        return try scanner.readString()
    }

    /// The integer starting at `offset`, or `nil` when it lies outside `Int64`.
    package mutating func integer(at offset: Int) throws(JSONSyntaxError) -> Int64? {
        scanner.position = offset
        let start = offset
        _ = try scanner.scanNumber()
        return scanner.integerValue(of: start..<scanner.position)
    }

    /// The end of the value starting at `offset` (one past its last byte).
    package mutating func end(ofValueAt offset: Int) throws(JSONSyntaxError) -> Int {
        scanner.position = offset
        try scanner.skipValue(depth: 0)
        return scanner.position
    }

    /// The boolean starting at `offset`.
    package func bool(at offset: Int) -> Bool {
        scanner.bytes[offset] == UInt8(ascii: "t")
    }
}
