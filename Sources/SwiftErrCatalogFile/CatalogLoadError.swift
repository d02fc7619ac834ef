import SwiftErr

/// Why a catalog file could not be loaded: which file, and what is wrong with it, located.
///
/// Its ``description`` names the file on every line: `PATH: REASON` when the file cannot be read,
/// `PATH:LINE:COLUMN: MESSAGE` for each problem of a file that was read.
public struct CatalogLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The file could not be read: the system's reason (`No such file or directory`), or
        /// `is a directory`, or that it is larger than ``CatalogDefinition/fileSizeLimit``.
        case unreadable(String)
        /// The file was read, and is not a catalog: every problem with its line and column.
        case invalid(CatalogFileError)
        /// The file is a catalog the C core would not build (the reader's checks normally find
        /// every such problem first).
        case unbuildable(CatalogError)
    }

    /// The file, as it was given.
    public var path: String
    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    /// - Parameters:
    ///   - path: The file.
    ///   - reason: What went wrong.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// One line per problem, each starting with the file's path (escaped when it holds characters
    /// a terminal would not show as they are), as compilers write them.
    public var description: String {
        let file = DisplayText.bare(path)
        switch reason {
        case .unreadable(let why):
            return "\(file): \(why)"
        case .invalid(let error):
            var lines = error.problems.map { "\(file):\($0)" }
            if error.omittedCount > 0 {
                lines.append(
                    "\(file): … and \(error.omittedCount) more problem\(error.omittedCount == 1 ? "" : "s")")
            }
            return lines.joined(separator: "\n")
        case .unbuildable(let error):
            return "\(file): \(error.message)"
        }
    }
}
