import CErrCore

/// Why a catalog could not be built, with what was wrong and where.
///
/// The C core's checks (duplicate codes, overlapping ranges, a base code inside a module's
/// range, …) arrive as an `errcore_diag`; ``message`` starts with the C core's one-line
/// explanation (`errcore_diag_format()`) and adds the names of the entries, modules or ranges
/// involved, e.g.
/// `duplicate code: entry 30 (code 11210005) repeats entry 20 [entry 30 is homework.lateSubmission,
/// entry 20 is studyGroup.wrongTeamCode]`.
public struct CatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem the catalog has.
    public enum Status: Sendable, Hashable {
        /// A required value is missing (`ERRCORE_E_NULL_ARGUMENT`).
        case nullArgument
        /// Too many entries, modules or string bytes (`ERRCORE_E_COUNT_OVERFLOW`).
        case countOverflow
        /// The same code appears twice (`ERRCORE_E_DUPLICATE_CODE`).
        case duplicateCode
        /// A module's code lies outside every range the module owns (`ERRCORE_E_CODE_OUTSIDE_MODULE`).
        case codeOutsideModule
        /// Two module ranges share a code (`ERRCORE_E_RANGE_OVERLAP`).
        case rangeOverlap
        /// A base-tier code lies inside a module's range (`ERRCORE_E_BASE_IN_MODULE_RANGE`).
        case baseInModuleRange
        /// An entry or range names a module that is not declared (`ERRCORE_E_UNDECLARED_MODULE`).
        case undeclaredModule
        /// Codes or ranges are out of order (`ERRCORE_E_UNSORTED`).
        case unsorted
        /// A range's first code is greater than its last (`ERRCORE_E_EMPTY_RANGE`).
        case emptyRange
        /// The success code lies in a module's range or is a module entry (`ERRCORE_E_SUCCESS_IN_MODULE`).
        case successInModule
        /// A string is malformed (`ERRCORE_E_BAD_STRING`), or, detected in Swift, contains a NUL
        /// byte that C would silently cut the string at.
        case badString
        /// An entry or module has an empty name (`ERRCORE_E_EMPTY_NAME`).
        case emptyName
        /// A reserved field is not zero (`ERRCORE_E_RESERVED_NONZERO`).
        case reservedNonzero
        /// The storage is too small (`ERRCORE_E_BUFFER_TOO_SMALL`).
        case bufferTooSmall
        /// The storage is not aligned to 8 bytes (`ERRCORE_E_MISALIGNED`).
        case misalignedStorage
        /// Two modules have the same name (`ERRCORE_E_DUPLICATE_MODULE_NAME`): names identify
        /// modules.
        case duplicateModuleName
        /// A language tag is not a well-formed BCP 47 tag (`ERRCORE_E_BAD_LANGUAGE_TAG`).
        case badLanguageTag
        /// Two languages of one catalog have the same tag (`ERRCORE_E_DUPLICATE_LANGUAGE`).
        case duplicateLanguage
        /// Two namespaces, or two string codes of one namespace, are the same bytes
        /// (`ERRCORE_E_DUPLICATE_STRING`).
        case duplicateString
        /// A string code names a namespace the string table does not declare
        /// (`ERRCORE_E_UNDECLARED_SPACE`).
        case undeclaredNamespace
        /// A string code stands for a code that is no entry of the table (`ERRCORE_E_UNKNOWN_CODE`).
        case unknownStringCode
        /// A string table's lookup disagrees with its strings or its table
        /// (`ERRCORE_E_BAD_STRINGS`).
        case badStringTable
        /// A status value this version of the facade does not know; the payload is its raw value.
        case unrecognisedStatus(UInt32)
        /// Detected in Swift: a catalog was to be installed as SwiftErr's process-wide catalog
        /// after that catalog had been used, and it is not the one in use
        /// (`Catalog.install(_:)` in SwiftErr). Install the app's catalog once, at start-up.
        case catalogInUse

        /// Maps a C status to its Swift value.
        /// - Parameter status: A value returned by a CErrCore function.
        package init(_ status: errcore_status) {
            switch status {
            case ERRCORE_E_NULL_ARGUMENT: self = .nullArgument
            case ERRCORE_E_COUNT_OVERFLOW: self = .countOverflow
            case ERRCORE_E_DUPLICATE_CODE: self = .duplicateCode
            case ERRCORE_E_CODE_OUTSIDE_MODULE: self = .codeOutsideModule
            case ERRCORE_E_RANGE_OVERLAP: self = .rangeOverlap
            case ERRCORE_E_BASE_IN_MODULE_RANGE: self = .baseInModuleRange
            case ERRCORE_E_UNDECLARED_MODULE: self = .undeclaredModule
            case ERRCORE_E_UNSORTED: self = .unsorted
            case ERRCORE_E_EMPTY_RANGE: self = .emptyRange
            case ERRCORE_E_SUCCESS_IN_MODULE: self = .successInModule
            case ERRCORE_E_BAD_STRING: self = .badString
            case ERRCORE_E_EMPTY_NAME: self = .emptyName
            case ERRCORE_E_RESERVED_NONZERO: self = .reservedNonzero
            case ERRCORE_E_BUFFER_TOO_SMALL: self = .bufferTooSmall
            case ERRCORE_E_MISALIGNED: self = .misalignedStorage
            case ERRCORE_E_DUPLICATE_MODULE_NAME: self = .duplicateModuleName
            case ERRCORE_E_BAD_LANGUAGE_TAG: self = .badLanguageTag
            case ERRCORE_E_DUPLICATE_LANGUAGE: self = .duplicateLanguage
            case ERRCORE_E_DUPLICATE_STRING: self = .duplicateString
            case ERRCORE_E_UNDECLARED_SPACE: self = .undeclaredNamespace
            case ERRCORE_E_UNKNOWN_CODE: self = .unknownStringCode
            case ERRCORE_E_BAD_STRINGS: self = .badStringTable
            default: self = .unrecognisedStatus(status.rawValue)
            }
        }
    }

    /// What kind of problem the catalog has.
    public var status: Status
    /// The offending element's position in the flattened input (see ``Catalog/init(_:)``),
    /// or `nil` when the problem is not about one element.
    public var index: Int?
    /// The element it conflicts with, or `nil`.
    public var otherIndex: Int?
    /// The offending code (or range start, module id, string offset) from the C diagnostic.
    public var code: Int64
    /// A second value from the C diagnostic, such as the conflicting element's code.
    public var otherCode: Int64
    /// The readable explanation, naming the entries, modules or ranges involved.
    public var message: String {
        get { text.message }
        set { text = .given(newValue) }
    }
    /// What ``message`` is made of.
    private var text: Text

    /// Creates an error.
    /// - Parameters:
    ///   - status: The kind of problem.
    ///   - index: The offending element, if any.
    ///   - otherIndex: The conflicting element, if any.
    ///   - code: The offending code or value.
    ///   - otherCode: A second value.
    ///   - message: The readable explanation.
    public init(
        status: Status, index: Int? = nil, otherIndex: Int? = nil, code: Int64 = 0, otherCode: Int64 = 0,
        message: String
    ) {
        self.status = status
        self.index = index
        self.otherIndex = otherIndex
        self.code = code
        self.otherCode = otherCode
        self.text = .given(message)
    }

    /// The error of a module that its catalog does not contain (``Status/undeclaredModule``).
    /// - Parameters:
    ///   - module: The module's name.
    ///   - catalog: The catalog's name.
    init(module: String, missingFrom catalog: String) {
        self.init(status: .undeclaredModule, text: .moduleNotInCatalog(module: module, catalog: catalog))
    }

    /// The error of a module that has no catalog to be classified through (``Status/nullArgument``).
    /// - Parameter module: The module's name.
    init(moduleWithoutCatalog module: String) {
        self.init(status: .nullArgument, text: .moduleWithoutCatalog(module: module))
    }

    /// An error that is about no element, with its message or what the message is composed of.
    /// - Parameters:
    ///   - status: The kind of problem.
    ///   - text: The message or its parts.
    private init(status: Status, text: Text) {
        self.status = status
        self.index = nil
        self.otherIndex = nil
        self.code = 0
        self.otherCode = 0
        self.text = text
    }

    /// The readable explanation (same as ``message``).
    public var description: String { message }

    /// Whether two errors have the same status, indices, codes and message.
    public static func == (lhs: CatalogError, rhs: CatalogError) -> Bool {
        lhs.status == rhs.status && lhs.index == rhs.index && lhs.otherIndex == rhs.otherIndex
            && lhs.code == rhs.code && lhs.otherCode == rhs.otherCode && lhs.message == rhs.message
    }

    /// Hashes what ``==(_:_:)`` compares.
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(index)
        hasher.combine(otherIndex)
        hasher.combine(code)
        hasher.combine(otherCode)
        hasher.combine(message)
    }

    /// The text of ``message``, or the names it is composed of when it is read.
    ///
    /// A classifier creates its errors on the path every classification can take (a module its
    /// catalog lacks), so those errors carry names and compose the sentence only when ``message`` is
    /// read: a program that classifies but never reads a message, such as Embedded Swift firmware,
    /// then links none of the standard library's string building.
    private enum Text: Sendable {
        /// The message as given.
        case given(String)
        /// A module its catalog does not contain.
        case moduleNotInCatalog(module: String, catalog: String)
        /// A module with no catalog.
        case moduleWithoutCatalog(module: String)

        /// The sentence.
        var message: String {
            switch self {
            case .given(let message):
                return message
            case .moduleNotInCatalog(let module, let catalog):
                return """
                    module '\(module)' is not part of catalog '\(catalog)'; \
                    classify it through a catalog that includes it
                    """
            case .moduleWithoutCatalog(let module):
                return "module '\(module)' has no catalog"
            }
        }
    }
}
