import SwiftErr

// The tree a catalog file is read into: JSON values that remember where they start.

/// A JSON value together with the byte offset in the file where it starts.
package struct JSONNode: Sendable {
    /// Byte offset of the value's first byte in the document.
    package var offset: Int
    /// The value itself.
    package var value: JSONValue
}

/// One member of a JSON object, in document order.
package struct JSONMember: Sendable {
    /// The member's key, unescaped.
    package var key: String
    /// Byte offset of the key's opening quote.
    package var keyOffset: Int
    /// The member's value.
    package var value: JSONNode
}

/// A JSON number: its text as written and, when it is an integer that fits, its `Int64` value.
package struct JSONNumber: Sendable, Hashable {
    /// The number exactly as written in the document.
    package var text: String
    /// The value when the number has no fraction or exponent and fits in `Int64`; otherwise `nil`.
    package var integer: Int64?
    /// True when the number has a fraction or an exponent.
    package var hasFractionOrExponent: Bool
}

/// A parsed JSON value. Objects keep their members in order, duplicates included,
/// so the catalog reader can report a repeated key.
package enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONNode])
    case object([JSONMember])

    /// A short name of the value's kind for error messages ("a string", "an array", ...).
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number(let number): return number.integer == nil ? "the number \(number.text)" : "an integer"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
