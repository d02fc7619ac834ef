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
        try parse(bytes, keys: EnvelopeKeyMatcher(keys))
    }

    /// ``parse(_:keys:)-(Collection<UInt8>,_)`` over a raw buffer, with the keys prepared once.
    package static func parse(_ bytes: UnsafeRawBufferPointer, keys: EnvelopeKeyMatcher) throws(EnvelopeError)
        -> ResponseEnvelope
    {
        let scan = try EnvelopeScan.scan(bytes, keys: keys)
        var message: String? = nil
        if let range = scan.messageRange {
            if scan.messageEscaped {
                var scanner = JSONScanner(bytes)
                scanner.position = range.lowerBound - 1
                // The scan has validated the string, so reading it again cannot fail.
                let decoded = (try? scanner.readString()) ?? []
                message = String(decoding: decoded, as: UTF8.self)
            } else {
                message = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
        }
        return ResponseEnvelope(code: scan.code, message: message, dataRange: scan.dataRange, dataKind: scan.dataKind)
    }

    /// The code of the envelope in `bytes`, after validating all of it exactly as
    /// ``parse(_:keys:)-(Collection<UInt8>,_)`` does (same errors, same offsets), without making
    /// the message string: the path of a stream classifier.
    package static func code(in bytes: UnsafeRawBufferPointer, keys: EnvelopeKeyMatcher) throws(EnvelopeError)
        -> Int64
    {
        try EnvelopeScan.code(bytes, keys: keys)
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
}
