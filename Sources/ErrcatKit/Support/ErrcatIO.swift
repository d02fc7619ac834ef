/// Where errcat reads and writes: standard input, output and error, as file descriptors.
///
/// The `errcat` executable uses the process's own (0, 1, 2); tests and embedding programs run
/// commands in process with pipes or files of their own.
public struct ErrcatIO: Sendable {
    /// The descriptor read for the input `-` (standard input).
    public var input: Int32
    /// The descriptor results are written to (standard output).
    public var output: Int32
    /// The descriptor diagnostics are written to (standard error).
    public var error: Int32

    /// Creates a set of descriptors; none is closed by errcat.
    /// - Parameters:
    ///   - input: Standard input.
    ///   - output: Standard output.
    ///   - error: Standard error.
    public init(input: Int32 = 0, output: Int32 = 1, error: Int32 = 2) {
        self.input = input
        self.output = output
        self.error = error
    }

    /// The process's standard input, output and error.
    public static let standard = ErrcatIO()

    /// Writes a message and a newline to the error descriptor at once (unbuffered), e.g.
    /// "errcat: cannot open ...".
    /// - Returns: `true` when the message was written, `false` when writing to standard error
    ///   failed (there is then nowhere left to report it: the caller exits with status 1).
    @discardableResult
    func printError(_ text: String) -> Bool {
        var buffer = OutputBuffer(descriptor: error)
        buffer.write(text)
        buffer.endLine()
        buffer.flush()
        return buffer.failure == nil
    }

    /// Reports a failed write on standard error, in the one form every command uses:
    /// "errcat COMMAND: cannot write WHAT: REASON" (REASON is the system's, `strerror`).
    /// - Parameters:
    ///   - command: The subcommand, or `nil` for errcat itself (`errcat --help`).
    ///   - what: What could not be written: "standard output" or a file's path.
    ///   - reason: The system's reason.
    func reportWriteFailure(command: String?, what: String, reason: String) {
        let prefix = command.map { "errcat \($0)" } ?? "errcat"
        printError("\(prefix): cannot write \(what): \(reason)")
    }

    /// Flushes `out` and reports a failed write (``reportWriteFailure(command:what:reason:)``).
    /// - Parameters:
    ///   - out: The buffer of standard output (or of `what`).
    ///   - command: The subcommand, or `nil` for errcat itself.
    ///   - what: What the buffer writes to, "standard output" by default.
    /// - Returns: `true` when everything was written; otherwise the command exits with status 1.
    func finish(_ out: inout OutputBuffer, command: String?, what: String = "standard output") -> Bool {
        out.flush()
        guard let reason = out.failureReason else { return true }
        reportWriteFailure(command: command, what: what, reason: reason)
        return false
    }
}
