import Foundation

/// What to show for an error, with no UI framework: a title, a message and the actions a person
/// can choose (seed 004's `createAlert(for:)`, as a value a presenter renders).
///
/// Built from the error's `LocalizedError` fields: the title is `errorDescription`, the message
/// joins `failureReason` and `recoverySuggestion`. A `RecoverableError` (such as
/// ``RecoverableFailure``) contributes its recovery options as actions, each running
/// `attemptRecovery(optionIndex:)`; any other error gets a single "OK".
public struct ErrorPresentation: Sendable {
    /// One choice offered to the person.
    public struct Action: Sendable {
        /// The button title.
        public let title: String
        /// The action's kind, for styling.
        public let role: RecoveryOption.Role
        private let handler: @Sendable () -> Bool

        /// Creates an action.
        /// - Parameters:
        ///   - title: The button title.
        ///   - role: The action's kind.
        ///   - perform: Runs the action; returns whether the error is recovered from.
        public init(title: String, role: RecoveryOption.Role, perform: @escaping @Sendable () -> Bool) {
            self.title = title
            self.role = role
            self.handler = perform
        }

        /// Runs the action.
        /// - Returns: Whether the error is recovered from.
        public func perform() -> Bool { handler() }
    }

    /// The headline.
    public var title: String
    /// The explanation, or `nil`.
    public var message: String?
    /// The choices, in display order (never empty when built from an error).
    public var actions: [Action]
    /// The error presented.
    public let error: any Error

    /// Creates a presentation from its parts.
    /// - Parameters:
    ///   - title: The headline.
    ///   - message: The explanation.
    ///   - actions: The choices.
    ///   - error: The error presented.
    public init(title: String, message: String?, actions: [Action], error: any Error) {
        self.title = title
        self.message = message
        self.actions = actions
        self.error = error
    }

    /// "Error" / "错误": the title of an error without a description.
    public static let defaultTitle = LocalizedText(english: "Error", simplifiedChinese: "错误")
    /// "Something went wrong. Please try again." / "出了点问题,请重试。": the message of an error
    /// that is not a `LocalizedError`.
    public static let defaultMessage = LocalizedText(
        english: "Something went wrong. Please try again.",
        simplifiedChinese: "出了点问题,请重试。")

    /// Derives the presentation of an error.
    /// - Parameters:
    ///   - error: The error.
    ///   - language: The language of the fixed texts ("Error", "OK", the default message);
    ///     ``Language/current`` by default. The error's own texts come from its
    ///     `LocalizedError` fields.
    public init(error: any Error, language: Language = Language.current) {
        self.error = error
        if let localized = error as? any LocalizedError {
            title = localized.errorDescription ?? Self.defaultTitle.text(in: language)
            let parts = [localized.failureReason, localized.recoverySuggestion].compactMap { $0 }.filter { !$0.isEmpty }
            message = parts.isEmpty ? nil : parts.joined(separator: " ")
        } else {
            title = Self.defaultTitle.text(in: language)
            message = Self.defaultMessage.text(in: language)
        }
        if let failure = error as? RecoverableFailure, !failure.options.isEmpty {
            actions = failure.options.map { option in
                Action(title: option.title.text(in: language), role: option.role) { option.perform() }
            }
        } else if let recoverable = error as? any RecoverableError, !recoverable.recoveryOptions.isEmpty {
            actions = recoverable.recoveryOptions.enumerated().map { index, title in
                Action(title: title, role: .custom) { recoverable.attemptRecovery(optionIndex: index) }
            }
        } else {
            let ok = RecoveryOption.ok()
            actions = [Action(title: ok.title.text(in: language), role: .acknowledge) { ok.perform() }]
        }
    }

    /// Runs the action at an index.
    /// - Parameter index: A position in ``actions``.
    /// - Returns: Whether the error is recovered from, or `nil` when `index` is out of range
    ///   (nothing is run).
    public func perform(actionAt index: Int) -> Bool? {
        actions.indices.contains(index) ? actions[index].perform() : nil
    }
}
