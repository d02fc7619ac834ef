// `errcat explain --present`: what an app would show its user for a code, rendered by the
// library's presentation model (ErrorPresentation) and TerminalErrorPresenter.

import Foundation
import SwiftErr

/// A classified code as a user-facing error: its message, where it comes from, and what the
/// person can do about it (from the catalog flags).
struct PresentedCode: LocalizedError {
    let parts: CodeDescriber.Parts
    let language: Language

    var errorDescription: String? { parts.message }

    var failureReason: String? {
        let name = [parts.module, parts.name].compactMap { $0 }.joined(separator: ".")
        let origin = name.isEmpty ? parts.tier : "\(parts.tier) \(name)"
        switch language {
        case .simplifiedChinese: return "来源:\(origin)(错误码 \(parts.code))。"
        case .english: return "From: \(origin) (code \(parts.code))."
        }
    }

    var recoverySuggestion: String? {
        let flags = Set(parts.flags)
        let chinese = language == .simplifiedChinese
        if flags.contains("reauthenticate") { return chinese ? "请重新登录。" : "Sign in again." }
        if flags.contains("fatal") { return chinese ? "请勿重试。" : "Do not retry." }
        if flags.contains("retryable") { return chinese ? "可以重试。" : "Trying again may succeed." }
        return nil
    }

    /// The recovery options the flags call for: sign in, or try again, each with cancel.
    var options: [RecoveryOption] {
        let flags = Set(parts.flags)
        if flags.contains("reauthenticate") {
            return [
                .custom(id: "signIn", title: LocalizedText(english: "Sign In", simplifiedChinese: "登录")) {},
                .cancel(),
            ]
        }
        if flags.contains("retryable") && !flags.contains("fatal") {
            return [.tryAgain {}, .cancel()]
        }
        return []
    }
}

/// Renders one code as the terminal presenter shows it, without asking for a choice.
/// - Returns: The rendered text (ends with a newline).
func presentationText(of parts: CodeDescriber.Parts, language: Language) -> String {
    let error = PresentedCode(parts: parts, language: language)
    let failure = RecoverableFailure(error, options: error.options)
    let presentation = ErrorPresentation(
        error: error.options.isEmpty ? error as any Error : failure,
        language: language)
    return TerminalErrorPresenter<String>.render(presentation, listingActions: presentation.actions.count > 1)
}
