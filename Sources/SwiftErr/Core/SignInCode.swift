/// The codes of the default catalog's `signIn` module (Daily sign-in / 签到),
/// owning `11140000...11149999`.
///
/// Each case's raw value is the server code. A code inside the range that the module does
/// not list is ``other``, whose raw value `-99999` is the seeds' client-side sentinel, never a
/// server code. Classified through ``ResponseCatalog/builtIn`` (`errcore_default_table()`,
/// module id 4).
public enum SignInCode: Int, ModuleCode {
    /// You have already signed in today. (`11140003`)
    case todayIsSignIned = 11140003
    /// A code in the module's range that this version does not list.
    case other = -99999

    /// `"signIn"`
    public static var moduleName: String { "signIn" }
    /// Daily sign-in / 签到
    public static var moduleTitle: LocalizedText { LocalizedText(english: "Daily sign-in", simplifiedChinese: "签到") }
    /// `11140000...11149999`
    public static var codeRanges: [ClosedRange<Int64>] { [11140000...11149999] }
    /// ``other``
    @inlinable
    public static var unrecognised: Self { .other }
    /// Classified through ``ResponseCatalog/builtIn``, the C core's static default table.
    public static let classifier = ModuleClassifier<Self>(catalog: .builtIn)

    /// The case's catalog identifier (the case name).
    public var name: String {
        switch self {
        case .todayIsSignIned: return "todayIsSignIned"
        case .other: return "other"
        }
    }

    /// The case's catalog flags.
    public var flags: CodeFlags {
        switch self {
        case .todayIsSignIned: return [.showUser]
        case .other: return []
        }
    }

    /// The case's catalog message.
    public var message: LocalizedText {
        switch self {
        case .todayIsSignIned: return LocalizedText(english: "You have already signed in today.", simplifiedChinese: "今天已经签到过了。")
        case .other: return Self.unrecognisedMessage
        }
    }
}
