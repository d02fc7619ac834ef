/// Why a response body is not a usable envelope, and where.
public struct EnvelopeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problem found.
    public enum Reason: Sendable, Hashable {
        /// The bytes are not JSON; the payload says what was expected at ``EnvelopeError/offset``.
        case malformedJSON(expected: String)
        /// A string is not valid UTF-8.
        case invalidUTF8
        /// The top-level value is not an object.
        case notAnObject(found: JSONValueKind)
        /// The object has no member named ``EnvelopeKeys/code``.
        case missingCode
        /// The code member is not an integer; `literal` is its JSON text (at most 40 bytes).
        case codeNotInteger(found: JSONValueKind, literal: String)
        /// The code member is an integer outside the range of `Int64`.
        case codeOutOfRange(literal: String)
        /// The message member is neither a string nor `null`.
        case messageNotString(found: JSONValueKind)
        /// One of the three envelope keys appears twice, so the envelope is ambiguous.
        case duplicateKey
        /// Arrays and objects are nested deeper than the scanner's limit.
        case nestingTooDeep(limit: Int)
    }

    /// The problem found.
    public var reason: Reason
    /// The 0-based byte offset where it was found.
    public var offset: Int
    /// The envelope key concerned, when the problem is about one member.
    public var key: String?

    /// Creates an error.
    /// - Parameters:
    ///   - reason: The problem.
    ///   - offset: The 0-based byte offset.
    ///   - key: The envelope key concerned, if any.
    public init(reason: Reason, offset: Int, key: String? = nil) {
        self.reason = reason
        self.offset = offset
        self.key = key
    }

    /// The envelope error for a JSON syntax error.
    /// - Parameter error: What the scanner found.
    init(_ error: JSONSyntaxError) {
        switch error.reason {
        case .expected(let what): self.init(reason: .malformedJSON(expected: what), offset: error.offset)
        case .invalidUTF8: self.init(reason: .invalidUTF8, offset: error.offset)
        case .nestingTooDeep(let limit): self.init(reason: .nestingTooDeep(limit: limit), offset: error.offset)
        }
    }

    /// A one-line English explanation, e.g.
    /// `code member "ret" is a string ("11001"), not an integer (byte 7)`.
    public var description: String {
        let quotedKey = key.map { "\"\($0)\"" } ?? "?"
        let what: String
        switch reason {
        case .malformedJSON(let expected): what = "malformed JSON: expected \(expected)"
        case .invalidUTF8: what = "invalid UTF-8 in a string"
        case .notAnObject(let kind): what = "the envelope is \(kind.phrase), not an object"
        case .missingCode: what = "no code member \(quotedKey)"
        case .codeNotInteger(let kind, let literal):
            what = "code member \(quotedKey) is \(kind.phrase) (\(literal)), not an integer"
        case .codeOutOfRange(let literal):
            what = "code member \(quotedKey) is \(literal), outside the 64-bit integer range"
        case .messageNotString(let kind): what = "message member \(quotedKey) is \(kind.phrase), not a string"
        case .duplicateKey: what = "member \(quotedKey) appears twice"
        case .nestingTooDeep(let limit): what = "values nested deeper than \(limit) levels"
        }
        return "\(what) (byte \(offset))"
    }
}
