/// Shows an ``ErrorPresentation`` and reports the person's choice, with no UI dependency: an
/// alert, a toast, an inline view, a terminal (``TerminalErrorPresenter``) or a test double
/// (`RecordingErrorPresenter`) are all presenters, so recovery code is written once for all of them.
public protocol ErrorPresenter: Sendable {
    /// Shows a presentation and waits for the choice.
    /// - Parameter presentation: What to show.
    /// - Returns: The index of the chosen action in ``ErrorPresentation/actions``, or `nil` when
    ///   the presentation was dismissed without a choice (or cannot ask).
    func present(_ presentation: ErrorPresentation) async -> Int?
}

/// What happened when an error was presented.
public enum PresentationOutcome: Sendable, Hashable {
    /// No action was chosen.
    case dismissed
    /// The action at `actionIndex` was chosen and run; `recovered` is its result.
    case chose(actionIndex: Int, recovered: Bool)
    /// The presenter answered an index that is not an action; nothing was run.
    case invalidChoice(Int)
}

extension ErrorPresenter {
    /// Presents an error and runs the chosen action.
    /// - Parameter error: The error (a ``RecoverableFailure`` to offer recovery options).
    /// - Returns: What happened.
    @discardableResult
    public func present(_ error: any Error) async -> PresentationOutcome {
        let presentation = ErrorPresentation(error: error)
        guard let index = await present(presentation) else { return .dismissed }
        guard let recovered = presentation.perform(actionAt: index) else { return .invalidChoice(index) }
        return .chose(actionIndex: index, recovered: recovered)
    }

    /// A ``Retrier`` decision hook that asks through this presenter ("ask the user", the
    /// retry alert): it presents the failure with "Cancel" and "Try Again" and answers
    /// ``RetryDecision/retry`` only when "Try Again" is chosen.
    /// - Parameter code: The module of the retrier.
    /// - Returns: The hook.
    public func retryDecision<Code: ModuleCode>(for code: Code.Type)
        -> @Sendable (RetryContext<Code>) async -> RetryDecision
    {
        { context in
            let failure = RecoverableFailure.tryAgain(context.error) {}
            let presentation = ErrorPresentation(error: failure)
            guard let index = await self.present(presentation), failure.option(at: index)?.role == .tryAgain else {
                return .stop
            }
            return .retry
        }
    }
}
