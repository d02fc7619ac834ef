import SwiftErr

/// A presenter for tests: records every presentation and answers with scripted choices, so a
/// test can drive a recovery flow without a UI.
///
/// <!-- listing: context=app,tests -->
/// ```swift
/// let presenter = RecordingErrorPresenter(answers: [1])   // choose "Try Again"
/// let outcome = await presenter.present(RecoverableFailure.tryAgain(error) { Task { await reload() } })
/// #expect(outcome == .chose(actionIndex: 1, recovered: true))
/// #expect(presenter.presentations.first?.actions.map(\.title) == ["Cancel", "Try Again"])
/// ```
public final class RecordingErrorPresenter: ErrorPresenter {
    private struct State {
        var presentations: [ErrorPresentation] = []
        var answers: [Int?]
    }

    private let state: Locked<State>

    /// Creates a presenter.
    /// - Parameter answers: The choices to answer, in order; when they run out, every further
    ///   presentation is dismissed (`nil`).
    public init(answers: [Int?] = []) {
        state = Locked(State(answers: answers))
    }

    /// Records the presentation and answers the next scripted choice.
    /// - Parameter presentation: What would be shown.
    /// - Returns: The next scripted choice, or `nil`.
    public func present(_ presentation: ErrorPresentation) async -> Int? {
        state.withLock { state in
            state.presentations.append(presentation)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
    }

    /// Everything presented so far, in order.
    public var presentations: [ErrorPresentation] { state.withLock { $0.presentations } }
}
