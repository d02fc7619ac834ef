import Foundation

/// An error paired with the options a person can choose to recover from it; conforms to
/// `Foundation.RecoverableError`, so the options reach presenters that know only that protocol.
///
/// <!-- listing: context=app -->
/// ```swift
/// let failure = RecoverableFailure.tryAgain(error) { Task { await reload() } }
/// await presenter.present(failure)
/// ```
///
/// Options are addressed by index, as `RecoverableError` requires; an index outside
/// ``options`` is answered with "not recovered", never a crash.
public struct RecoverableFailure: Error, Sendable {
    /// The error being recovered from.
    public let error: any Error
    /// The options, in display order.
    public let options: [RecoveryOption]

    /// Pairs an error with recovery options.
    /// - Parameters:
    ///   - error: The error.
    ///   - options: The options, in display order.
    public init(_ error: any Error, options: [RecoveryOption]) {
        self.error = error
        self.options = options
    }

    /// "Cancel" and "Try Again".
    /// - Parameters:
    ///   - error: The error.
    ///   - action: What trying again does.
    /// - Returns: The failure with `[.cancel(), .tryAgain(action)]`.
    public static func tryAgain(_ error: any Error, _ action: @escaping @Sendable () -> Void) -> RecoverableFailure {
        RecoverableFailure(error, options: [.cancel(), .tryAgain(action)])
    }

    /// "Cancel" followed by custom options (for example free space, or
    /// buy more space).
    /// - Parameters:
    ///   - error: The error.
    ///   - options: The options after "Cancel".
    /// - Returns: The failure with `[.cancel()] + options`.
    public static func cancellable(_ error: any Error, options: [RecoveryOption]) -> RecoverableFailure {
        RecoverableFailure(error, options: [.cancel()] + options)
    }

    /// The option at an index.
    /// - Parameter index: A position in ``options``.
    /// - Returns: The option, or `nil` when `index` is out of range.
    public func option(at index: Int) -> RecoveryOption? {
        options.indices.contains(index) ? options[index] : nil
    }
}

extension RecoverableFailure: RecoverableError {
    /// The options' titles in `Language.current`.
    public var recoveryOptions: [String] {
        recoveryOptions(in: Language.current)
    }

    /// The options' titles in a given language.
    /// - Parameter language: The language wanted.
    /// - Returns: One title per option, in order.
    public func recoveryOptions(in language: Language) -> [String] {
        options.map { $0.title.text(in: language) }
    }

    /// Runs the option at `recoveryOptionIndex`.
    /// - Parameter recoveryOptionIndex: A position in ``recoveryOptions``.
    /// - Returns: Whether the error is recovered from; `false` for an index out of range (the
    ///   option is not run and nothing traps).
    public func attemptRecovery(optionIndex recoveryOptionIndex: Int) -> Bool {
        option(at: recoveryOptionIndex)?.perform() ?? false
    }
}

extension RecoverableFailure: LocalizedError {
    /// The wrapped error's description (its `localizedDescription` when it is not a `LocalizedError`).
    public var errorDescription: String? {
        (error as? any LocalizedError)?.errorDescription ?? error.localizedDescription
    }
    /// The wrapped error's failure reason, if it has one.
    public var failureReason: String? { (error as? any LocalizedError)?.failureReason }
    /// The wrapped error's recovery suggestion, if it has one.
    public var recoverySuggestion: String? { (error as? any LocalizedError)?.recoverySuggestion }
    /// The wrapped error's help anchor, if it has one.
    public var helpAnchor: String? { (error as? any LocalizedError)?.helpAnchor }
}
