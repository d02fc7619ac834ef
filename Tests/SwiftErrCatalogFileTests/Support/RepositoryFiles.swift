import Foundation

/// Files of this repository that tests read: the default catalog and the fixtures in
/// Tests/Fixtures.
enum RepositoryFiles {
    /// The repository root (this file is Tests/SwiftErrCatalogFileTests/Support/RepositoryFiles.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bytes of a file, by its path from the repository root.
    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(path)))
    }
}
