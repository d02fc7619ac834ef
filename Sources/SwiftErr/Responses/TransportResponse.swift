import Foundation

/// What a transport returns to a ``ResponseDecoder``: the HTTP status, if any, and the body.
public struct TransportResponse: Sendable, Hashable {
    /// The HTTP status, or `nil` for a transport without one (a socket, a test fixture).
    public var statusCode: Int?
    /// The response body.
    public var body: Data

    /// Creates a response.
    /// - Parameters:
    ///   - statusCode: The HTTP status, if any.
    ///   - body: The response body.
    public init(statusCode: Int? = nil, body: Data) {
        self.statusCode = statusCode
        self.body = body
    }
}
