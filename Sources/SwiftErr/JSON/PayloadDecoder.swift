import Foundation

// A `Decoder` that reads a payload straight from the bytes the envelope scan has validated, with
// JSONDecoder's default strategies and JSONDecoder's results: the same values, and the same
// `DecodingError` case, coding path and debug description for every failure it reports itself.
//
// What it does not reproduce it hands back: a number JSONDecoder reads through its slow path (an
// integer with a fraction or an exponent, one out of range, a floating-point value that overflows
// or underflows, an extreme Decimal) marks the document, and the caller then decodes the whole
// payload with JSONDecoder. The mark is sticky, so a `try?` in a model's `init(from:)` cannot
// hide it. JSON objects are read into a member table per keyed container (first key wins on a
// duplicate, as in JSONDecoder); arrays are read in place.

/// Decodes payloads from validated JSON bytes (see the file comment).
enum PayloadDecoding {
    /// Decodes `type` from the value at `valueStart` in `bytes` (`nil`: a missing value, read as
    /// `null`).
    /// - Returns: The value, or `nil` when JSONDecoder must decode this payload instead.
    /// - Throws: The `DecodingError` (or the model's own error) JSONDecoder would throw.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer, valueStart: Int?) throws
        -> T?
    {
        var decoder = PayloadDecoder(
            document: PayloadDocument(bytes), value: valueStart ?? PayloadDocument.missing, path: nil)
        let result: Result<T, any Error>
        do {
            result = .success(try decoder.unwrap(T.self, at: decoder.value, parent: nil, key: nil))
        } catch {
            result = .failure(error)
        }
        if decoder.document.needsFallback { return nil }
        // Anything that outlives the decode (an escaped decoder, container or super decoder)
        // keeps reading the bytes, so they are copied before the caller's buffer goes away.
        if !isKnownUniquelyReferenced(&decoder) || !isKnownUniquelyReferenced(&decoder.document) {
            decoder.document.detach()
        }
        return try result.get()
    }
}

/// The bytes being decoded, shared by the decoder, its containers and its super decoders.
final class PayloadDocument {
    /// The value offset that stands for a `null` that is not in the bytes (a missing member).
    static let missing = -1

    private(set) var base: UnsafePointer<UInt8>
    let count: Int
    private var copy: UnsafeMutablePointer<UInt8>?
    /// Set when JSONDecoder must decode the payload (see the file comment).
    var needsFallback = false
    /// Scratch for an object's members while a keyed container is built (never reentered).
    var scratch: [PayloadMember] = []
    /// The last object indexed, so that an array element just decoded need not be skipped again.
    var lastObject: (start: Int, end: Int) = (-1, -1)

    init(_ bytes: UnsafeRawBufferPointer) {
        let scanner = JSONScanner(bytes)
        base = scanner.base
        count = scanner.count
    }

    deinit { copy?.deallocate() }

    /// Copies the bytes, so that escaped readers stay valid after the caller's buffer is gone.
    func detach() {
        guard copy == nil else { return }
        let owned = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
        owned.initialize(from: base, count: count)
        copy = owned
        base = UnsafePointer(owned)
    }

    /// Marks the document for JSONDecoder and returns the error that unwinds the decode.
    func fallback() -> PayloadFallback {
        needsFallback = true
        return PayloadFallback()
    }
}

/// Unwinds a decode that JSONDecoder must redo (never seen by callers of `PayloadDecoding`).
struct PayloadFallback: Error {}

/// One step of a coding path, in a list shared by the containers made below it.
final class PayloadPath {
    let parent: PayloadPath?
    let key: any CodingKey

    init(parent: PayloadPath?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    /// The coding path from the top down to `node`, then `key` when given.
    static func path(_ node: PayloadPath?, _ key: (any CodingKey)? = nil) -> [any CodingKey] {
        var path: [any CodingKey] = []
        var step = node
        while let current = step {
            path.append(current.key)
            step = current.parent
        }
        path.reverse()
        if let key { path.append(key) }
        return path
    }
}

/// An array element's coding key, as JSONDecoder names it (`"Index 3"`, int value 3).
struct PayloadIndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init?(intValue: Int) {
        self.init(index: intValue)
    }

    /// The key of `superDecoder()`.
    static let `super` = PayloadIndexKey(stringValue: "super")!
}

/// The decoder handed to `init(from:)`: it stands at one value (`value`) with its coding path
/// (`path`) and is also that value's single-value container, as JSONDecoder's is.
final class PayloadDecoder: Decoder, SingleValueDecodingContainer {
    var document: PayloadDocument
    /// The offset of the current value's first byte, or `PayloadDocument.missing` for `null`.
    var value: Int
    var path: PayloadPath?

