import CErrCore

/// A code table assembled for typed modules, or the reason it could not be assembled.
///
/// Module enums are classified through a `ResponseCatalog` (``ModuleCode/catalog``). The
/// built-in modules use ``builtIn``, the C core's static table. A catalog for Swift-defined
/// modules is assembled from a base tier and the modules' definitions by `errcore_build()`,
/// which rejects two modules claiming the same code, overlapping ranges, and module codes that
/// collide with the base tier. Assembling never traps: a rejected catalog keeps its
/// ``CatalogError`` and every code classified through it has the outcome
/// ``CodeOutcome/invalidCatalog``. Use ``assemble(_:)`` to get the error thrown instead.
///
/// Declare a catalog as a `static let` to build it once, lazily and thread-safely:
/// ```swift
/// extension ResponseCatalog {
///     static let app = ResponseCatalog(CatalogDefinition.standard.adding(HomeworkCode.definition))
/// }
/// ```
public final class ResponseCatalog: @unchecked Sendable {
    // @unchecked Sendable, justified: all stored properties are `let`s of Sendable values except
    // `pointer`, which points into `table` (kept alive by this object) and is only read, so
    // sharing it between threads is as safe as sharing the immutable CodeTable itself.

    /// The built table, or `nil` when assembly failed.
    public let table: CodeTable?
    /// Why assembly failed, or `nil` when it succeeded.
    public let failure: CatalogError?
    /// `table.pointer`, for ``ModuleClassifier``.
    @usableFromInline
    let pointer: UnsafePointer<errcore_table>?
    /// The module names by id - 1, read once from the table.
    private let moduleNames: [String]

    /// The C core's built-in default table (no copy).
    public static let builtIn = ResponseCatalog(table: .builtIn)

    /// Wraps an already built table.
    /// - Parameter table: The table.
    public init(table: CodeTable) {
        self.table = table
        self.failure = nil
        self.pointer = table.pointer
        var names: [String] = []
        for index in 0..<table.moduleCount {
            names.append(table.moduleName(UInt16(index + 1)) ?? "")
        }
        self.moduleNames = names
    }

    /// Creates a catalog that holds only an assembly error.
    /// - Parameter failure: Why no table could be built.
    public init(failure: CatalogError) {
        self.table = nil
        self.failure = failure
        self.pointer = nil
        self.moduleNames = []
    }

    /// Assembles a catalog, remembering the error when the definition is rejected.
    /// - Parameter definition: The base tier and modules.
    public convenience init(_ definition: CatalogDefinition) {
        do {
            self.init(table: try CodeTable(definition))
        } catch {
            self.init(failure: error)
        }
    }

    /// Assembles a catalog or throws why it cannot be.
    /// - Parameter definition: The base tier and modules.
    /// - Returns: The assembled catalog.
    /// - Throws: ``CatalogError`` naming the colliding entries, modules or ranges.
    public static func assemble(_ definition: CatalogDefinition) throws(CatalogError) -> ResponseCatalog {
        ResponseCatalog(table: try CodeTable(definition))
    }

    /// The id of the module named `name`.
    /// - Parameter name: A module identifier.
    /// - Returns: The module id, or `nil` when the table has no such module (or failed to assemble).
    public func moduleID(named name: String) -> UInt16? {
        for index in 0..<moduleNames.count where moduleNames[index] == name {
            return UInt16(truncatingIfNeeded: index + 1)
        }
        return nil
    }

    /// The table, or the assembly error thrown.
    /// - Returns: The built table.
    /// - Throws: ``CatalogError`` when assembly failed.
    public func validTable() throws(CatalogError) -> CodeTable {
        if let table { return table }
        throw failure ?? CatalogError(status: .nullArgument, message: "catalog has no table")
    }
}

extension CatalogDefinition {
    /// The default catalog as Swift defines it: ``BaseCode/successEntry``,
    /// ``BaseCode/standardEntries`` and the seven built-in module enums, in module-id order.
    /// Equal, entry by entry, to the C core's built-in table (a test checks it).
    public static var standard: CatalogDefinition {
        CatalogDefinition(name: "default", success: BaseCode.successEntry, base: BaseCode.standardEntries, modules: [
            AccountCode.definition, UploadCode.definition, MembershipCode.definition, SignInCode.definition,
            SubjectCode.definition, TagCode.definition, StudyGroupCode.definition,
        ])
    }

    /// The base tier of the default catalog with no modules.
    public static var standardBase: CatalogDefinition {
        CatalogDefinition(name: "base", success: BaseCode.successEntry, base: BaseCode.standardEntries, modules: [])
    }

    /// A copy with `module` appended (its id is the new module count).
    /// - Parameter module: The module to add.
    /// - Returns: The extended definition.
    public func adding(_ module: ModuleDefinition) -> CatalogDefinition {
        var copy = self
        copy.modules.append(module)
        return copy
    }
}
