import SwiftErrCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// Finds the value at a path of ``ShapeDefinition/PathStep``s in a JSON document: the byte offset
/// where it starts and its kind, or `nil` when the document has no value there.
///
/// The document must be valid JSON (``JSONScanner/skipValue(depth:)`` over it succeeded): the
/// lookup crosses the members and elements before the one it follows without checking them
/// again (``JSONScanner/skipValidatedValue()``, stopping only at quotes, backslashes and
/// brackets), so it reads each byte at most once per path, and allocates only to decode a key or
/// a compared value that holds escapes. Keys compare as their unescaped
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
        try find(JSONPath(path))
    }

    /// The value at `path`, as ``find(_:)-([ShapeDefinition.PathStep])`` finds it.
    /// - Parameters:
    ///   - path: The path.
    ///   - resuming: Where to start instead of the document's start: the offset of the value that
    ///     the first `steps` steps of `path` lead to (as a `trail` of a path with those steps
    ///     recorded it), so that paths with a common beginning walk it once.
    ///   - trail: At least `path.steps.count + 1` offsets: entry `i` is set to the offset of the
    ///     value the first `i` steps lead to, for each step the walk gets past; others are left
    ///     as they are.
    package mutating func find(
        _ path: JSONPath, resuming: (steps: Int, offset: Int)? = nil, trail: UnsafeMutableBufferPointer<Int>? = nil
    ) throws(JSONSyntaxError) -> (offset: Int, kind: JSONValueKind)? {
        var first = 0
        if let resuming {
            scanner.position = resuming.offset
            first = resuming.steps
        } else {
            scanner.position = 0
            scanner.skipByteOrderMark()
            scanner.skipWhitespace()
        }
        trail?[first] = scanner.position
        var depth = first
        // The steps' strings are read in place (Array.withUnsafeBytes does not carry a typed throw:
        // a syntax error is kept and thrown after it).
        var failure: JSONSyntaxError? = nil
        let reached = path.bytes.withUnsafeBytes { strings -> Bool in
            do throws(JSONSyntaxError) {
                return try follow(path, from: &depth, strings: strings, trail: trail)
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        guard reached else { return nil }
        return (scanner.position, try scanner.kindAhead())
    }

    /// Follows `path`'s steps from `depth` on, recording the trail: true when every step found its
    /// value (the scanner is at it), false when one found none.
    private mutating func follow(
        _ path: JSONPath, from depth: inout Int, strings: UnsafeRawBufferPointer,
        trail: UnsafeMutableBufferPointer<Int>?
    ) throws(JSONSyntaxError) -> Bool {
        while depth < path.steps.count {
            let found: Bool
            switch path.steps[depth] {
            case .key(let key):
                found = try enterMember(UnsafeRawBufferPointer(rebasing: strings[key]))
            case .index(let index):
                found = try enterElement { position, _ throws(JSONSyntaxError) in position == index }
            case .firstWhere(let key, let value):
                found = try enterElement { _, lookup throws(JSONSyntaxError) in
                    try lookup.memberIsString(
                        UnsafeRawBufferPointer(rebasing: strings[key]),
                        equalTo: UnsafeRawBufferPointer(rebasing: strings[value]))
                }
            }
            guard found else { return false }
            depth += 1
            trail?[depth] = scanner.position
        }
        return true
    }

    /// At an object: moves to the value of its first member named `key` and returns true; false
    /// when the value here is not an object or has no such member.
    private mutating func enterMember(_ key: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> Bool {
        guard scanner.at(UInt8(ascii: "{")) else { return false }
        scanner.position += 1
        scanner.skipWhitespace()
        if scanner.at(UInt8(ascii: "}")) { return false }
        while true {
            let matches = try stringHere(equals: key)
            scanner.skipWhitespace()
            try scanner.expect(UInt8(ascii: ":"), "':'")
            scanner.skipWhitespace()
            if matches { return true }
            scanner.skipValidatedValue()
            scanner.skipWhitespace()
            if scanner.at(UInt8(ascii: ",")) {
                scanner.position += 1
                scanner.skipWhitespace()
            } else {
                return false
            }
        }
    }

    /// Reads the string here and tells whether its unescaped bytes are `bytes`: compared where it
    /// lies when it has no escape (no copy), decoded first when it has one.
    private mutating func stringHere(equals bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> Bool {
        let start = scanner.position
        let (range, escaped) = scanner.scanValidatedStringRange()
        if !escaped {
            guard range.count == bytes.count else { return false }
            guard range.count > 0 else { return true }
            return memcmp(scanner.bytes.baseAddress! + range.lowerBound, bytes.baseAddress!, range.count) == 0
        }
        scanner.position = start
        return try scanner.readString().elementsEqual(bytes)
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
            scanner.skipValidatedValue()
            scanner.skipWhitespace()
            guard scanner.at(UInt8(ascii: ",")) else { return false }
            scanner.position += 1
            scanner.skipWhitespace()
            index += 1
        }
    }

    /// At an object: whether its member `key` is a string whose unescaped bytes are `value`
    /// (false when this is not an object, has no such member, or it is of another kind).
    private mutating func memberIsString(
        _ key: UnsafeRawBufferPointer, equalTo value: UnsafeRawBufferPointer
    ) throws(JSONSyntaxError) -> Bool {
        guard try enterMember(key), scanner.at(UInt8(ascii: "\"")) else { return false }
        return try stringHere(equals: value)
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
        scanner.skipValidatedValue()
        return scanner.position
    }

    /// The boolean starting at `offset`.
    package func bool(at offset: Int) -> Bool {
        scanner.bytes[offset] == UInt8(ascii: "t")
    }
}
