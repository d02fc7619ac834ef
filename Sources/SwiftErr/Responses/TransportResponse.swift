import Foundation

/// What a transport returns: the HTTP status, if any, the response's header fields and the body.
public struct TransportResponse: Sendable, Hashable {
    /// The HTTP status, or `nil` for a transport without one (a socket, a test fixture).
    public var statusCode: Int?
    /// The response's header fields, as the transport reported them. Read them with
    /// ``value(forHeader:)``, which ignores the case of names as HTTP does.
    public var headerFields: [String: String]
    /// The response body.
    public var body: Data

    /// Creates a response.
    /// - Parameters:
    ///   - statusCode: The HTTP status, if any.
    ///   - headerFields: The response's header fields (none by default).
    ///   - body: The response body.
    public init(statusCode: Int? = nil, headerFields: [String: String] = [:], body: Data) {
        self.statusCode = statusCode
        self.headerFields = headerFields
        self.body = body
    }

    /// A header field's value, whatever the case of its name (`retry-after`, `Retry-After`).
    /// - Parameter name: The field name.
    /// - Returns: The value, or `nil` when the response has no such field.
    public func value(forHeader name: String) -> String? {
        if let exact = headerFields[name] { return exact }
        let wanted = name.lowercased()
        return headerFields.first { $0.key.lowercased() == wanted }?.value
    }

    /// The server's `Retry-After` answer, when it sent one that can be read
    /// (``RetryAfter/init(headerValue:)``).
    public var retryAfter: RetryAfter? {
        value(forHeader: "Retry-After").flatMap(RetryAfter.init(headerValue:))
    }
}
