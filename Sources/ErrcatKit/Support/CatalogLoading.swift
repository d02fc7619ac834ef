// `--catalog FILE`: reading a catalog file into a Catalog, or the built-in catalog.

import SwiftErr
import SwiftErrCatalogFile
import SwiftErrDefaultCatalog

/// Why a catalog could not be loaded: lines ready to print on stderr.
struct CatalogLoadError: Error {
    var lines: [String]
}

/// Reads and decodes a catalog file.
/// - Parameters:
///   - path: The catalog file (`-` for stdin).
///   - related: Whether a problem's line ends with " (see path:line:column)" for the other place
///     involved, as `errcat check` writes it.
/// - Returns: The catalog definition.
/// - Throws: `CatalogLoadError` with one "path:line:column: error: message" line per problem (the
///   first 100; then a line with the count of the rest; `errcat check` lists more).
func loadCatalogDefinition(
    _ path: String, io: ErrcatIO, related: Bool = false
) throws(CatalogLoadError) -> CatalogDefinition {
    try loadCatalogFile(path, io: io, related: related).definition
}

/// Reads and decodes a catalog file, as ``loadCatalogDefinition(_:io:related:)`` does, and gives
/// back the file's bytes too (standard input can be read only once).
/// - Returns: The file's bytes and the catalog definition.
/// - Throws: `CatalogLoadError`, as ``loadCatalogDefinition(_:io:related:)``.
func loadCatalogFile(
    _ path: String, io: ErrcatIO, related: Bool = false
) throws(CatalogLoadError) -> (bytes: [UInt8], definition: CatalogDefinition) {
    let bytes: [UInt8]
    do {
        bytes = try readWholeFile(path, standardInput: io.input)
    } catch {
        throw CatalogLoadError(lines: ["errcat: cannot read catalog \(error.description)"])
    }
    do {
        return (bytes, try CatalogDefinition(json: bytes, problemLimit: CheckCommand.defaultMaxProblems))
    } catch {
        let shownPath = DisplayText.bare(path)
        var lines = error.problems.map { problem in
            "\(shownPath):\(problem.location): error: \(problem.message)"
                + (related ? problem.related.map { " (see \(shownPath):\($0))" } ?? "" : "")
        }
        if error.omittedCount > 0 {
            lines.append(
                "\(shownPath): \(error.totalCount) problems (the first \(error.problems.count) listed; errcat check --max-problems N lists more)"
            )
        }
        throw CatalogLoadError(lines: lines)
    }
}

/// The table to classify with: the file's catalog when `path` is given, else the built-in one
/// (`Catalog.builtIn` of the SwiftErrDefaultCatalog product).
/// - Parameter path: The `--catalog` value, if any.
/// - Returns: The table.
/// - Throws: `CatalogLoadError` when the file cannot be read, decoded or built.
func loadTable(_ path: String?, io: ErrcatIO) throws(CatalogLoadError) -> Catalog {
    guard let path else { return Catalog.builtIn }
    let definition = try loadCatalogDefinition(path, io: io)
    do {
        return try Catalog(definition)
    } catch {
        throw CatalogLoadError(lines: ["\(DisplayText.bare(path)): error: \(error.message)"])
    }
}
