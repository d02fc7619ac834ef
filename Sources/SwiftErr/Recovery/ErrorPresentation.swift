import Foundation

/// What to show for an error, with no UI framework: a title, a message and the actions a person
/// can choose, as a value a presenter renders (an alert, a toast, a line in a terminal).
///
/// The actions come, in this order of precedence, from:
/// - a ``RecoverableFailure``'s options, or a `RecoverableError`'s recovery options;
/// - a ``PresentableError`` (such as ``ModuleRespError``): its ``SuggestedRecovery``, from the
///   catalog flags: re-authenticate → "Sign In" and "Cancel", retryable → "Try Again" and
///   "Cancel", otherwise "OK";
/// - otherwise a single "OK".
///
/// The texts of a ``PresentableError`` (also one wrapped in a ``RecoverableFailure``) are taken in
/// the language asked for; any other error's come from its `LocalizedError` fields: the title is
/// `errorDescription`, the message joins `failureReason` and `recoverySuggestion`.
/// A ``ModuleRespError`` of a code its catalog does not list is titled with the server's message
/// and the number when the envelope had one (`Your team is full. (code 11219999)`), unless
/// ``ServerMessage/isShownInDescriptions`` is off.
///
/// <!-- listing: context=app -->
/// ```swift
/// let presentation = ErrorPresentation(error: error, signIn: { router.showSignIn() })
/// // token expired → "Your session has expired. Please sign in again." [Sign In] [Cancel]
/// ```
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
    ///   - language: The language of the fixed texts ("Error", "OK", the default message) and of a
    ///     ``PresentableError``'s texts; `Language.current` by default.
    ///   - signIn: What a "Sign In" action does (nothing by default; the choice is still reported).
    ///   - tryAgain: What a "Try Again" action does (nothing by default; the choice is still reported).
    public init(
        error: any Error, language: Language = Language.current,
        signIn: @escaping @Sendable () -> Void = {}, tryAgain: @escaping @Sendable () -> Void = {}
    ) {
        self.error = error
        let wrapped = (error as? RecoverableFailure)?.error ?? error
        if let presentable = wrapped as? any PresentableError {
            title = presentable.presentationTitle(in: language)
            message = presentable.presentationMessage(in: language).flatMap { $0.isEmpty ? nil : $0 }
        } else if let localized = error as? any LocalizedError {
            title = localized.errorDescription ?? Self.defaultTitle.text(in: language)
            let parts = [localized.failureReason, localized.recoverySuggestion].compactMap { $0 }.filter { !$0.isEmpty }
            message = parts.isEmpty ? nil : parts.joined(separator: " ")
        } else {
            title = Self.defaultTitle.text(in: language)
            message = Self.defaultMessage.text(in: language)
        }
        let options: [RecoveryOption]
        if let failure = error as? RecoverableFailure, !failure.options.isEmpty {
            options = failure.options
        } else if let recoverable = error as? any RecoverableError, !recoverable.recoveryOptions.isEmpty {
            actions = recoverable.recoveryOptions.enumerated().map { index, title in
                Action(title: title, role: .custom) { recoverable.attemptRecovery(optionIndex: index) }
            }
            return
        } else if let presentable = error as? any PresentableError {
            options = presentable.suggestedRecovery.options(signIn: signIn, tryAgain: tryAgain)
        } else {
            options = [RecoveryOption.ok()]
        }
        actions = options.map { option in
            Action(title: option.title.text(in: language), role: option.role) { option.perform() }
        }
    }

    /// The presentation of a raw code of a catalog, as an app would present that server answer:
    /// the catalog's message as the title, which tier and entry the code is with the suggestion as
    /// the message, and the actions its flags call for (``SuggestedRecovery/init(flags:)``).
    ///
    /// `errcat explain --present` renders this with ``TerminalErrorPresenter``.
    /// - Parameters:
    ///   - code: The server's code.
    ///   - catalog: The catalog that classifies it (the process-wide ``SwiftErrCore/Catalog/current`` by default).
    ///   - language: The language of every text; `Language.current` by default.
    ///   - signIn: What a "Sign In" action does.
    ///   - tryAgain: What a "Try Again" action does.
    public init(
        code: Int64, in catalog: Catalog = .current, language: Language = Language.current,
        signIn: @escaping @Sendable () -> Void = {}, tryAgain: @escaping @Sendable () -> Void = {}
    ) {
        self.init(
            error: CatalogCodeFailure(code: code, catalog: catalog), language: language, signIn: signIn,
            tryAgain: tryAgain)
    }

    /// Runs the action at an index.
    /// - Parameter index: A position in ``actions``.
    /// - Returns: Whether the error is recovered from, or `nil` when `index` is out of range
    ///   (nothing is run).
    public func perform(actionAt index: Int) -> Bool? {
        actions.indices.contains(index) ? actions[index].perform() : nil
    }
}
