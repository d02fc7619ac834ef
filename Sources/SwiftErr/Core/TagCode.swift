/// The codes of the default catalog's `tag` module (Tag / 标签),
/// owning `11160000...11169999`.
///
/// Each case's raw value is the server code. A code inside the range that the module does
/// not list is ``other``, whose raw value `-99999` is the seeds' client-side sentinel, never a
/// server code. Classified through ``ResponseCatalog/builtIn`` (`errcore_default_table()`,
/// module id 6).
public enum TagCode: Int, ModuleCode {
    /// This tag name is not valid. (`11160002`)
    case invalidTagName = 11160002
    /// A tag with this name already exists. (`11160003`)
    case alreadyExistsTagName = 11160003
    /// You have reached the maximum number of tags. (`11160004`)
    case outOfMaxTagsCount = 11160004
    /// A code in the module's range that this version does not list.
    case other = -99999

    /// `"tag"`
    public static var moduleName: String { "tag" }
    /// Tag / 标签
    public static var moduleTitle: LocalizedText { LocalizedText(english: "Tag", simplifiedChinese: "标签") }
    /// `11160000...11169999`
    public static var codeRanges: [ClosedRange<Int64>] { [11160000...11169999] }
    /// ``other``
    @inlinable
    public static var unrecognised: Self { .other }
    /// Classified through ``ResponseCatalog/builtIn``, the C core's static default table.
    public static let classifier = ModuleClassifier<Self>(catalog: .builtIn)

    /// The case's catalog identifier (the case name).
    public var name: String {
        switch self {
        case .invalidTagName: return "invalidTagName"
        case .alreadyExistsTagName: return "alreadyExistsTagName"
        case .outOfMaxTagsCount: return "outOfMaxTagsCount"
        case .other: return "other"
        }
    }

    /// The case's catalog flags.
    public var flags: CodeFlags {
        switch self {
        case .invalidTagName: return [.showUser]
        case .alreadyExistsTagName: return [.showUser]
        case .outOfMaxTagsCount: return [.showUser]
        case .other: return []
        }
    }

    /// The case's catalog message.
    public var message: LocalizedText {
        switch self {
        case .invalidTagName: return LocalizedText(english: "This tag name is not valid.", simplifiedChinese: "标签名称无效。")
        case .alreadyExistsTagName: return LocalizedText(english: "A tag with this name already exists.", simplifiedChinese: "同名标签已存在。")
        case .outOfMaxTagsCount: return LocalizedText(english: "You have reached the maximum number of tags.", simplifiedChinese: "标签数量已达上限。")
        case .other: return Self.unrecognisedMessage
        }
    }
}
