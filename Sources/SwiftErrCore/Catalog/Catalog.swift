import CErrCore

/// An immutable catalog of response codes, built into a C table and shared freely between
/// threads: the thing that classifies codes.
///
/// A `Catalog` either wraps the C core's built-in static table (``builtIn``, no copy) or owns
/// storage it allocated once and filled with `errcore_build()` from a ``CatalogDefinition``.
/// The storage is never written after the initializer returns, so any number of threads may
/// classify through one catalog at once with no lock.
///
/// Classifying is a direct call to `errcore_classify()` plus a struct wrap: no allocation.
///
/// ```swift
/// let catalog = try Catalog(CatalogDefinition.builtIn.adding(HomeworkCode.definition))
/// catalog.classify(11300001).tier   // .module
/// ```
public final class Catalog: @unchecked Sendable {
    // @unchecked Sendable, justified: every stored property is a `let`. The memory behind
    // `pointer` (and `storage`) is written only inside `init`, before `self` can be shared,
    // and is only read afterwards (every CErrCore function taking a table takes it `const`).
    // It is freed in `deinit`, when no reference to the catalog remains; `builtIn` points to
    // static const C data that is never freed. So no data race on it is possible.

    /// The C table. Valid (as `errcore_validate()` defines it) for the object's lifetime.
    @usableFromInline
    package let pointer: UnsafePointer<errcore_table>
    /// The allocation holding the `errcore_table` header and `errcore_build()`'s storage,
    /// or `nil` for the built-in table.
    private let storage: UnsafeMutableRawPointer?
    /// The catalog's name, e.g. `"default"`.
    public let name: String

    /// The built-in catalog (`errcore_default_table()`, generated from `catalog/default.json`):
    /// success `0`, the eight base codes and the seven default modules. Wraps the static C data
    /// without copying it.
    public static let builtIn = Catalog(table: errcore_default_table(), storage: nil, name: "default")

    /// The one designated initializer: takes a valid table and, when the catalog owns it, its
    /// allocation.
    ///
    /// It is private so that the class's vtable refers to no initializer a client can reach; a
    /// public designated initializer would be a vtable entry, and the type metadata of every
    /// program that uses the class (``builtIn`` included) would keep the catalog builder and,
    /// through its `Dictionary<String, Int>`, the standard library's Unicode tables alive.
    /// Building a catalog is therefore a convenience initializer.
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

    deinit {
        storage?.deallocate()
    }

    /// The success code (`0` in the built-in catalog).
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