    init(document: PayloadDocument, value: Int, path: PayloadPath?) {
        self.document = document
        self.value = value
        self.path = path
    }

    var codingPath: [any CodingKey] { PayloadPath.path(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    // MARK: containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let members = try objectMembers(at: value, path: path, key: nil)
        return KeyedDecodingContainer(PayloadKeyedContainer<Key>(decoder: self, members: members, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try PayloadUnkeyedContainer(decoder: self, start: arrayStart(at: value, path: path, key: nil), path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: single value

    func decodeNil() -> Bool { kind(value) == UInt8(ascii: "n") }
    func decode(_ type: Bool.Type) throws -> Bool { try readBool(value, path, nil) }
    func decode(_ type: String.Type) throws -> String { try readString(value, path, nil) }
    func decode(_ type: Double.Type) throws -> Double { try readFloat(Double.self, value, path, nil) }
    func decode(_ type: Float.Type) throws -> Float { try readFloat(Float.self, value, path, nil) }
    func decode(_ type: Int.Type) throws -> Int { try readInteger(Int.self, value, path, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try readInteger(Int8.self, value, path, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try readInteger(Int16.self, value, path, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try readInteger(Int32.self, value, path, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try readInteger(Int64.self, value, path, nil) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try readInteger(Int128.self, value, path, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try readInteger(UInt.self, value, path, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try readInteger(UInt8.self, value, path, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try readInteger(UInt16.self, value, path, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try readInteger(UInt32.self, value, path, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try readInteger(UInt64.self, value, path, nil) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try readInteger(UInt128.self, value, path, nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unwrap(T.self, at: value, parent: path, key: nil) }

    // MARK: values

    /// The first byte of the value at `offset` (`n` for a missing value). Every value offset
    /// points at the value itself, never at whitespace.
    @inline(__always)
    func kind(_ offset: Int) -> UInt8 {
        offset < 0 ? UInt8(ascii: "n") : document.base[offset]
    }

    /// Decodes a `Decodable` value at `offset`, whose coding path is `parent` and then `key`.
    /// `Data`, `Date`, `URL` and `Decimal` are read as JSONDecoder's default strategies read
    /// them; anything else through its own `init(from:)`, with this decoder moved to the value.
    func unwrap<T: Decodable>(_ type: T.Type, at offset: Int, parent: PayloadPath?, key: (any CodingKey)?) throws -> T {
        if T.self == Data.self { return try readData(offset, parent, key) as! T }
        if T.self == Date.self { return try readDate(offset, parent, key) as! T }
        if T.self == URL.self { return try readURL(offset, parent, key) as! T }
        if T.self == Decimal.self { return try readDecimal(offset, parent, key) as! T }
        let savedValue = value
        let savedPath = path
        value = offset
        if let key { path = PayloadPath(parent: parent, key: key) } else { path = parent }
        defer {
            value = savedValue
            path = savedPath
        }
        return try T(from: self)
    }

    /// A scanner step; a syntax error cannot happen in validated bytes, but if one did, the
    /// payload would go to JSONDecoder rather than be misread.
    @inline(__always)
    func scan<R>(_ step: () throws(JSONSyntaxError) -> R) throws -> R {
        do {
            return try step()
        } catch {
            throw document.fallback()
        }
    }

    /// The offset just past the value at `offset` (a missing value has no bytes).
    func end(of offset: Int) throws -> Int {
        guard offset >= 0 else { return offset }
        if document.lastObject.start == offset { return document.lastObject.end }
        var p = offset
        try scan { () throws(JSONSyntaxError) in try JSONScanner.skipValue(document.base, document.count, &p, depth: 1)
        }
        return p
    }

    // MARK: errors

    static func describe(_ kind: UInt8) -> String {
        switch kind {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "bool"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "{"): return "a dictionary"
        case UInt8(ascii: "["): return "an array"
        default: return "number"
        }
    }

    func typeMismatch(_ type: Any.Type, _ offset: Int, _ parent: PayloadPath?, _ key: (any CodingKey)?)
        -> DecodingError
    {
        .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: PayloadPath.path(parent, key),
                debugDescription: "Expected to decode \(type) but found \(Self.describe(kind(offset))) instead."))
    }

    func valueNotFound(_ type: Any.Type, _ parent: PayloadPath?, _ key: (any CodingKey)?) -> DecodingError {
        .valueNotFound(
            type,
            DecodingError.Context(
                codingPath: PayloadPath.path(parent, key),
                debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }

    /// `valueNotFound` for a `null`, otherwise `typeMismatch`.
    func wrongKind(_ type: Any.Type, _ offset: Int, _ parent: PayloadPath?, _ key: (any CodingKey)?) -> DecodingError {
        kind(offset) == UInt8(ascii: "n")
            ? valueNotFound(type, parent, key) : typeMismatch(type, offset, parent, key)
    }

    // MARK: primitives

    func readBool(_ offset: Int, _ parent: PayloadPath?, _ key: (any CodingKey)?) throws -> Bool {
        switch kind(offset) {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: throw typeMismatch(Bool.self, offset, parent, key)
        }
    }

    func readString(_ offset: Int, _ parent: PayloadPath?, _ key: (any CodingKey)?) throws -> String {
        guard kind(offset) == UInt8(ascii: "\"") else { throw wrongKind(String.self, offset, parent, key) }
        let base = document.base
        var p = offset
        let escaped = try scan { () throws(JSONSyntaxError) in try JSONScanner.scanString(base, document.count, &p) }
        if !escaped {
            return String(decoding: UnsafeBufferPointer(start: base + offset + 1, count: p - offset - 2), as: UTF8.self)
        }
        var scanner = JSONScanner(UnsafeRawBufferPointer(start: base, count: document.count))
        scanner.position = offset
        let bytes = try scan { () throws(JSONSyntaxError) in try scanner.readString() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The number literal at `offset`, scanned once for ``readInteger(_:_:_:_:)`` and
    /// ``readFloat(_:_:_:_:)``: whether it is an integer literal, its value when that fits in
    /// `Int64` (`overflow` otherwise), and the offset just past it.
    /// - Throws: A type mismatch naming `type` when the value there is not a number.
    private func number(_ type: Any.Type, _ offset: Int, _ parent: PayloadPath?, _ key: (any CodingKey)?) throws -> (
        integral: Bool, value: Int64, overflow: Bool, end: Int
    ) {
        let first = kind(offset)
        guard first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10 else {
            throw wrongKind(type, offset, parent, key)
        }
        var p = offset
        var value: Int64 = 0
        var overflow = false
        let integral = try scan { () throws(JSONSyntaxError) in
            try JSONScanner.scanNumber(document.base, document.count, &p, &value, &overflow)
        }
        return (integral, value, overflow, p)
    }

    func readInteger<T: FixedWidthInteger>(
        _ type: T.Type, _ offset: Int, _ parent: PayloadPath?, _ key: (any CodingKey)?
    )
        throws -> T
    {
        let number = try number(T.self, offset, parent, key)
        if number.integral {
            if !number.overflow {
                if let exact = T(exactly: number.value) { return exact }
            } else if let wide = wideInteger(T.self, offset..<number.end) {
                return wide
            }
        }
        // A fraction, an exponent or a value outside `T`: JSONDecoder's slow path.
        throw document.fallback()
    }

    /// The exact value of the integer literal in `range` as `T`, or `nil` when it is outside `T`.
    private func wideInteger<T: FixedWidthInteger>(_ type: T.Type, _ range: Range<Int>) -> T? {
        let base = document.base
        var index = range.lowerBound
        let negative = base[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var result: T = 0
        while index < range.upperBound {
            let digit = T(base[index] &- UInt8(ascii: "0"))
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            result = next
            index += 1
        }
        return result
    }

    func readFloat<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: T.Type, _ offset: Int, _ parent: PayloadPath?, _ key: (any CodingKey)?
    ) throws -> T {
        let number = try number(T.self, offset, parent, key)
        if number.integral && !number.overflow {
            // Converting an exact integer rounds once, as strtod does.
            if number.value == 0 && kind(offset) == UInt8(ascii: "-") { return -T.zero }
            return T(number.value)
        }
        return try slowFloat(T.self, offset..<number.end)
    }

    /// A number with a fraction or an exponent (or a long integer), read as strtod reads it.
    private func slowFloat<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, _ range: Range<Int>)
        throws -> T
    {
        let base = document.base
        var index = range.lowerBound
        let negative = base[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var nonZero = false
        var scale = 0
        var seenPoint = false
        while index < range.upperBound {
            let byte = base[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte | 0x20 == UInt8(ascii: "e") {
                break
            } else {
                let digit = UInt64(byte &- UInt8(ascii: "0"))
                if digit != 0 { nonZero = true }
                if mantissa != 0 || digit != 0 { digits += 1 }
                if digits <= 19 { mantissa = mantissa &* 10 &+ digit }
                if seenPoint { scale -= 1 }
            }
            index += 1
        }
        var exponent = 0
        if index < range.upperBound {
            index += 1
            var exponentNegative = false
            if base[index] == UInt8(ascii: "-") || base[index] == UInt8(ascii: "+") {
                exponentNegative = base[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < range.upperBound {
                exponent = min(exponent * 10 + Int(base[index] &- UInt8(ascii: "0")), 100_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let power = exponent + scale
        var result: T?
        // Exact operands and one rounding (Clinger's fast path): the correctly rounded value.
        let exactMantissa: UInt64 = T.self == Float.self ? 1 << 24 : 1 << 53
        let exactPower = T.self == Float.self ? 10 : 22
        if digits <= 19 && mantissa <= exactMantissa && power >= -exactPower && power <= exactPower {
            var ten: T = 1
            for _ in 0..<abs(power) { ten *= 10 }
            let magnitude = power < 0 ? T(mantissa) / ten : T(mantissa) * ten
            result = negative ? -magnitude : magnitude
        } else {
            let text = String(
                decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
            result = T(text)
        }
        // JSONDecoder rejects values that overflow to infinity or underflow to zero.
        guard let result, result.isFinite, result != 0 || !nonZero else { throw document.fallback() }
        return result
    }

    // MARK: Foundation types

    func readDate(_ offset: Int, _ parent: PayloadPath?, _ key: (any CodingKey)?) throws -> Date {
        guard kind(offset) != UInt8(ascii: "n") else { throw valueNotFound(Date.self, parent, key) }
        return Date(timeIntervalSinceReferenceDate: try readFloat(Double.self, offset, parent, key))
    }

    func readData(_ offset: Int, _ parent: PayloadPath?, _ key: (any CodingKey)?) throws -> Data {
        guard kind(offset) != UInt8(ascii: "n") else { throw valueNotFound(Data.self, parent, key) }
        guard let data = Data(base64Encoded: try readString(offset, parent, key)) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: PayloadPath.path(parent, key), debugDescription: "Encountered Data is not valid Base64."
                ))
        }
        return data
    }

    func readURL(_ offset: Int, _ parent: PayloadPath?, _ key: (any CodingKey)?) throws -> URL {
        guard kind(offset) != UInt8(ascii: "n") else { throw valueNotFound(URL.self, parent, key) }
        guard let url = URL(string: try readString(offset, parent, key)) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: PayloadPath.path(parent, key), debugDescription: "Invalid URL string."))
        }
        return url
    }

    func readDecimal(_ offset: Int, _ parent: PayloadPath?, _ key: (any CodingKey)?) throws -> Decimal {
        let first = kind(offset)
        guard first != UInt8(ascii: "n") else { throw valueNotFound(Decimal.self, parent, key) }
        guard first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10 else {
            throw DecodingError.typeMismatch(
                Decimal.self, DecodingError.Context(codingPath: PayloadPath.path(parent, key), debugDescription: ""))
        }
        var p = offset
        try scan { () throws(JSONSyntaxError) in
            var value: Int64 = 0
            var overflow = false
            _ = try JSONScanner.scanNumber(document.base, document.count, &p, &value, &overflow)
        }
        // Plain literals of up to 38 significant digits; exponents and longer ones take
        // JSONDecoder's own Decimal parser.
        let base = document.base
        var significant = 0
        for index in offset..<p {
            let byte = base[index]
            if byte | 0x20 == UInt8(ascii: "e") { throw document.fallback() }
            if byte &- UInt8(ascii: "0") < 10 { significant += 1 }
        }
        guard significant <= 38,
            let decimal = Decimal(
                string: String(decoding: UnsafeBufferPointer(start: base + offset, count: p - offset), as: UTF8.self))
        else { throw document.fallback() }
        return decimal
    }

    // MARK: objects and arrays

    /// The members of the object at `offset`, for a keyed container.
    func objectMembers(at offset: Int, path: PayloadPath?, key: (any CodingKey)?) throws -> PayloadMembers {
        guard kind(offset) == UInt8(ascii: "{") else {
            if kind(offset) == UInt8(ascii: "n") {
                throw DecodingError.valueNotFound(
                    [String: Any].self,
                    DecodingError.Context(
                        codingPath: PayloadPath.path(path, key),
                        debugDescription: "Cannot get keyed decoding container -- found null value instead"))
            }
            throw typeMismatch([String: Any].self, offset, path, key)
        }
        return try PayloadMembers.index(document, objectAt: offset)
    }

    /// The offset of the first element (or of the `]`) of the array at `offset`.
    func arrayStart(at offset: Int, path: PayloadPath?, key: (any CodingKey)?) throws -> Int {
        guard kind(offset) == UInt8(ascii: "[") else {
            if kind(offset) == UInt8(ascii: "n") {
                throw DecodingError.valueNotFound(
                    [Any].self,
                    DecodingError.Context(
                        codingPath: PayloadPath.path(path, key),
                        debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
            }
            throw typeMismatch([Any].self, offset, path, key)
        }
        var p = offset + 1
        JSONScanner.skipWhitespace(document.base, document.count, &p)
        return p
    }
}
