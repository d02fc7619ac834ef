/// Decides which HTTP statuses count as success: the one status-acceptance rule, used by
/// ``ResponseDecoder`` and by transports that validate before decoding.
///
/// <!-- listing: context=app -->
/// ```swift
/// try HTTPStatusValidator.successful.validate(response.statusCode,
///                                             retryAfter: response.value(forHTTPHeaderField: "Retry-After"))
/// ```
public struct HTTPStatusValidator: Sendable, Hashable {
    /// The accepted statuses.
    public var acceptable: Set<Int>

    /// A validator accepting exactly `acceptable`.
    /// - Parameter acceptable: The accepted statuses.
    public init(acceptable: Set<Int>) {
        self.acceptable = acceptable
    }

    /// A validator accepting the statuses in `range`.
    /// - Parameter range: The accepted statuses, e.g. `200..<300`.
    public init(acceptable range: Range<Int>) {
        self.acceptable = Set(range)
    }

    /// Accepts every `2xx` status and nothing else.
    public static let successful = HTTPStatusValidator(acceptable: 200..<300)

    /// Checks a status.
    /// - Parameters:
    ///   - statusCode: The status the server answered with.
    ///   - retryAfter: The raw `Retry-After` header value, if the response had one; it is kept
    ///     in the thrown error when it can be read (see ``RetryAfter/init(headerValue:)``).
    /// - Throws: ``HTTPStatusError`` when the status is not acceptable.
    public func validate(_ statusCode: Int, retryAfter: String? = nil) throws(HTTPStatusError) {
        guard !acceptable.contains(statusCode) else { return }
        throw HTTPStatusError(statusCode: statusCode, retryAfter: retryAfter.flatMap(RetryAfter.init(headerValue:)))
    }

    /// Whether a status is acceptable.
    /// - Parameter statusCode: The status.
    /// - Returns: `true` when ``validate(_:retryAfter:)`` would not throw.
    public func accepts(_ statusCode: Int) -> Bool {
        acceptable.contains(statusCode)
    }
}

extension HTTPStatusValidator {
    /// Checks a response's status; a response without a status passes.
    /// - Parameter response: The response; its `Retry-After` header is kept in the error.
    /// - Returns: `nil` when the status is acceptable, otherwise the status error.
    public func failure(for response: TransportResponse) -> HTTPStatusError? {
        guard let statusCode = response.statusCode, !accepts(statusCode) else { return nil }
        return HTTPStatusError(statusCode: statusCode, retryAfter: response.retryAfter)
    }
}

extension TransportResponse {
    /// Checks the response's status with a validator; a response without a status passes.
    /// - Parameters:
    ///   - validator: The validator (2xx by default).
    ///   - retryAfter: The raw `Retry-After` header value, if any; by default the response's own
    ///     `Retry-After` header field.
    /// - Returns: The response itself, for chaining.
    /// - Throws: ``HTTPStatusError`` when the status is not acceptable.
    @discardableResult
    public func validated(
        by validator: HTTPStatusValidator = .successful,
        retryAfter: String? = nil
    ) throws(HTTPStatusError) -> TransportResponse {
        if let statusCode {
            try validator.validate(statusCode, retryAfter: retryAfter ?? value(forHeader: "Retry-After"))
        }
        return self
    }
}
