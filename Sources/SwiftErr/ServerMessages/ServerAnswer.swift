/// A server's code with the message the server sent beside it: the payload of
/// ``ModuleRespError``'s server-code cases (`ServerAnswer<Code>` in ``ModuleRespError/module(_:)``,
/// `ServerAnswer<BaseCode>` in ``ModuleRespError/base(_:)``, `ServerAnswer<Int64>` in
/// ``ModuleRespError/unexpectedCode(_:)``).
///
/// It stands in for the code wherever code was written before:
/// - patterns match it against a bare code through ``~=(_:_:)``, so `catch .module(.wrongTeamCode)`,
///   `case .base(.tokenExpire):` and `case .unexpectedCode(11090):` work as they did;
/// - `answer == .wrongTeamCode` and `answer != .classNotFound` compare its code;
/// - the code's properties read through it (`answer.name`, `answer.code`, `answer.isUnrecognised`,
///   `answer.rawValue`), by dynamic member lookup;
/// - its `description` is the code's, so `"\(answer)"` prints what `"\(code)"` printed.
///
/// A pattern that looks inside the code's own cases cannot see through it: `.module(.other)` and
/// `.module(.other(let raw))` no longer compile. Write `case .module(let answer) where
/// answer.isUnrecognised` and read `answer.code`, or match ``ModuleRespError/outcome`` or
/// ``ModuleRespError/moduleCode``, which hold the bare code.
///
/// ## Equality ignores the message
///
/// Two answers are equal, and hash alike, when their codes are equal, whatever the messages: the
/// code is what the answer means, the message is how one server worded it that time. So the same
/// code from two servers, or in two languages, is the same failure for comparisons, sets,
/// de-duplication and tests (`#expect(error.moduleCode == .wrongTeamCode)` and
/// `ModuleRespError` outcomes compare the same with or without a message). Compare
/// ``serverMessage`` explicitly when the wording matters.
///
/// ## Why the message is here and not in `BaseCode`
///
/// `BaseCode` and the module enums are catalog values: a code's identity, shared with C, used as
/// keys and in the Foundation-free core. The message belongs to one response, so it is kept
/// beside the code by the error's payload, and the catalog values stay plain values whose
/// equality has no exception.
@dynamicMemberLookup
public struct ServerAnswer<Value: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    /// The code the server answered with.
    public let value: Value
    /// The server's message, cleaned and bounded (``ServerMessage/sanitized(_:)``), or `nil` when
    /// the envelope had none (missing, `null`, empty or only white space).
    public let serverMessage: String?

    /// Wraps a code and the server's message.
    /// - Parameters:
    ///   - value: The code.
    ///   - serverMessage: The server's text; it is cleaned and bounded with
    ///     ``ServerMessage/sanitized(_:)`` before it is kept.
    public init(_ value: Value, serverMessage: String? = nil) {
        self.value = value
        self.serverMessage = ServerMessage.sanitized(serverMessage)
    }

    /// Wraps a code and a message that is already cleaned.
    @usableFromInline
    init(_ value: Value, sanitizedMessage: String?) {
        self.value = value
        self.serverMessage = sanitizedMessage
    }

    /// The same message with another code: what converting an error to another module keeps.
    func replacingValue<Other>(_ other: Other) -> ServerAnswer<Other> {
        ServerAnswer<Other>(other, sanitizedMessage: serverMessage)
    }

    /// Whether the codes are equal; the messages are not compared.
    /// - Parameters:
    ///   - lhs: An answer.
    ///   - rhs: Another answer.
    /// - Returns: `lhs.value == rhs.value`.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.value == rhs.value
    }

    /// Hashes the code only, consistently with ``==(_:_:)-(ServerAnswer<Value>,ServerAnswer<Value>)``.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }

    /// Whether the answer's code is `pattern`: lets `case .module(.wrongTeamCode)` match.
    /// - Parameters:
    ///   - pattern: A bare code.
    ///   - answer: The answer.
    /// - Returns: `pattern == answer.value`.
    public static func ~= (pattern: Value, answer: Self) -> Bool {
        pattern == answer.value
    }

    /// Whether the answer's code is `code`.
    /// - Parameters:
    ///   - answer: The answer.
    ///   - code: A bare code.
    /// - Returns: `answer.value == code`.
    public static func == (answer: Self, code: Value) -> Bool {
        answer.value == code
    }

    /// Whether `code` is the answer's code.
    /// - Parameters:
    ///   - code: A bare code.
    ///   - answer: The answer.
    /// - Returns: `code == answer.value`.
    public static func == (code: Value, answer: Self) -> Bool {
        code == answer.value
    }

    /// Whether the answer's code is not `code`.
    /// - Parameters:
    ///   - answer: The answer.
    ///   - code: A bare code.
    /// - Returns: `answer.value != code`.
    public static func != (answer: Self, code: Value) -> Bool {
        answer.value != code
    }

    /// Whether `code` is not the answer's code.
    /// - Parameters:
    ///   - code: A bare code.
    ///   - answer: The answer.
    /// - Returns: `code != answer.value`.
    public static func != (code: Value, answer: Self) -> Bool {
        code != answer.value
    }

    /// A property of the code, e.g. `answer.name` or `answer.isUnrecognised`.
    /// - Parameter keyPath: The code's property.
    /// - Returns: Its value for ``value``.
    public subscript<Property>(dynamicMember keyPath: KeyPath<Value, Property>) -> Property {
        value[keyPath: keyPath]
    }

    /// The code's description, without the message.
    public var description: String {
        String(describing: value)
    }

    /// The code and the message, e.g. `other(11219999) (server's message: "Your team is full.")`.
    public var debugDescription: String {
        guard let serverMessage else { return String(reflecting: value) }
        return "\(String(reflecting: value)) (server's message: \(String(reflecting: serverMessage)))"
    }
}
