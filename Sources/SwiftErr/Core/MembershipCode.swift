/// The codes of the default catalog's `membership` module (Membership / 会员),
/// owning `11100000...11109999`.
///
/// Each case's raw value is the server code. A code inside the range that the module does
/// not list is ``other``, whose raw value `-99999` is the seeds' client-side sentinel, never a
/// server code. Classified through ``ResponseCatalog/builtIn`` (`errcore_default_table()`,
/// module id 3).
public enum MembershipCode: Int, ModuleCode {
    /// You have already joined the Bee Plan. (`11100002`)
    case joinedBeePlan = 11100002
    /// A code in the module's range that this version does not list.
    case other = -99999

    /// `"membership"`
    public static var moduleName: String { "membership" }
    /// Membership / 会员
    public static var moduleTitle: LocalizedText { LocalizedText(english: "Membership", simplifiedChinese: "会员") }
    /// `11100000...11109999`
    public static var codeRanges: [ClosedRange<Int64>] { [11100000...11109999] }
    /// ``other``
    @inlinable
    public static var unrecognised: Self { .other }
    /// Classified through ``ResponseCatalog/builtIn``, the C core's static default table.
    public static let classifier = ModuleClassifier<Self>(catalog: .builtIn)

    /// The case's catalog identifier (the case name).
    public var name: String {
        switch self {
        case .joinedBeePlan: return "joinedBeePlan"
        case .other: return "other"
        }
    }

    /// The case's catalog flags.
    public var flags: CodeFlags {
        switch self {
        case .joinedBeePlan: return [.showUser]
        case .other: return []
        }
    }

    /// The case's catalog message.
    public var message: LocalizedText {
        switch self {
        case .joinedBeePlan: return LocalizedText(english: "You have already joined the Bee Plan.", simplifiedChinese: "你已加入小蜜蜂计划。")
        case .other: return Self.unrecognisedMessage
        }
    }
}
