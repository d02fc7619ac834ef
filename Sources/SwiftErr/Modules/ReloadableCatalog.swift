// A service's catalog that is replaced while the service runs: readers take the catalog in use
// as one immutable snapshot, and a new catalog is built and checked whole before it is swapped in.

/// The catalog a long-running service classifies with, replaceable without a restart.
///
/// A `Catalog` never changes once built, so replacing one is a matter of which catalog a
/// classification starts from. `ReloadableCatalog` holds the catalog in use behind a lock and
/// hands it out as a ``Snapshot``: the catalog, its ``SwiftErrCore/Catalog/identity`` and the ``Snapshot/generation``
/// it was installed as. Take one snapshot per request (or per batch) and classify the whole of
/// it through `snapshot.catalog`: a classification in flight finishes on the table it started
/// with, even when a new catalog arrives meanwhile, and the old table is freed when its last
/// snapshot is gone.
///
/// ``replace(with:)-(CatalogDefinition)`` builds the new catalog completely, outside the lock,
/// before swapping it in; a definition that does not build throws and leaves the catalog in use
/// as it was, so no reader ever sees a half-built table or no table. Reading a catalog file is the
/// `SwiftErrCatalogFile` product's part: its `reload(contentsOfFile:)` reads, checks and builds a
/// file the same way and reports a bad one with the line and column of each problem.
///
/// <!-- listing: context=shop -->
/// ```swift
/// let catalog = ReloadableCatalog(try Catalog(ShopCatalog.definition))
/// // For each request:
/// let snapshot = catalog.snapshot
/// let classification = snapshot.catalog.classify(code)
/// // On a signal or an admin request:
/// try catalog.replace(with: newDefinition)
/// ```
///
/// This is a catalog of its own, separate from SwiftErr's process-wide catalog
/// (`Catalog.install(_:)`), which is fixed at its first use because the module classifiers
/// handed out from it keep their catalog. A `ModuleClassifier` made from a snapshot's catalog pins
/// that catalog for the rest of the process: for typed outcomes that follow reloads, make one
/// per catalog generation, not one per request.
public final class ReloadableCatalog: Sendable {
    /// The catalog in use at one moment, with what identifies it.
    public struct Snapshot: Sendable {
        /// The catalog: classify a whole request or batch through it.
        public let catalog: Catalog
        /// The catalog's ``SwiftErrCore/Catalog/identity`` (`fnv1a64:` and 16 hex digits), computed once when
        /// the catalog was installed.
        public let identity: String
        /// How many catalogs were installed before this one: 0 for the first, then one more for
        /// each successful replacement (a replacement with the same contents included).
        public let generation: UInt64

        /// The catalog's name, as its definition gives it.
        public var name: String { catalog.name }
    }

    private let current: Locked<Snapshot>

    /// Starts with `catalog` as generation 0.
    /// - Parameter catalog: The first catalog in use.
    public init(_ catalog: Catalog) {
        current = Locked(Snapshot(catalog: catalog, identity: catalog.identity, generation: 0))
    }

    /// Builds `definition` and starts with it as generation 0.
    /// - Parameter definition: The first catalog in use.
    /// - Throws: `CatalogError` when the definition does not build (as `Catalog.init(_:)`).
    public convenience init(_ definition: CatalogDefinition) throws(CatalogError) {
        self.init(try Catalog(definition))
    }

    /// The catalog in use now. One lock, one retain: take it once per request or batch, and
    /// classify the whole of it through the snapshot's catalog.
    public var snapshot: Snapshot {
        current.withLock { $0 }
    }

    /// Makes `catalog` the catalog in use, as the next generation. Snapshots taken before keep
    /// the catalog they hold.
    /// - Parameter catalog: The new catalog, already built.
    /// - Returns: The new snapshot.
    @discardableResult
    public func replace(with catalog: Catalog) -> Snapshot {
        // The identity is computed before the lock is taken: it reads the whole table.
        let identity = catalog.identity
        return current.withLock { current in
            current = Snapshot(catalog: catalog, identity: identity, generation: current.generation &+ 1)
            return current
        }
    }

    /// Builds `definition` and, when it builds, makes it the catalog in use as the next
    /// generation. When it does not build, throws and changes nothing: the catalog in use stays.
    /// - Parameter definition: The new catalog.
    /// - Returns: The new snapshot.
    /// - Throws: `CatalogError` naming what is wrong with the definition (as `Catalog.init(_:)`).
    @discardableResult
    public func replace(with definition: CatalogDefinition) throws(CatalogError) -> Snapshot {
        replace(with: try Catalog(definition))
    }
}
