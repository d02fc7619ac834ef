import CErrCore

/// A feature module's response codes: an `Int`-backed enum whose cases are the codes the
/// module lists, plus one case for codes in the module's range that it does not list.
///
/// This is the seeds' `ISErrorProtocol`, carrying what the C core needs to classify the
/// module's codes: its identity (``moduleName``, ``moduleTitle``, ``codeRanges``), each case's
/// ``name``, ``flags`` and ``message``, and the ``catalog`` the module is classified through.
/// A module written in Swift alone is assembled into a C table by ``ResponseCatalog`` (or
/// lazily by the module registry): no C edit, no code generation.
///
/// ```swift
/// enum HomeworkCode: Int, ModuleCode {
///     case lateSubmission = 11300001
///     case other = -99999
///     static var moduleName: String { "homework" }
///     static var moduleTitle: LocalizedText { LocalizedText(english: "Homework", simplifiedChinese: "作业") }
///     static var codeRanges: [ClosedRange<Int64>] { [11300000...11309999] }
///     static var unrecognised: Self { .other }
///     var message: LocalizedText { … }
/// }
/// ```
public protocol ModuleCode: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == Int {
    /// The module's identifier, e.g. `"studyGroup"`; unique within a catalog.
    static var moduleName: String { get }
    /// The module's display name.
    static var moduleTitle: LocalizedText { get }
    /// The closed code ranges the module owns.
    static var codeRanges: [ClosedRange<Int64>] { get }
    /// The case that stands for a code inside ``codeRanges`` that the enum does not list.
    /// Its raw value is a client-side sentinel (conventionally `-99999`), never sent to the
    /// catalog.
    static var unrecognised: Self { get }
    /// How this module is classified: its catalog and its id there. The default implementation
    /// (outside the Embedded-friendly core) registers the module in the process-wide registry on
    /// first use; declare `static let classifier = ModuleClassifier<Self>(catalog: …)` to use
    /// another catalog.
    static var classifier: ModuleClassifier<Self> { get }
    /// The case's identifier in the catalog (the case name by default).
    var name: String { get }
    /// The case's flags (none by default).
    var flags: CodeFlags { get }
    /// The case's message.
    var message: LocalizedText { get }
}

extension ModuleCode {
    /// No flags.
    public var flags: CodeFlags { [] }

    /// "Unrecognised <title> error" / "未识别的<title>错误": the message of ``unrecognised``.
    public static var unrecognisedMessage: LocalizedText {
        let title = moduleTitle
        return LocalizedText(english: "Unrecognised \(title.english) error",
                             simplifiedChinese: "未识别的\(title.text(in: .simplifiedChinese))错误")
    }

    /// The module as a catalog definition: every case except ``unrecognised``, in declaration order.
    public static var definition: ModuleDefinition {
        var codes: [EntryDefinition] = []
        let fallback = unrecognised
        for value in allCases where value != fallback {
            codes.append(EntryDefinition(code: Int64(value.rawValue), name: value.name, flags: value.flags, message: value.message))
        }
        return ModuleDefinition(name: moduleName, title: moduleTitle, ranges: codeRanges, codes: codes)
    }

    /// Whether this value is the ``unrecognised`` case.
    @inlinable
    public var isUnrecognised: Bool { self == Self.unrecognised }

    /// The server code of a listed case, or `nil` for ``unrecognised``.
    @inlinable
    public var code: Int64? { isUnrecognised ? nil : Int64(rawValue) }

    /// The catalog this module is classified through (``classifier``'s).
    public static var catalog: ResponseCatalog {
        classifier.catalog
    }

    /// Classifies a raw code through the module's ``classifier``: one C call, no allocation.
    ///
    /// Every code gets exactly one outcome: success, a base code, one of this module's codes
    /// (``unrecognised`` for an unlisted code in its range), an unexpected code (unknown to the
    /// catalog or another module's), or ``CodeOutcome/invalidCatalog`` when the catalog could
    /// not be assembled or does not contain this module (``ModuleClassifier/failure`` says why).
    /// - Parameter code: The code the server sent.
    /// - Returns: The raw code, its C classification and the typed outcome.
    @inlinable
    public static func classify(_ code: Int64) -> ClassifiedCode<Self> {
        classifier.classify(code)
    }

    /// Classifies a raw code through a given catalog, without pinning it. This looks the module up
    /// by name on every call: for repeated use, keep a ``ModuleClassifier`` instead.
    /// - Parameters:
    ///   - code: The code the server sent.
    ///   - catalog: The catalog to classify through; it must contain this module.
    /// - Returns: The raw code, its C classification and the typed outcome.
    public static func classify(_ code: Int64, in catalog: ResponseCatalog) -> ClassifiedCode<Self> {
        withExtendedLifetime(catalog) {
            ModuleClassifier<Self>(borrowing: catalog).classify(code)
        }
    }
}
