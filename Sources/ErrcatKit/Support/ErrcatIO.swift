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
    func printError(_ text: String) {
        var buffer = OutputBuffer(descriptor: error)
        buffer.write(text)
        buffer.endLine()
        buffer.flush()
    }
}
