/// The three members of a response envelope such as `{"ret": 11001, "msg": "…", "data": {…}}`,
/// read from raw bytes in one validating pass.
///
/// The payload is not decoded here: ``dataRange`` says where its bytes are, so a decoder can
/// read exactly that slice, with no intermediate dictionary and no re-serialisation.
/// This type needs no Foundation.
public struct ResponseEnvelope: Sendable, Hashable {
    /// The response code.
    public var code: Int64
    /// The message, or `nil` when the member is missing or `null`.
    public var message: String?
    /// The 0-based byte range of the payload value, or `nil` when the member is missing.
    public var dataRange: Range<Int>?
    /// The kind of the payload value, or `nil` when the member is missing.
    public var dataKind: JSONValueKind?

    /// Creates an envelope value.
    /// - Parameters:
    ///   - code: The response code.
    ///   - message: The message, if any.
    ///   - dataRange: The payload's byte range, if present.
    ///   - dataKind: The payload's kind, if present.
    public init(code: Int64, message: String? = nil, dataRange: Range<Int>? = nil, dataKind: JSONValueKind? = nil) {
        self.code = code
        self.message = message
        self.dataRange = dataRange
        self.dataKind = dataKind
    }

    /// Whether the payload is present and not `null`.
    public var hasData: Bool {
        dataKind != nil && dataKind != .null
    }

    /// ``parse(_:keys:)-(Collection<UInt8>,_)`` over a raw buffer.
    package static func parse(_ bytes: UnsafeRawBufferPointer, keys: EnvelopeKeys = .default) throws(EnvelopeError)
        -> ResponseEnvelope
    {
        var scanner = JSONScanner(bytes)
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        let kind = try syntax { () throws(JSONSyntaxError) in try scanner.kindAhead() }
        guard kind == .object else {
            throw EnvelopeError(reason: .notAnObject(found: kind), offset: scanner.position)
        }
        var code: Int64? = nil
        var message: String? = nil
        var seenMessage = false
        var dataRange: Range<Int>? = nil
        var dataKind: JSONValueKind? = nil

        scanner.position += 1
        scanner.skipWhitespace()
        if scanner.peek == UInt8(ascii: "}") {
            scanner.position += 1
        } else {
            while true {
                scanner.skipWhitespace()
                let keyOffset = scanner.position
                let raw = try syntax { () throws(JSONSyntaxError) in try scanner.scanStringRange() }
                var decodedKey: [UInt8]? = nil
                if raw.escaped {
                    var copy = scanner
                    copy.position = keyOffset
                    decodedKey = try syntax { () throws(JSONSyntaxError) in try copy.readString() }
                }
                func keyIs(_ name: String) -> Bool {
                    if let decodedKey { return decodedKey.elementsEqual(name.utf8) }
                    let candidate = UnsafeRawBufferPointer(rebasing: scanner.bytes[raw.range])
                    let utf8 = name.utf8
                    guard candidate.count == utf8.count else { return false }
                    let equal = utf8.withContiguousStorageIfAvailable { wanted -> Bool in
                        for index in 0..<wanted.count where wanted[index] != candidate[index] { return false }
                        return true
                    }
                    return equal ?? candidate.elementsEqual(utf8)
                }
                scanner.skipWhitespace()
                try syntax { () throws(JSONSyntaxError) in
                    try scanner.expect(UInt8(ascii: ":"), "':' after an object key")
                }
                scanner.skipWhitespace()
                let valueOffset = scanner.position
                if keyIs(keys.code) {
                    guard code == nil else {
                        throw EnvelopeError(reason: .duplicateKey, offset: keyOffset, key: keys.code)
                    }
                    code = try readCode(&scanner, key: keys.code)
                } else if keyIs(keys.message) {
                    guard !seenMessage else {
                        throw EnvelopeError(reason: .duplicateKey, offset: keyOffset, key: keys.message)
                    }
                    seenMessage = true
                    let found = try syntax { () throws(JSONSyntaxError) in try scanner.kindAhead() }
                    switch found {
                    case .string:
                        let start = scanner.position
                        let value = try syntax { () throws(JSONSyntaxError) in try scanner.scanStringRange() }
                        if value.escaped {
                            scanner.position = start
                            message = String(
                                decoding: try syntax { () throws(JSONSyntaxError) in try scanner.readString() },
                                as: UTF8.self)
                        } else {
                            message = String(
                                decoding: UnsafeRawBufferPointer(rebasing: scanner.bytes[value.range]), as: UTF8.self)
                        }
                    case .null: try syntax { () throws(JSONSyntaxError) in try scanner.skipValue(depth: 1) }
                    default:
                        throw EnvelopeError(
                            reason: .messageNotString(found: found), offset: valueOffset, key: keys.message)
                    }
                } else if keyIs(keys.data) {
                    guard dataKind == nil else {
                        throw EnvelopeError(reason: .duplicateKey, offset: keyOffset, key: keys.data)
                    }
                    dataKind = try syntax { () throws(JSONSyntaxError) in try scanner.kindAhead() }
                    try syntax { () throws(JSONSyntaxError) in try scanner.skipValue(depth: 1) }
                    dataRange = valueOffset..<scanner.position
                } else {
                    try syntax { () throws(JSONSyntaxError) in try scanner.skipValue(depth: 1) }
                }
                scanner.skipWhitespace()
                if scanner.peek == UInt8(ascii: ",") {
                    scanner.position += 1
                    continue
                }
                try syntax { () throws(JSONSyntaxError) in
                    try scanner.expect(UInt8(ascii: "}"), "',' or '}' in an object")
                }
                break
            }
        }
        scanner.skipWhitespace()
        guard scanner.atEnd else { throw EnvelopeError(scanner.fail("the end of the input after the envelope object")) }
        guard let code else {
            throw EnvelopeError(reason: .missingCode, offset: 0, key: keys.code)
        }
        return ResponseEnvelope(code: code, message: message, dataRange: dataRange, dataKind: dataKind)
    }

