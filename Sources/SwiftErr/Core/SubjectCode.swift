/// The codes of the default catalog's `subject` module (Subject / 学科),
/// owning `11150000...11159999`.
///
/// Each case's raw value is the server code. A code inside the range that the module does
/// not list is ``other``, whose raw value `-99999` is the seeds' client-side sentinel, never a
/// server code. Classified through ``ResponseCatalog/builtIn`` (`errcore_default_table()`,
/// module id 5).
public enum SubjectCode: Int, ModuleCode {
    /// You have reached the maximum number of subjects. (`11150004`)
    case subjectCountLimit = 11150004
    /// A code in the module's range that this version does not list.
    case other = -99999

    /// `"subject"`
    public static var moduleName: String { "subject" }
    /// Subject / 学科
    public static var moduleTitle: LocalizedText { LocalizedText(english: "Subject", simplifiedChinese: "学科") }
    /// `11150000...11159999`
    public static var codeRanges: [ClosedRange<Int64>] { [11150000...11159999] }
    /// ``other``
    @inlinable
    public static var unrecognised: Self { .other }
    /// Classified through ``ResponseCatalog/builtIn``, the C core's static default table.
    public static let classifier = ModuleClassifier<Self>(catalog: .builtIn)

    /// The case's catalog identifier (the case name).
    public var name: String {
        switch self {
        case .subjectCountLimit: return "subjectCountLimit"
        case .other: return "other"
        }
    }

    /// The case's catalog flags.
    public var flags: CodeFlags {
        switch self {
        case .subjectCountLimit: return [.showUser]
        case .other: return []
        }
    }

    /// The case's catalog message.
    public var message: LocalizedText {
        switch self {
        case .subjectCountLimit: return LocalizedText(english: "You have reached the maximum number of subjects.", simplifiedChinese: "学科数量已达上限。")
        case .other: return Self.unrecognisedMessage
        }
    }
}
