import Foundation

extension ModuleRespError: LocalizedError {
    /// The message a person should see, from the C catalog for server codes, in
    /// `Language.current` (English fallback).
    public var errorDescription: String? {
        errorDescription(in: Language.current)
    }

    /// Why it failed, in `Language.current`.
    public var failureReason: String? {
        failureReason(in: Language.current)
    }

    /// What the user can do, in `Language.current`; `nil` when there is nothing useful to suggest.
    public var recoverySuggestion: String? {
        recoverySuggestion(in: Language.current)
    }

    /// The message a person should see, in `language`.
    ///
    /// A server code the catalog lists has the catalog's message (`errcore_describe()`). One it
    /// does not list (an unrecognised module code, in the module's ranges but not listed, or a code
    /// unknown to the catalog) has the server's message with the number when the envelope had one
    /// and ``ServerMessage/isShownInDescriptions`` is on: `"<message> (code N)"` in English,
    /// `"<message>(错误码 N)"` in Simplified Chinese, e.g. `Your team is full. (code 11219999)`;
    /// otherwise the catalog's generic text ("Unrecognised <module> error (code N)", "Unknown
    /// response code N"). Other failures have fixed texts.
    /// - Parameter language: The language wanted.
    /// - Returns: The message.
    public func errorDescription(in language: Language) -> String {
        let zh = language.usesSimplifiedChinese
        switch self {
        case .base(let answer):
            return describe(answer.value.rawValue, serverMessage: answer.serverMessage, in: language)
        case .module(let answer):
            return describe(answer.value.code, serverMessage: answer.serverMessage, in: language)
        case .unexpectedCode(let answer):
            return describe(answer.value, serverMessage: answer.serverMessage, in: language)
        case .transportFailed:
            return zh ? "网络请求失败。" : "The network request failed."
        case .cancelled:
            return zh ? "请求已取消。" : "The request was cancelled."
        case .stoppedByUser(let stop):
            return stop.message.text(in: language)
        case .unacceptableStatus(let status):
            let code = status.statusCode
            return zh ? "服务器返回了 HTTP 状态码 \(code)。" : "The server answered with HTTP status \(code)."
        case .invalidEnvelope:
            return zh ? "无法读取服务器的响应。" : "The server's response could not be read."
        case .decodingFailed:
            return zh ? "无法解析服务器返回的数据。" : "The data the server sent could not be read."
        case .invalidCatalog:
            return zh ? "应用的错误码目录配置有误。" : "The app's error code catalog is misconfigured."
        case .reauthenticationFailed:
            return ReauthenticationError.title.text(in: language)
        case .refused:
            return UpstreamRefusal.title.text(in: language)
        }
    }

    /// Why it failed, in `language`: which code and module, or the technical cause.
    /// - Parameter language: The language wanted.
    /// - Returns: The reason.
    public func failureReason(in language: Language) -> String {
        let zh = language.usesSimplifiedChinese
        switch self {
        case .base(let answer):
            let code = answer.value
            return zh ? "服务器返回通用错误码 \(code.rawValue)。" : "The server answered with the general code \(code.rawValue)."
        case .module(let answer):
            let code = answer.value
            let title = Code.moduleTitle.text(in: language)
            if code.isUnrecognised {
                return zh
                    ? "服务器返回了未识别的\(title)错误码 \(code.code)。"
                    : "The server answered with the \(title) code \(code.code), which this app does not know."
            }
            return zh
                ? "服务器返回\(title)错误码 \(code.code)(\(code.name))。"
                : "The server answered with the \(title) code \(code.code) (\(code.name))."
        case .unexpectedCode(let answer):
            let raw = answer.value
            return zh ? "服务器返回了意外的错误码 \(raw)。" : "The server answered with the unexpected code \(raw)."
        case .transportFailed(let underlying):
            return underlying.localizedDescription
        case .cancelled:
            return zh ? "请求在完成前被取消。" : "The request was cancelled before it finished."
        case .stoppedByUser(let stop):
            let attempts = stop.attempts
            return zh
                ? "尝试 \(attempts) 次后,您选择不再重试。"
                : "You chose not to try again after \(attempts) attempt\(attempts == 1 ? "" : "s")."
        case .unacceptableStatus(let status):
            let code = status.statusCode
            return zh ? "HTTP 状态码 \(code) 不在可接受的范围内。" : "HTTP status \(code) is not acceptable."
        case .invalidEnvelope(let failure):
            return failure.description
        case .decodingFailed(let underlying):
            return String(describing: underlying)
        case .invalidCatalog(let failure):
            return failure.message
        case .reauthenticationFailed(let failure):
            return failure.reason(in: language)
        case .refused(let refusal):
            return refusal.reason(in: language)
        }
    }

    /// What the user can do, in `language`: sign in again for codes flagged
    /// `CodeFlags.reauthenticate` and a session that could not be renewed, try again later for
    /// retryable failures and refused requests, check the connection for transport failures; `nil`
    /// otherwise.
    /// - Parameter language: The language wanted.
    /// - Returns: The suggestion, or `nil`.
    public func recoverySuggestion(in language: Language) -> String? {
        let zh = language.usesSimplifiedChinese
        if requiresReauthentication {
            return zh ? "请重新登录。" : "Sign in again."
        }
        if case .transportFailed = self {
            return zh ? "请检查网络连接后重试。" : "Check your network connection and try again."
        }
        if isRetryable || isRefused {
            return SuggestedRecovery.tryAgain.suggestion(in: language)
        }
        return nil
    }

    /// `errcore_describe()` through the module's catalog (the process-wide one when the module has
    /// none, which describes every code as unknown but the success code and the base tier), or the
    /// server's message with the number for a code that catalog does not list.
    private func describe(_ code: Int64, serverMessage: String?, in language: Language) -> String {
        let catalog = Code.catalog ?? Catalog.current
        if let message = Self.shownServerMessage(serverMessage, for: code, in: catalog) {
            return language.usesSimplifiedChinese ? "\(message)(错误码 \(code))" : "\(message) (code \(code))"
        }
        return catalog.describe(code, in: language)
    }

    /// `message` when descriptions show it in place of `catalog`'s text for `code`: there is one,
    /// ``ServerMessage/isShownInDescriptions`` is on, and `catalog` does not list `code`.
    static func shownServerMessage(_ message: String?, for code: Int64, in catalog: Catalog) -> String? {
        guard let message, !catalog.classify(code).isExact, ServerMessage.isShownInDescriptions else { return nil }
        return message
    }
}