    /// Parses an envelope from any byte collection (`[UInt8]`, `Data`, a slice, …); offsets in
    /// the result and in errors count from the collection's first byte.
    ///
    /// The whole input must be one JSON object (surrounding whitespace and a leading UTF-8 byte
    /// order mark allowed). Members other than the three keys are validated and skipped. The
    /// code must be a JSON integer within `Int64`; the message a string or `null`.
    /// - Parameters:
    ///   - bytes: The response body.
    ///   - keys: The member names; ``EnvelopeKeys/default`` is `ret`/`msg`/`data`.
    /// - Returns: The code, message and payload location.
    /// - Throws: ``EnvelopeError`` saying what is wrong and at which byte: malformed JSON,
    ///   invalid UTF-8, a top level that is not an object, a missing code, a code that is not an
    ///   integer (string, fraction, boolean, `null`, …) or lies outside `Int64`, a message that
    ///   is not a string, one of the keys repeated, or nesting deeper than 512 levels.
    public static func parse(_ bytes: some Collection<UInt8>, keys: EnvelopeKeys = .default) throws(EnvelopeError)
        -> ResponseEnvelope
    {
        let contiguous: Result<ResponseEnvelope, EnvelopeError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(EnvelopeError) -> ResponseEnvelope in
                try parse(UnsafeRawBufferPointer(buffer), keys: keys)
            }
        }
        if let contiguous {
            return try contiguous.get()
        }
        let copy = Array(bytes)
        let result = copy.withUnsafeBytes { raw in
            Result { () throws(EnvelopeError) -> ResponseEnvelope in try parse(raw, keys: keys) }
        }
        return try result.get()
    }

    /// Parses an envelope from a string's UTF-8 bytes.
    /// - Parameters:
    ///   - text: The response body.
    ///   - keys: The member names.
    /// - Returns: The code, message and payload location (byte offsets into `text.utf8`).
    /// - Throws: ``EnvelopeError``, as ``parse(_:keys:)-(Collection<UInt8>,_)``.
    public static func parse(_ text: String, keys: EnvelopeKeys = .default) throws(EnvelopeError) -> ResponseEnvelope {
        try parse(Array(text.utf8), keys: keys)
    }

    /// Reads the code member: a JSON integer that fits in `Int64`.
    private static func readCode(_ scanner: inout JSONScanner, key: String) throws(EnvelopeError) -> Int64 {
        let start = scanner.position
        let kind = try syntax { () throws(JSONSyntaxError) in try scanner.kindAhead() }
        try syntax { () throws(JSONSyntaxError) in try scanner.skipValue(depth: 1) }
        let end = scanner.position
        func literal() -> String {
            let shown = min(end - start, 40)
            var text = String(
                decoding: UnsafeRawBufferPointer(rebasing: scanner.bytes[start..<(start + shown)]), as: UTF8.self)
            if end - start > 40 { text += "…" }
            return text
        }
        guard kind == .integer else {
            throw EnvelopeError(reason: .codeNotInteger(found: kind, literal: literal()), offset: start, key: key)
        }
        guard let value = scanner.integerValue(of: start..<end) else {
            throw EnvelopeError(reason: .codeOutOfRange(literal: literal()), offset: start, key: key)
        }
        return value
    }

    /// Runs a scanner step, reporting its syntax error as an envelope error.
    @inline(__always)
    private static func syntax<T>(_ step: () throws(JSONSyntaxError) -> T) throws(EnvelopeError) -> T {
        do {
            return try step()
        } catch {
            throw EnvelopeError(error)
        }
    }
}
