// `--catalog FILE`: reading a catalog file into a CodeTable, or the built-in table.

import SwiftErr

/// Why a catalog could not be loaded: lines ready to print on stderr.
struct CatalogLoadError: Error {
    var lines: [String]
}

/// Reads and decodes a catalog file.
/// - Parameter path: The catalog file (`-` for stdin).
/// - Returns: The catalog definition.
/// - Throws: `CatalogLoadError` with one "path:line:column: message" line per problem.
func loadCatalogDefinition(_ path: String) throws(CatalogLoadError) -> CatalogDefinition {
    let bytes: [UInt8]
    do {
        bytes = try readWholeFile(path)
    } catch {
        throw CatalogLoadError(lines: ["errcat: cannot read catalog \(error.description)"])
    }
    do {
        return try CatalogFile.decode(bytes)
    } catch {
        throw CatalogLoadError(lines: error.problems.map { "\(path):\($0.location): error: \($0.message)" })
    }
}

/// The table to classify with: the file's catalog when `path` is given, else the built-in one.
/// - Parameter path: The `--catalog` value, if any.
/// - Returns: The table.
/// - Throws: `CatalogLoadError` when the file cannot be read, decoded or built.
func loadTable(_ path: String?) throws(CatalogLoadError) -> CodeTable {
    guard let path else { return CodeTable.builtIn }
    let definition = try loadCatalogDefinition(path)
    do {
        return try CodeTable(definition)
    } catch {
        throw CatalogLoadError(lines: ["\(path): error: \(error.message)"])
    }
}
