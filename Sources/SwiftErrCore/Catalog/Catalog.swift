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
    /// The string table (``classify(string:namespace:)``), or `nil` when the catalog has no string
    /// codes and owns no namespace. Valid for the object's lifetime.
    @usableFromInline
    package let strings: UnsafePointer<errcore_string_table>?
    /// The allocation holding the string table, or `nil`.
    private let stringStorage: UnsafeMutableRawPointer?
    /// The catalog's name, e.g. `"default"`.
    public let name: String
    /// The shapes the catalog's backends answer in (``CatalogDefinition/shapes``).
    public let shapes: [ShapeDefinition]

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
    ///   - strings: The table's string table, or `nil`.
    ///   - stringStorage: The allocation holding `strings`, freed in `deinit`, or `nil`.
    ///   - name: The catalog's name.
    ///   - shapes: The catalog's shapes.
    private init(
        table: UnsafePointer<errcore_table>, storage: UnsafeMutableRawPointer?,
        strings: UnsafePointer<errcore_string_table>?, stringStorage: UnsafeMutableRawPointer?, name: String,
        shapes: [ShapeDefinition]
    ) {
        self.pointer = table
        self.storage = storage
        self.strings = strings
        self.stringStorage = stringStorage
        self.name = name
        self.shapes = shapes
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
    ///   modules with the same name, an empty range, or more than 65,535 modules; and for string
    ///   codes: a namespace two modules own or a string code listed twice in one namespace
    ///   (``CatalogError/Status-swift.enum/duplicateString``), a module's string code in a
    ///   namespace it does not own (``CatalogError/Status-swift.enum/codeOutsideModule``), a base
    ///   entry's in a module's namespace (``CatalogError/Status-swift.enum/baseInModuleRange``), an
    ///   empty string code, or one longer than 65,535 bytes.
    public convenience init(_ definition: CatalogDefinition) throws(CatalogError) {
        var builder = CatalogBuilder(definition)
        let built = try builder.build()
        var strings: StringTableBuilder.Built? = nil
        if StringTableBuilder.isNeeded(for: definition) {
            var stringBuilder = StringTableBuilder(definition)
            do {
                strings = try stringBuilder.build(for: built.table)
            } catch {
                built.allocation.deallocate()
                throw error
            }
        }
        self.init(
            table: UnsafePointer(built.table), storage: built.allocation,
            strings: strings.map { UnsafePointer($0.strings) }, stringStorage: strings?.allocation,
            name: definition.name, shapes: definition.shapes)
    }

    /// Wraps a static table that `errcat gen c` generated, without copying or validating it (the
    /// generator writes only tables `errcore_build()` made, and the drift and generated-source
    /// tests hold every committed one to its catalog).
    /// - Parameters:
    ///   - table: Static const data, valid for the program's lifetime.
    ///   - name: The catalog's name.
    package convenience init(generatedTable table: UnsafePointer<errcore_table>, name: String) {
        self.init(table: table, storage: nil, strings: nil, stringStorage: nil, name: name, shapes: [])
    }

    deinit {
        storage?.deallocate()
        stringStorage?.deallocate()
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

    /// Classifies a string code: the entry it stands for, as `classify(_:)` classifies that
    /// entry's integer code.
    ///
    /// A string the catalog does not list is its namespace's module's, unrecognised, when a module
    /// owns the namespace (``ModuleDefinition/namespaces``), and unknown otherwise, as is any
    /// string of a namespace the catalog does not name. Strings compare as UTF-8 bytes, exactly
    /// (no case folding or normalisation). No allocation: one hash of the string and one
    /// comparison, plus a binary search over the namespaces when one is given.
    ///
    /// <!-- listing: context=app -->
    /// ```swift
    /// let catalog = try Catalog(CatalogDefinition(
    ///     name: "pay",
    ///     success: EntryDefinition(code: 0, name: "ok", message: LocalizedText(english: "OK")),
    ///     base: [],
    ///     modules: [ModuleDefinition(
    ///         name: "card", title: LocalizedText(english: "Card"), ranges: [100...199],
    ///         namespaces: ["card_error"],
    ///         codes: [EntryDefinition(
    ///             code: 101, name: "cardDeclined", string: "card_declined", namespace: "card_error",
    ///             message: LocalizedText(english: "Your card was declined."))])]))
    /// let declined = catalog.classify(string: "card_declined", namespace: "card_error")
    /// print(declined.entryIndex.flatMap(catalog.code(at:)) ?? -1)                  // prints "101"
    /// print(catalog.classify(string: "expired_card", namespace: "card_error").tier)  // prints "module"
    /// print(catalog.classify(string: "card_declined").tier)                          // prints "unknown"
    /// ```
    /// - Parameters:
    ///   - string: The string code the server sent.
    ///   - namespace: Its namespace (Stripe's error `type`, an `ErrorInfo` `domain`), or `nil` (or
    ///     empty) for the catalog's own.
    /// - Returns: The entry's classification, an unrecognised code of the owning module, or
    ///   ``Classification/unknown``.
    public func classify(string: String, namespace: String? = nil) -> Classification {
        var code = string
        var space = namespace ?? ""
        return code.withUTF8 { codeBytes in
            space.withUTF8 { spaceBytes in classify(code: codeBytes, space: spaceBytes) }
        }
    }

    /// `errcore_classify_string()` over this catalog's string table; unknown without one.
    private func classify(code: UnsafeBufferPointer<UInt8>, space: UnsafeBufferPointer<UInt8>) -> Classification {
        guard let strings else { return .unknown }
        let raw = code.withMemoryRebound(to: CChar.self) { codeChars in
            space.withMemoryRebound(to: CChar.self) { spaceChars in
                errcore_classify_string(
                    strings, spaceChars.baseAddress, spaceChars.count, codeChars.baseAddress, codeChars.count)
            }
        }
        return Classification(rawValue: raw)
    }

    /// The number of string codes the catalog lists.
    public var stringCodeCount: Int { strings?.pointee.code_count ?? 0 }

    /// ``classify(string:namespace:)`` on bytes: a string code and its namespace (empty: the
    /// catalog's own) as UTF-8, or any bytes.
    package func classify(stringBytes code: [UInt8], namespace: [UInt8]) -> Classification {
        code.withUnsafeBufferPointer { codeBytes in
            namespace.withUnsafeBufferPointer { spaceBytes in classify(code: codeBytes, space: spaceBytes) }
        }
    }

    /// The string table's namespaces, as bytes, in the table's order (by length, then bytes).
    package var stringNamespaces: [[UInt8]] {
        guard let strings = strings?.pointee else { return [] }
        return (0..<strings.space_count).map { k in
            let space = strings.spaces[k]
            return Array(UnsafeBufferPointer(start: strings.bytes + Int(space.name), count: Int(space.length)))
        }
    }
}
