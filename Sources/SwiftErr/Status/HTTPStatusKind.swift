/// The class of an HTTP status code, by its first digit, as swift-http-types'
/// `HTTPResponse.Status.Kind` defines it.
public enum HTTPStatusKind: Sendable, Hashable, CaseIterable {
    /// `1xx`: the request was received and is being processed.
    case informational
    /// `2xx`: the request succeeded.
    case successful
    /// `3xx`: further action is needed to complete the request.
    case redirection
    /// `4xx`: the request is wrong (bad syntax, not authorised, not found, too many requests…).
    case clientError
    /// `5xx`: the server failed to fulfil a valid request.
    case serverError
    /// Not a valid status: below `100` or above `599`.
    case invalid

    /// The kind of a status code.
    /// - Parameter statusCode: Any integer; values outside `100...599` are ``invalid``.
    public init(statusCode: Int) {
        switch statusCode {
        case 100...199: self = .informational
        case 200...299: self = .successful
        case 300...399: self = .redirection
        case 400...499: self = .clientError
        case 500...599: self = .serverError
        default: self = .invalid
        }
    }

    /// A short English name: `"informational"`, `"successful"`, `"redirection"`,
    /// `"client error"`, `"server error"` or `"invalid"`.
    public var name: String {
        switch self {
        case .informational: return "informational"
        case .successful: return "successful"
        case .redirection: return "redirection"
        case .clientError: return "client error"
        case .serverError: return "server error"
        case .invalid: return "invalid"
        }
    }
}
