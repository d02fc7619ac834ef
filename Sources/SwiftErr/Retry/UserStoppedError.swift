import Foundation

/// The user chose not to try again: its own error with its own message (for example "You
/// cancelled the upload."), distinct from the failure that prompted the question.
///
/// ``Retrier`` and ``ResponseClient`` throw it as ``ModuleRespError/stoppedByUser(_:)``, so one
/// `catch` covers it with every other outcome.
public struct UserStoppedError: Error, Sendable, CustomStringConvertible {
    /// The message to show, e.g. "You cancelled the upload." / "您取消了本次的上传操作。"
    public let message: LocalizedText
    /// How many attempts were made before the user stopped.
    public let attempts: Int
    /// The failure the user was asked about.
    public let lastError: any Error

    /// The default message: "You cancelled the operation." / "您取消了本次操作。"
    public static let defaultMessage = LocalizedText(
        english: "You cancelled the operation.",
        simplifiedChinese: "您取消了本次操作。")

    /// Creates the error.
    /// - Parameters:
    ///   - message: The message to show.
    ///   - attempts: Attempts made.
    ///   - lastError: The failure the user was asked about.
    public init(message: LocalizedText = UserStoppedError.defaultMessage, attempts: Int, lastError: any Error) {
        self.message = message
        self.attempts = attempts
        self.lastError = lastError
    }

    /// `stopped by user after N attempt(s): <message>` in English.
    public var description: String {
        "stopped by user after \(attempts) attempt\(attempts == 1 ? "" : "s"): \(message.english)"
    }
}

extension UserStoppedError: LocalizedError {
    /// The message in `Language.current`.
    public var errorDescription: String? { message.text(in: Language.current) }
}
