import CErrCore

/// An immutable catalog of response codes, built into a C table and shared freely between
/// threads: the thing that classifies codes.
///
/// A `Catalog` either owns storage it allocated once and filled with `errcore_build()` from a
/// ``CatalogDefinition``, or wraps a static C table that `errcat gen c` wrote (the built-in
/// catalog of the `SwiftErrDefaultCatalog` product, `Catalog.builtIn`, is one). The storage is
/// never written after the initializer returns, so any number of threads may classify through
/// one catalog at once with no lock.
///
/// Classifying is a direct call to `errcore_classify()` plus a struct wrap: no allocation.
///
/// <!-- listing: context=shop,homework -->
/// ```swift
/// let catalog = try Catalog(ShopCatalog.definition.adding(HomeworkCode.definition))
/// print(catalog.classify(11300001).tier)   // prints "module"
/// ```
///
/// An app has one process-wide catalog, which modules without a classifier of their own are
/// classified through: see `Catalog.install(_:)` and `Catalog.current` in SwiftErr.
public final class Catalog: @unchecked Sendable {
    // @unchecked Sendable, justified: every stored property is a `let`. The memory behind
    // `pointer` (and `storage`) is written only inside `init`, before `self` can be shared,
    // and is only read afterwards (every CErrCore function taking a table takes it `const`).
    // It is freed in `deinit`, when no reference to the catalog remains; a catalog over a static
    // table points to static const C data that is never freed. So no data race on it is possible.

    /// The C table. Valid (as `errcore_validate()` defines it) for the object's lifetime.
    @usableFromInline
    package let pointer: UnsafePointer<errcore_table>
    /// The allocation holding the `errcore_table` header and `errcore_build()`'s storage,
    /// or `nil` for a static table.
    private let storage: UnsafeMutableRawPointer?
    /// The catalog's name, e.g. `"default"`.
    public let name: String

    /// The one designated initializer: takes a valid table and, when the catalog owns it, its
    /// allocation.
    ///
    /// It is private so that the class's vtable refers to no initializer a client can reach; a
    /// public designated initializer would be a vtable entry, and the type metadata of every
    /// program that uses the class (a firmware classifying with a static table included) would
    /// keep the catalog builder and, through its `Dictionary<String, Int>`, the standard
    /// library's Unicode tables alive. Building a catalog is therefore a convenience initializer.
    /// - Parameters:
    ///   - table: A table that is valid for the object's lifetime.
    ///   - storage: The allocation holding `table`, freed in `deinit`, or `nil` for static data.
    ///   - name: The catalog's name.
    private init(table: UnsafePointer<errcore_table>, storage: UnsafeMutableRawPointer?, name: String) {
        self.pointer = table
        self.storage = storage
        self.name = name
    }

    /// Builds a catalog from a definition with `errcore_build()`.
    ///
    /// The definition is flattened for the C core in this order, which is what the indices in
    /// a ``CatalogError`` refer to: entries are the success entry (index 0), then the base
    /// entries, then each module's codes in module order; ranges are each module's ranges in
    /// module order; modules are ``CatalogDefinition/modules`` in order.
    /// - Parameter definition: The catalog to build.
    /// - Throws: ``CatalogError`` naming the offending entries, modules or ranges when the
    ///   definition is inconsistent: the same code twice, two overlapping module ranges, a base
    ///   code inside a module's range, a module code outside its module's ranges, the success
    ///   code inside a module, an empty name, a name or message containing a NUL byte, two
    ///   modules with the same name, an empty range, or more than 65,535 modules.
    public convenience init(_ definition: CatalogDefinition) throws(CatalogError) {
        var builder = CatalogBuilder(definition)
        let built = try builder.build()
        self.init(table: UnsafePointer(built.table), storage: built.allocation, name: definition.name)
    }

    /// Wraps a static table that `errcat gen c` generated, without copying or validating it (the
    /// generator writes only tables `errcore_build()` made, and the drift and generated-source
    /// tests hold every committed one to its catalog).
    /// - Parameters:
    ///   - table: Static const data, valid for the program's lifetime.
    ///   - name: The catalog's name.
    package convenience init(generatedTable table: UnsafePointer<errcore_table>, name: String) {
        self.init(table: table, storage: nil, name: name)
    }

    deinit {
        storage?.deallocate()
    }

    /// The success code (`0` in most catalogs).
    public var successCode: Int64 { pointer.pointee.success_code }
    /// The number of entries: the success entry, the base entries and the module entries.
    public var entryCount: Int { pointer.pointee.entry_count }
    /// The number of modules; module ids are `1...moduleCount`.
    public var moduleCount: Int { pointer.pointee.module_count }

    /// Classifies one raw code.
    /// - Parameter code: The code the server sent. All 64 bits count.
    /// - Returns: The code's tier, module, entry and flags.
    @inlinable
    public func classify(_ code: Int64) -> Classification {
        Classification(rawValue: errcore_classify(pointer, code))
    }
}
