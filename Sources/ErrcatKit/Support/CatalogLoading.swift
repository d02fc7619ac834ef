// `--catalog FILE`: reading a catalog file into a Catalog, or the built-in catalog.

import SwiftErr
import SwiftErrCatalogFile
import SwiftErrDefaultCatalog

/// Why a catalog could not be loaded: lines ready to print on stderr.
struct CatalogLoadError: Error {
    var lines: [String]
}

/// A catalog problem as one diagnostic line, `FILE:LINE:COLUMN: error: MESSAGE`, with
/// ` (see FILE:LINE:COLUMN)` for the other place involved (the entry a duplicate repeats): the form
/// every command prints, so `errcat check`, `errcat gen` and the SwiftErrCatalogPlugin's build
/// errors name the same places.
/// - Parameters:
///   - problem: The problem.
///   - shownPath: The file as shown.
/// - Returns: The line, without its newline.
func diagnosticLine(_ problem: CatalogFileProblem, in shownPath: String) -> String {
    "\(shownPath):\(problem.location): error: \(problem.message)"
        + (problem.related.map { " (see \(shownPath):\($0))" } ?? "")
}

/// A catalog's missing translations as `FILE:LINE:COLUMN: warning: …` lines (the place of the entry
/// or module that lacks the text), at most `limit` of them, then a line with the count of the rest.
/// - Parameters:
///   - missing: The located missing translations.
///   - shownPath: The file as shown.
///   - limit: The most warnings listed.
/// - Returns: The lines, without newlines.
func warningLines(_ missing: [LocatedMissingTranslation], in shownPath: String, limit: Int) -> [String] {
    var lines = missing.prefix(limit).map { "\(shownPath):\($0.location): warning: \($0.translation)" }
    if missing.count > limit {
        lines.append(
            "\(shownPath): \(missing.count) missing translations (the first \(limit) listed; errcat check --max-problems N lists more)"
        )
    }
    return lines
}

/// Reads and decodes a catalog file, with the places of its missing translations, and gives back
/// the file's bytes too (standard input can be read only once).
/// - Parameter path: The catalog file (`-` for stdin).
/// - Returns: The file's bytes, and the catalog definition with its located missing translations.
/// - Throws: `CatalogLoadError` with one ``diagnosticLine(_:in:)`` per problem (the first 100; then
///   a line with the count of the rest; `errcat check` lists more).
func loadCatalogFile(_ path: String, io: ErrcatIO) throws(CatalogLoadError) -> (
    bytes: [UInt8], file: LocatedCatalogFile
) {
    let bytes: [UInt8]
    do {
        bytes = try readWholeFile(path, standardInput: io.input)
    } catch {
        throw CatalogLoadError(lines: ["errcat: cannot read catalog \(error.description)"])
    }
    do {
        return (bytes, try CatalogDefinition.readLocated(json: bytes, problemLimit: CheckCommand.defaultMaxProblems))
    } catch {
        let shownPath = DisplayText.bare(path)
        var lines = error.problems.map { diagnosticLine($0, in: shownPath) }
        if error.omittedCount > 0 {
            lines.append(
                "\(shownPath): \(error.totalCount) problems (the first \(error.problems.count) listed; errcat check --max-problems N lists more)"
            )
        }
        throw CatalogLoadError(lines: lines)
    }
}

/// Reads and decodes a catalog file (``loadCatalogFile(_:io:)`` without its warnings).
/// - Parameter path: The catalog file (`-` for stdin).
/// - Returns: The catalog definition.
/// - Throws: `CatalogLoadError` as ``loadCatalogFile(_:io:)`` does.
func loadCatalogDefinition(_ path: String, io: ErrcatIO) throws(CatalogLoadError) -> CatalogDefinition {
    try loadCatalogFile(path, io: io).file.definition
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
