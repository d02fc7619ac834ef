/// An HTTP status that is not acceptable, with the
/// status's kind, reason phrase and the server's `Retry-After` answer kept.
///
/// Thrown by ``HTTPStatusValidator/validate(_:retryAfter:)`` and carried by
/// ``ModuleRespError/unacceptableStatus(_:)-enum.case``, however the status was validated (by
/// ``ResponseDecoder``, by ``ResponseClient``, or by a transport closure that threw it), so
/// ``Retrier`` honours its ``retryAfter`` from the typed error.
///
/// A status error matches an integer or a range of integers in a pattern by its ``statusCode``
/// alone, whatever `Retry-After` it carries:
///
/// <!-- listing: context=app -->
/// ```swift
/// switch error {
/// case .unacceptableStatus(503): showMaintenance()
/// case .unacceptableStatus(500...599): showServerTrouble()
/// default: break
/// }
/// ```
public struct HTTPStatusError: Error, Sendable, Hashable, CustomStringConvertible, RetryAfterProviding {
    /// The status code the server answered with.
    public let statusCode: Int
    /// The server's `Retry-After` answer, if it sent one that could be read.
    public let retryAfter: RetryAfter?

    /// Creates a status error.
    /// - Parameters:
    ///   - statusCode: The status code the server answered with.
    ///   - retryAfter: The parsed `Retry-After` header, if any.
    public init(statusCode: Int, retryAfter: RetryAfter? = nil) {
        self.statusCode = statusCode
        self.retryAfter = retryAfter
    }

    /// Whether a status error has the status `pattern`, whatever its `Retry-After`.
    /// - Parameters:
    ///   - pattern: A status code.
    ///   - value: The status error.
    /// - Returns: `value.statusCode == pattern`.
    public static func ~= (pattern: Int, value: HTTPStatusError) -> Bool {
        value.statusCode == pattern
    }

    /// Whether a status error's status lies in `pattern`, e.g. `500...599`.
    /// - Parameters:
    ///   - pattern: A range of status codes.
    ///   - value: The status error.
    /// - Returns: `pattern.contains(value.statusCode)`.
    public static func ~= (pattern: ClosedRange<Int>, value: HTTPStatusError) -> Bool {
        pattern.contains(value.statusCode)
    }

    /// Whether a status error's status lies in `pattern`, e.g. `400..<500`.
    /// - Parameters:
    ///   - pattern: A range of status codes.
    ///   - value: The status error.
    /// - Returns: `pattern.contains(value.statusCode)`.
    public static func ~= (pattern: Range<Int>, value: HTTPStatusError) -> Bool {
        pattern.contains(value.statusCode)
    }

    /// The status's kind (``HTTPStatusKind/invalid`` outside `100...599`).
    public var kind: HTTPStatusKind { HTTPStatusKind(statusCode: statusCode) }

    /// The standard reason phrase, or `nil` for an unregistered code.
    public var reasonPhrase: String? { HTTPReasonPhrase.phrase(for: statusCode) }

    /// A one-line English description, e.g. `HTTP status 503 Service Unavailable (server error)`
    /// or `HTTP status 42 (invalid: not in 100...599)`.
    public var description: String {
        let phrase = reasonPhrase.map { " \($0)" } ?? ""
        if kind == .invalid {
            return "HTTP status \(statusCode)\(phrase) (invalid: not in 100...599)"
        }
        return "HTTP status \(statusCode)\(phrase) (\(kind.name))"
    }
}
