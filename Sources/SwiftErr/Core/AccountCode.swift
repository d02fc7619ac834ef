/// The codes of the default catalog's `account` module (Account / 账号),
/// owning `11010000...11019999`.
///
/// Each case's raw value is the server code. A code inside the range that the module does
/// not list is ``other``, whose raw value `-99999` is the seeds' client-side sentinel, never a
/// server code. Classified through ``ResponseCatalog/builtIn`` (`errcore_default_table()`,
/// module id 1).
public enum AccountCode: Int, ModuleCode {
    /// This WeChat account is already linked to another account. (`11010017`)
    case wechatHasBinded = 11010017
    /// This phone number is already linked to another WeChat account. (`11010022`)
    case phoneHasBindedOtherWeChat = 11010022
    /// This phone number is not supported. (`11010028`)
    case notSupportNumber = 11010028
    /// This account is not registered for homework. (`11010033`)
    case notRegisterHomework = 11010033
    /// A code in the module's range that this version does not list.
    case other = -99999

    /// `"account"`
    public static var moduleName: String { "account" }
    /// Account / 账号
    public static var moduleTitle: LocalizedText { LocalizedText(english: "Account", simplifiedChinese: "账号") }
    /// `11010000...11019999`
    public static var codeRanges: [ClosedRange<Int64>] { [11010000...11019999] }
    /// ``other``
    @inlinable
    public static var unrecognised: Self { .other }
    /// Classified through ``ResponseCatalog/builtIn``, the C core's static default table.
    public static let classifier = ModuleClassifier<Self>(catalog: .builtIn)

    /// The case's catalog identifier (the case name).
    public var name: String {
        switch self {
        case .wechatHasBinded: return "wechatHasBinded"
        case .phoneHasBindedOtherWeChat: return "phoneHasBindedOtherWeChat"
        case .notSupportNumber: return "notSupportNumber"
        case .notRegisterHomework: return "notRegisterHomework"
        case .other: return "other"
        }
    }

    /// The case's catalog flags.
    public var flags: CodeFlags {
        switch self {
        case .wechatHasBinded: return [.showUser]
        case .phoneHasBindedOtherWeChat: return [.showUser]
        case .notSupportNumber: return [.showUser]
        case .notRegisterHomework: return [.showUser]
        case .other: return []
        }
    }

    /// The case's catalog message.
    public var message: LocalizedText {
        switch self {
        case .wechatHasBinded: return LocalizedText(english: "This WeChat account is already linked to another account.", simplifiedChinese: "该微信已绑定其他账号。")
        case .phoneHasBindedOtherWeChat: return LocalizedText(english: "This phone number is already linked to another WeChat account.", simplifiedChinese: "该手机号已绑定其他微信。")
        case .notSupportNumber: return LocalizedText(english: "This phone number is not supported.", simplifiedChinese: "暂不支持该号码。")
        case .notRegisterHomework: return LocalizedText(english: "This account is not registered for homework.", simplifiedChinese: "该账号未开通作业服务。")
        case .other: return Self.unrecognisedMessage
        }
    }
}
