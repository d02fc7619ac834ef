import Foundation

/// A presenter for command-line tools: writes the presentation as text and, when given an input,
/// reads the person's choice.
///
/// ```text
/// error: The server answered with HTTP status 503 (Service Unavailable).
///   The server failed to handle the request (5xx).
///   [1] Cancel
///   [2] Try Again
/// ```
///
/// Without an input, or when the input ends or is an empty line, the presentation is dismissed
/// (`nil`). An answer that is not one of the numbers shown gets a message naming the bad answer
/// and the valid range, and is asked again, at most ``maxPrompts`` times in all.
public final class TerminalErrorPresenter<Output: TextOutputStream & Sendable>: ErrorPresenter {
    private let output: Locked<Output>
    private let input: (@Sendable () -> String?)?

    /// How many times a choice is asked for before giving up.
    public let maxPrompts: Int

    /// Creates a presenter.
    /// - Parameters:
    ///   - output: Where to write (e.g. ``FileHandleOutputStream/standardError``, or a `String`).
    ///   - input: Reads one line of the person's answer (e.g. `{ readLine() }`), or `nil` to only
    ///     print.
    ///   - maxPrompts: How many times to ask before giving up (at least 1; 3 by default).
    public init(output: Output, input: (@Sendable () -> String?)? = nil, maxPrompts: Int = 3) {
        self.output = Locked(output)
        self.input = input
        self.maxPrompts = max(1, maxPrompts)
    }

    /// The output stream as it is now (for a `String` output: everything written).
    public var written: Output { output.withLock { $0 } }

    /// Writes the presentation and reads a choice if there is an input.
    /// - Parameter presentation: What to show.
    /// - Returns: The chosen action's index, or `nil`.
    public func present(_ presentation: ErrorPresentation) async -> Int? {
        write(Self.render(presentation, listingActions: input != nil || presentation.actions.count > 1))
        guard let input, !presentation.actions.isEmpty else { return nil }
        let range = 1...presentation.actions.count
        for _ in 0..<maxPrompts {
            write("choose \(range.lowerBound)-\(range.upperBound) (empty to dismiss): ")
            guard let line = input() else {
                write("\n")
                return nil
            }
            let answer = line.trimmingCharacters(in: .whitespaces)
            if answer.isEmpty { return nil }
            if let number = Int(answer), range.contains(number) { return number - 1 }
            write("not a choice: '\(answer)' (expected a number from \(range.lowerBound) to \(range.upperBound))\n")
        }
        write("no valid choice after \(maxPrompts) prompts; dismissed\n")
        return nil
    }

    /// The text a terminal shows for a presentation: `error: <title>`, the message indented, and
    /// the actions numbered from 1 when `listingActions` is set.
    /// - Parameters:
    ///   - presentation: What to show.
    ///   - listingActions: Whether to list the actions (a lone "OK" is usually left out).
    /// - Returns: The text, ending with a newline.
    public static func render(_ presentation: ErrorPresentation, listingActions: Bool) -> String {
        var text = "error: \(presentation.title)\n"
        if let message = presentation.message {
            for line in message.split(separator: "\n", omittingEmptySubsequences: false) { text += "  \(line)\n" }
        }
        if listingActions {
            for (index, action) in presentation.actions.enumerated() { text += "  [\(index + 1)] \(action.title)\n" }
        }
        return text
    }

    private func write(_ text: String) {
        output.withLock { $0.write(text) }
    }
}

extension TerminalErrorPresenter where Output == FileHandleOutputStream {
    /// A presenter that writes to standard error and reads nothing.
    public static var standardError: TerminalErrorPresenter<FileHandleOutputStream> {
        TerminalErrorPresenter(output: .standardError)
    }
}
