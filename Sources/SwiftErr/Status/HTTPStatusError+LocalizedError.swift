import Foundation

extension HTTPStatusError: LocalizedError {
    /// A readable text, in `Language.current`: "The server answered with HTTP
    /// status 503 (Service Unavailable)." / "服务器返回了错误的状态码 503(Service Unavailable)。"
    public var errorDescription: String? { errorDescription(in: Language.current) }

    /// Why, in `Language.current`: the status's kind.
    public var failureReason: String? { failureReason(in: Language.current) }

    /// The description in a given language.
    /// - Parameter language: The language wanted.
    /// - Returns: The description.
    public func errorDescription(in language: Language) -> String {
        let phrase = reasonPhrase.map { " (\($0))" } ?? ""
        switch language {
        case .simplifiedChinese:
            return "服务器返回了错误的状态码 \(statusCode)\(reasonPhrase.map { "(\($0))" } ?? "")。"
        default:
            return "The server answered with HTTP status \(statusCode)\(phrase)."
        }
    }

    /// The failure reason in a given language.
    /// - Parameter language: The language wanted.
    /// - Returns: Which kind of status it is and that only 2xx is accepted.
    public func failureReason(in language: Language) -> String {
        switch (language, kind) {
        case (.simplifiedChinese, .invalid): return "状态码 \(statusCode) 不在 100...599 范围内。"
        case (.simplifiedChinese, .serverError): return "服务器内部出错(5xx)。"
        case (.simplifiedChinese, .clientError): return "请求有误(4xx)。"
        case (.simplifiedChinese, _): return "只接受 2xx 状态码。"
        case (_, .invalid): return "Status \(statusCode) is not in 100...599."
        case (_, .serverError): return "The server failed to handle the request (5xx)."
        case (_, .clientError): return "The request was rejected (4xx)."
        default: return "Only 2xx statuses are accepted; this one is \(kind.name)."
        }
    }
}
