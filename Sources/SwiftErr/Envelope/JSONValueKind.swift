/// The kind of a JSON value, as found by the envelope scanner.
public enum JSONValueKind: Sendable, Hashable, CaseIterable {
    /// `{ … }`
    case object
    /// `[ … ]`
    case array
    /// `"…"`
    case string
    /// A number with no fraction and no exponent, such as `11001` or `-3`.
    case integer
    /// A number with a fraction or an exponent, such as `1.5` or `1e3`.
    case nonIntegerNumber
    /// `true` or `false`
    case bool
    /// `null`
    case null

    /// A short English name for messages, such as "a string".
    public var phrase: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .integer: return "an integer"
        case .nonIntegerNumber: return "a non-integer number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}
