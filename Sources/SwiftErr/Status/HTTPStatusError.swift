/// An HTTP status that is not acceptable, with the
/// status's kind, reason phrase and the server's `Retry-After` answer kept.
///
/// Thrown by ``HTTPStatusValidator/validate(_:retryAfter:)``; the ``ErrorAdapterRegistry``
/// turns it into ``ModuleRespError/unacceptableStatus(_:)``, and ``Retrier`` reads its
/// ``retryAfter`` through ``RetryAfterProviding``.
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
