// One thing wrong with a catalog file, and the error that carries all of them.

/// One problem found in a catalog file: where it is, what is wrong, and the
/// other place involved when there is one (the first of two duplicate codes, say).
public struct CatalogFileProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, in one English sentence naming the codes and entries involved.
    public var message: String
    /// The other place involved (the earlier duplicate, the overlapping range), if any.
    public var related: SourceLocation?

    /// Creates a problem.
    /// - Parameters:
    ///   - location: Where the problem is.
    ///   - message: What is wrong.
    ///   - related: The other place involved, if any.
    public init(location: SourceLocation, message: String, related: SourceLocation? = nil) {
        self.location = location
        self.message = message
        self.related = related
    }

    /// "line:column: message".
    public var description: String { "\(location): \(message)" }
}

/// Thrown when a catalog file cannot be turned into a ``CatalogDefinition``:
/// every problem found, in file order.
public struct CatalogFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, sorted by location; never empty.
    public var problems: [CatalogFileProblem]

    /// Creates an error from problems.
    /// - Parameter problems: The problems found (at least one).
    public init(problems: [CatalogFileProblem]) {
        self.problems = problems
    }

    /// One problem per line, "line:column: message".
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
