// A service's catalog loaded from a file and reloaded from it without a restart.

import SwiftErr

extension ReloadableCatalog {
    /// Reads, checks and builds a catalog file, and starts with it as generation 0.
    /// - Parameter path: The catalog file.
    /// - Throws: ``CatalogLoadError`` when the file cannot be read, is not a catalog, or does not
    ///   build; each problem is located (`PATH:LINE:COLUMN: MESSAGE`).
    public convenience init(contentsOfFile path: String) throws(CatalogLoadError) {
        self.init(try Self.build(contentsOfFile: path))
    }

    /// Reads, checks and builds a catalog file and, when all of that succeeds, makes it the catalog
    /// in use as the next generation. When anything fails, throws and changes nothing: the
    /// catalog in use stays, and so do the snapshots taken from it.
    ///
    /// <!-- listing: context=app -->
    /// ```swift
    /// do {
    ///     let snapshot = try catalog.reload(contentsOfFile: path)
    ///     logger.notice("catalog \(snapshot.name) \(snapshot.identity) in use")
    /// } catch {
    ///     logger.error("catalog kept: \(error)")   // PATH:LINE:COLUMN: MESSAGE
    /// }
    /// ```
    /// - Parameter path: The catalog file.
    /// - Returns: The new snapshot.
    /// - Throws: ``CatalogLoadError`` when the file cannot be read, is not a catalog, or does not
    ///   build; each problem is located.
    @discardableResult
    public func reload(contentsOfFile path: String) throws(CatalogLoadError) -> Snapshot {
        replace(with: try Self.build(contentsOfFile: path))
    }

    /// The catalog a file holds, built and ready to be swapped in.
    private static func build(contentsOfFile path: String) throws(CatalogLoadError) -> Catalog {
        let definition = try CatalogDefinition(contentsOfFile: path)
        do {
            return try Catalog(definition)
        } catch {
            throw CatalogLoadError(path: path, reason: .unbuildable(error))
        }
    }
}
