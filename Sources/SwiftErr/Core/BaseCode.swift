import CErrCore

/// A base-tier response code: a code any request can get, handled centrally (token expiry,
/// verification codes, …).
///
/// ## Why a struct and not an enum
///
/// `BaseCode` is an open struct over the raw code with static members, like swift-system's
/// `Errno`, rather than a closed enum, because the base tier is data, not a Swift type: it lives
/// in the C table (``CodeTable``), which C code shares and which an app can build from its own
/// catalog file with more base codes than this library knows. A closed enum would need an
/// "other" case and lose the raw value of every base code it does not list; the struct keeps
/// every code exactly, reads names, flags and messages from the table, and still matches in
/// `switch` and `catch` patterns (`case .base(.tokenExpire)`), through `Equatable` and `~=`.
/// The cost is that `switch` over a `BaseCode` needs a `default:`, which is right for a tier
/// that can grow without a release.
@frozen
public struct BaseCode: RawRepresentable, Hashable, Sendable {
    /// The raw code.
    public let rawValue: Int64

    /// Wraps a raw code. Any value is accepted; `CodeTable.classify(_:)` says whether it is
    /// a base code of a given table.
    /// - Parameter rawValue: The raw code.
    @inlinable
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// Your session has expired. Please sign in again.
    ///
    /// Code `11001`; flags: ``CodeFlags/reauthenticate``, ``CodeFlags/showUser``.
    public static let tokenExpire = BaseCode(rawValue: 11001)
    /// The verification code has expired. Request a new one.
    ///
    /// Code `11002`; flags: ``CodeFlags/showUser``.
    public static let verifyCodeExpire = BaseCode(rawValue: 11002)
    /// The verification code is incorrect.
    ///
    /// Code `11003`; flags: ``CodeFlags/showUser``.
    public static let verifyCodeIncorrect = BaseCode(rawValue: 11003)
    /// Automatic sign-in failed. Please sign in again.
    ///
    /// Code `11004`; flags: ``CodeFlags/reauthenticate``, ``CodeFlags/showUser``.
    public static let autoLoginFailed = BaseCode(rawValue: 11004)
    /// Signing in with this app ID failed.
    ///
    /// Code `11005`; flags: ``CodeFlags/showUser``.
    public static let appidLoginFailed = BaseCode(rawValue: 11005)
    /// This phone number is already registered.
    ///
    /// Code `11006`; flags: ``CodeFlags/showUser``.
    public static let phoneIsRegisted = BaseCode(rawValue: 11006)
    /// This phone number is already linked to another account.
    ///
    /// Code `11010`; flags: ``CodeFlags/showUser``.
    public static let phoneHasBinded = BaseCode(rawValue: 11010)
    /// Too many verification codes were requested. Try again later.
    ///
    /// Code `11011`; flags: ``CodeFlags/showUser``.
    public static let overVerifyCode = BaseCode(rawValue: 11011)

    /// The base tier of the default catalog (`catalog/default.json`), in code order.
    ///
    /// ``ResponseCatalog`` assembles Swift-defined modules on top of these entries.
    public static let standardEntries: [EntryDefinition] = [
        EntryDefinition(code: 11001, name: "tokenExpire", flags: [.reauthenticate, .showUser],
                        message: LocalizedText(english: "Your session has expired. Please sign in again.", simplifiedChinese: "登录已过期,请重新登录。")),
        EntryDefinition(code: 11002, name: "verifyCodeExpire", flags: [.showUser],
                        message: LocalizedText(english: "The verification code has expired. Request a new one.", simplifiedChinese: "验证码已过期,请重新获取。")),
        EntryDefinition(code: 11003, name: "verifyCodeIncorrect", flags: [.showUser],
                        message: LocalizedText(english: "The verification code is incorrect.", simplifiedChinese: "验证码不正确。")),
        EntryDefinition(code: 11004, name: "autoLoginFailed", flags: [.reauthenticate, .showUser],
                        message: LocalizedText(english: "Automatic sign-in failed. Please sign in again.", simplifiedChinese: "自动登录失败,请重新登录。")),
        EntryDefinition(code: 11005, name: "appidLoginFailed", flags: [.showUser],
                        message: LocalizedText(english: "Signing in with this app ID failed.", simplifiedChinese: "AppID 登录失败。")),
        EntryDefinition(code: 11006, name: "phoneIsRegisted", flags: [.showUser],
                        message: LocalizedText(english: "This phone number is already registered.", simplifiedChinese: "该手机号已注册。")),
        EntryDefinition(code: 11010, name: "phoneHasBinded", flags: [.showUser],
                        message: LocalizedText(english: "This phone number is already linked to another account.", simplifiedChinese: "该手机号已绑定其他账号。")),
        EntryDefinition(code: 11011, name: "overVerifyCode", flags: [.showUser],
                        message: LocalizedText(english: "Too many verification codes were requested. Try again later.", simplifiedChinese: "获取验证码次数过多,请稍后再试。")),
    ]

    /// The success entry of the default catalog (code `0`).
    public static let successEntry = EntryDefinition(code: 0, name: "success", flags: [],
                                                message: LocalizedText(english: "OK", simplifiedChinese: "成功"))

    /// The code's identifier in `table`, e.g. `"tokenExpire"`.
    /// - Parameter table: The table to look in; the built-in table by default.
    /// - Returns: The name, or `nil` when the code is not a base entry of `table`.
    public func name(in table: CodeTable = .builtIn) -> String? {
        let classification = table.classify(rawValue)
        guard classification.tier == .base, let index = classification.entryIndex else { return nil }
        return table.entryName(at: index)
    }

    /// The code's flags in `table` (empty when it is not a base entry there).
    /// - Parameter table: The table to look in; the built-in table by default.
    /// - Returns: The entry's flags.
    public func flags(in table: CodeTable = .builtIn) -> CodeFlags {
        let classification = table.classify(rawValue)
        return classification.tier == .base ? classification.flags : []
    }

    /// The text a person should see for the code (`errcore_describe()`).
    /// - Parameters:
    ///   - language: The language wanted; English is the fallback.
    ///   - table: The table to look in; the built-in table by default.
    /// - Returns: The entry's message, or the C core's "Unknown response code …" text.
    public func message(in language: Language, table: CodeTable = .builtIn) -> String {
        table.describe(rawValue, in: language)
    }
}
