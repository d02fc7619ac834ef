/// The codes of the default catalog's `upload` module (Upload / 上传),
/// owning `11020000...11029999`.
///
/// Each case's raw value is the server code. A code inside the range that the module does
/// not list is ``other``, whose raw value `-99999` is the seeds' client-side sentinel, never a
/// server code. Classified through ``ResponseCatalog/builtIn`` (`errcore_default_table()`,
/// module id 2).
public enum UploadCode: Int, ModuleCode {
    /// This file has already been uploaded. (`11020005`)
    case uploadRepeate = 11020005
    /// A code in the module's range that this version does not list.
    case other = -99999

    /// `"upload"`
    public static var moduleName: String { "upload" }
    /// Upload / 上传
    public static var moduleTitle: LocalizedText { LocalizedText(english: "Upload", simplifiedChinese: "上传") }
    /// `11020000...11029999`
    public static var codeRanges: [ClosedRange<Int64>] { [11020000...11029999] }
    /// ``other``
    @inlinable
    public static var unrecognised: Self { .other }
    /// Classified through ``ResponseCatalog/builtIn``, the C core's static default table.
    public static let classifier = ModuleClassifier<Self>(catalog: .builtIn)

    /// The case's catalog identifier (the case name).
    public var name: String {
        switch self {
        case .uploadRepeate: return "uploadRepeate"
        case .other: return "other"
        }
    }

    /// The case's catalog flags.
    public var flags: CodeFlags {
        switch self {
        case .uploadRepeate: return [.showUser]
        case .other: return []
        }
    }

    /// The case's catalog message.
    public var message: LocalizedText {
        switch self {
        case .uploadRepeate: return LocalizedText(english: "This file has already been uploaded.", simplifiedChinese: "该文件已上传,请勿重复上传。")
        case .other: return Self.unrecognisedMessage
        }
    }
}
