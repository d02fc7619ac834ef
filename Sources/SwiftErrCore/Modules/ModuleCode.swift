/// A feature module's response codes: an enum with one case per code the module lists, plus
/// one case, with the server's number as payload, for a code in the module's ranges that it
/// does not list.
///
/// A module carries what the C core needs to classify its codes: its identity (``moduleName``,
/// ``moduleTitle``, ``codeRanges``), each case's ``code``, ``name``, ``flags`` and ``message``,
/// and the ``classifier`` (catalog) its codes are classified through. An app's modules are
/// generated from its catalog file by the SwiftErrCatalogPlugin at build time (or by
/// `errcat gen swift`); a module written in Swift alone is assembled into a C table on first use
/// on top of the app's catalog (see `Catalog.register(_:)` in SwiftErr): no C edit, no code
/// generation.
///
/// <!-- listing: context=app -->
/// ```swift
/// enum HomeworkCode: ModuleCode {
///     case lateSubmission
///     case other(Int64)
///
///     static var moduleName: String { "homework" }
///     static var moduleTitle: LocalizedText { LocalizedText(english: "Homework", simplifiedChinese: "作业") }
///     static var codeRanges: [ClosedRange<Int64>] { [11300000...11309999] }
///     static var listedCases: [Self] { [.lateSubmission] }
///     static func unrecognised(_ code: Int64) -> Self { .other(code) }
///     var code: Int64 {
///         switch self {
///         case .lateSubmission: 11300001
///         case .other(let code): code
///         }
///     }
///     var message: LocalizedText {
///         switch self {
///         case .lateSubmission: LocalizedText(english: "The homework was submitted late.")
///         case .other: Self.unrecognisedMessage
///         }
///     }
/// }
/// ```
///
/// Matching `.other` without its payload matches every unrecognised code of a classified outcome:
/// `case .module(.other)` on a `CodeOutcome`. SwiftErr's `ModuleRespError` carries the code with
/// the server's message, so there write `case .module(let answer) where answer.isUnrecognised`,
/// or match its `outcome`.
public protocol ModuleCode: Hashable, Sendable {
    /// The module's identifier, e.g. `"studyGroup"`; unique within a catalog.
    static var moduleName: String { get }
    /// The module's display name.
    static var moduleTitle: LocalizedText { get }
    /// The closed code ranges the module owns.
    static var codeRanges: [ClosedRange<Int64>] { get }
    /// The cases for the codes the module lists, in declaration order (not the unrecognised case).
    static var listedCases: [Self] { get }
    /// The value standing for `code`, a code inside ``codeRanges`` that the module does not list.
    /// - Parameter code: The server's code.
    /// - Returns: The unrecognised case carrying `code`.
    static func unrecognised(_ code: Int64) -> Self
    /// How this module is classified: its catalog and its id there. SwiftErr's default
    /// registers the module in the process-wide registry on first use; declare
    /// `static let classifier = ModuleClassifier<Self>(catalog: …)` to use another catalog
    /// (Embedded Swift code, which has no registry, always does).
    static var classifier: ModuleClassifier<Self> { get }
    /// The server's code: the listed code, or the number an unrecognised case carries.
    var code: Int64 { get }
    /// Whether this is the unrecognised case.
    var isUnrecognised: Bool { get }
    /// The case's identifier in the catalog (the case name).
    var name: String { get }
    /// The case's flags (none by default).
    var flags: CodeFlags { get }
    /// The case's message.
    var message: LocalizedText { get }
    /// The string namespaces the module owns (``ModuleDefinition/namespaces``); none by default.
    static var stringNamespaces: [String] { get }
    /// The string code the server sends for this case (``EntryDefinition/string``); `nil` (the
    /// default) when it has none.
    var stringCode: String? { get }
    /// The namespace of ``stringCode`` (``EntryDefinition/namespace``); `nil` (the default) for the
    /// catalog's own.
    var stringNamespace: String? { get }
}

extension ModuleCode {
    /// No flags.
    public var flags: CodeFlags { [] }

    /// No string namespaces.
    public static var stringNamespaces: [String] { [] }

    /// No string code.
    public var stringCode: String? { nil }

    /// The catalog's own namespace.
    public var stringNamespace: String? { nil }

    /// Whether this value is not one of ``listedCases``.
    public var isUnrecognised: Bool { !Self.listedCases.contains(self) }

    /// "Unrecognised <title> error" / "未识别的<title>错误": the message of an unrecognised code.
    public static var unrecognisedMessage: LocalizedText {
        let title = moduleTitle
        return LocalizedText(
            english: "Unrecognised \(title.english) error",
            simplifiedChinese: "未识别的\(title.text(in: .simplifiedChinese))错误")
    }

    /// The module as a catalog definition: ``listedCases`` in declaration order, with their string
    /// codes, and the module's string namespaces.
    public static var definition: ModuleDefinition {
        let codes = listedCases.map { value in
            var entry = EntryDefinition(code: value.code, name: value.name, flags: value.flags, message: value.message)
            entry.string = value.stringCode
            entry.namespace = value.stringCode == nil ? nil : value.stringNamespace
            return entry
        }
        return ModuleDefinition(
            name: moduleName, title: moduleTitle, ranges: codeRanges, namespaces: stringNamespaces, codes: codes)
    }

    /// The value for a server code by the enum's own lists: the listed case with that code, the
    /// unrecognised case for another code inside ``codeRanges``, or `nil` for a code outside them.
    /// Linear in the number of cases: to classify server answers, use ``classify(_:)``.
    /// - Parameter code: A server code.
    public init?(code: Int64) {
        if let listed = Self.listedCases.first(where: { $0.code == code }) {
            self = listed
        } else if Self.codeRanges.contains(where: { $0.contains(code) }) {
            self = Self.unrecognised(code)
        } else {
            return nil
        }
    }

    /// The catalog this module is classified through (``classifier``'s), or `nil` when it could
    /// not be assembled (``ModuleClassifier/failure`` says why).
    public static var catalog: Catalog? {
        classifier.catalog
    }

    /// Classifies a raw code through the module's ``classifier``: one C call, no allocation.
    ///
    /// Every code gets exactly one outcome: success, a base code, one of this module's codes (the
    /// unrecognised case for an unlisted code in its ranges), an unexpected code (unknown to the
    /// catalog or another module's), or ``CodeOutcome/invalidCatalog(_:)`` when the catalog could
    /// not be assembled or does not contain this module.
    /// - Parameter code: The code the server sent.
    /// - Returns: The typed outcome.
    @inlinable
    public static func classify(_ code: Int64) -> CodeOutcome<Self> {
        classifier.classify(code)
    }
}
