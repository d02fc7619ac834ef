import SwiftErr

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

/// Thrown when a catalog file cannot be turned into a `CatalogDefinition`: the problems
/// found, in file order.
public struct CatalogFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, sorted by location; never empty. When the file has more problems than the
    /// reader's limit, these are the first ones in the file.
    public var problems: [CatalogFileProblem]
    /// How many more problems the file has beyond ``problems`` (not listed because of the limit).
    public var omittedCount: Int

    /// Creates an error from problems.
    /// - Parameters:
    ///   - problems: The problems found (at least one).
    ///   - omittedCount: Further problems found but not listed.
    public init(problems: [CatalogFileProblem], omittedCount: Int = 0) {
        self.problems = problems
        self.omittedCount = omittedCount
    }

    /// Every problem found: ``problems`` and the omitted ones.
    public var totalCount: Int { problems.count + omittedCount }

    /// One problem per line, "line:column: message", then "… and N more problems" when some
    /// were omitted.
    public var description: String {
        var lines = problems.map(\.description)
        if omittedCount > 0 {
            lines.append("… and \(omittedCount) more problem\(omittedCount == 1 ? "" : "s")")
        }
        return lines.joined(separator: "\n")
    }
}
