/// What a person can do about a failure: the one rule from catalog flags to recovery actions,
/// used by ``ErrorPresentation`` for a ``ModuleRespError`` and for a raw code of a catalog (which
/// `errcat explain --present` shows).
///
/// | flags | recovery | actions |
/// |---|---|---|
/// | `CodeFlags.reauthenticate` | ``signIn`` | "Sign In", "Cancel" |
/// | `CodeFlags.retryable` without `CodeFlags.fatal` | ``tryAgain`` | "Try Again", "Cancel" |
/// | anything else | ``acknowledge`` | "OK" |
public enum SuggestedRecovery: Sendable, Hashable, CaseIterable {
    /// The person must sign in again: "Sign In" and "Cancel".
    case signIn
    /// Trying again may succeed: "Try Again" and "Cancel".
    case tryAgain
    /// Nothing to do but take note: "OK".
    case acknowledge

    /// The recovery a catalog entry's flags call for (see the table above).
    /// - Parameter flags: The entry's flags.
    public init(flags: CodeFlags) {
        if flags.contains(.reauthenticate) {
            self = .signIn
        } else if flags.contains(.retryable) && !flags.contains(.fatal) {
            self = .tryAgain
        } else {
            self = .acknowledge
        }
    }

    /// The recovery options, in display order: the way out first, then "Cancel".
    /// - Parameters:
    ///   - signIn: What "Sign In" does (nothing by default: the choice is still reported).
    ///   - tryAgain: What "Try Again" does (nothing by default: the choice is still reported).
    /// - Returns: `[.signIn(_:), .cancel()]`, `[.tryAgain(_:), .cancel()]` or `[.ok()]`.
    public func options(
        signIn: @escaping @Sendable () -> Void = {},
        tryAgain: @escaping @Sendable () -> Void = {}
    ) -> [RecoveryOption] {
        switch self {
        case .signIn: return [.signIn(signIn), .cancel()]
        case .tryAgain: return [.tryAgain(tryAgain), .cancel()]
        case .acknowledge: return [.ok()]
        }
    }

    /// The suggestion shown under the message: "Sign in again." / "请重新登录。", "Try again
    /// later." / "请稍后重试。", or `nil`.
    /// - Parameter language: The language wanted.
    /// - Returns: The suggestion, or `nil` for ``acknowledge``.
    public func suggestion(in language: Language) -> String? {
        let zh = language.usesSimplifiedChinese
        switch self {
        case .signIn: return zh ? "请重新登录。" : "Sign in again."
        case .tryAgain: return zh ? "请稍后重试。" : "Try again later."
        case .acknowledge: return nil
        }
    }
}

/// An error that says, in any language asked for, what to show and which recovery it calls for.
///
/// ``ErrorPresentation/init(error:language:signIn:tryAgain:)`` uses these texts in the language it
/// is given (a `LocalizedError` only speaks `Language.current`) and builds the actions from
/// ``suggestedRecovery``. ``ModuleRespError`` conforms.
public protocol PresentableError: Error {
    /// What the person can do about this error.
    var suggestedRecovery: SuggestedRecovery { get }
    /// The headline in `language`.
    /// - Parameter language: The language wanted.
    /// - Returns: The headline.
    func presentationTitle(in language: Language) -> String
    /// The explanation under the headline in `language`, or `nil`.
    /// - Parameter language: The language wanted.
    /// - Returns: The explanation.
    func presentationMessage(in language: Language) -> String?
}

extension ModuleRespError: PresentableError {
    /// ``SuggestedRecovery/signIn`` when ``requiresReauthentication``, ``SuggestedRecovery/tryAgain``
    /// when ``isRetryable`` (a retryable code, status or transport failure) or the upstream's
    /// protection refused the request (``isRefused``: never retried by the policy, but worth trying
    /// again later), otherwise ``SuggestedRecovery/acknowledge``.
    public var suggestedRecovery: SuggestedRecovery {
        if requiresReauthentication { return .signIn }
        return isRetryable || isRefused ? .tryAgain : .acknowledge
    }

    /// ``errorDescription(in:)``.
    /// - Parameter language: The language wanted.
    /// - Returns: The headline.
    public func presentationTitle(in language: Language) -> String {
        errorDescription(in: language)
    }

    /// ``failureReason(in:)`` followed by ``recoverySuggestion(in:)``.
    /// - Parameter language: The language wanted.
    /// - Returns: The explanation.
    public func presentationMessage(in language: Language) -> String? {
        joinSentences([failureReason(in: language), recoverySuggestion(in: language)], in: language)
    }
}

/// A raw code of a catalog, presented as an app would present the server's answer.
struct CatalogCodeFailure: PresentableError {
    let code: Int64
    let catalog: Catalog
    let classification: Classification

    init(code: Int64, catalog: Catalog) {
        self.code = code
        self.catalog = catalog
        self.classification = catalog.classify(code)
    }

    var suggestedRecovery: SuggestedRecovery {
        SuggestedRecovery(flags: classification.isExact ? classification.flags : [])
    }

    func presentationTitle(in language: Language) -> String {
        catalog.describe(code, in: language)
    }

    func presentationMessage(in language: Language) -> String? {
        joinSentences([reason(in: language), suggestedRecovery.suggestion(in: language)], in: language)
    }

    /// Which tier and entry the code is, as a sentence.
    private func reason(in language: Language) -> String {
        let zh = language.usesSimplifiedChinese
        let name = classification.entryIndex.flatMap { catalog.entryName(at: $0) }
        switch classification.tier {
        case .success:
            return zh ? "服务器返回成功码 \(code)。" : "The server answered with the success code \(code)."
        case .base:
            let named = name.map { zh ? "(\($0))" : " (\($0))" } ?? ""
            return zh ? "服务器返回通用错误码 \(code)\(named)。" : "The server answered with the general code \(code)\(named)."
        case .module:
            let id = classification.moduleID
            let title = catalog.moduleTitle(id, in: language) ?? catalog.moduleName(id) ?? "?"
            guard let name else {
                return zh
                    ? "服务器返回了未识别的\(title)错误码 \(code)。"
                    : "The server answered with the \(title) code \(code), which this app does not know."
            }
            return zh
                ? "服务器返回\(title)错误码 \(code)(\(name))。" : "The server answered with the \(title) code \(code) (\(name))."
        case .unknown:
            return zh ? "服务器返回了未知的错误码 \(code)。" : "The server answered with the unknown code \(code)."
        }
    }
}

/// Joins sentences as the language writes them: with a space in English, directly in Chinese
/// (whose full stop needs none).
/// - Parameters:
///   - sentences: The sentences; `nil` and empty ones are left out.
///   - language: The language they are in.
/// - Returns: The joined text.
func joinSentences(_ sentences: [String?], in language: Language) -> String {
    sentences.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: language.usesSimplifiedChinese ? "" : " ")
}
