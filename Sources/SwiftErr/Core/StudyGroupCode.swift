/// The codes of the default catalog's `studyGroup` module (Study group / 学习小组),
/// owning `11210000...11219999`.
///
/// Each case's raw value is the server code. A code inside the range that the module does
/// not list is ``other``, whose raw value `-99999` is the seeds' client-side sentinel, never a
/// server code. Classified through ``ResponseCatalog/builtIn`` (`errcore_default_table()`,
/// module id 7).
public enum StudyGroupCode: Int, ModuleCode {
    /// The class code is wrong. (`11210005`)
    case wrongTeamCode = 11210005
    /// The class does not exist. (`11210006`)
    case classNotFound = 11210006
    /// This nickname is already used in the class. (`11210007`)
    case nicknameExists = 11210007
    /// You have asked to join this class three times. Wait for the teacher to respond. (`11210008`)
    case joinClassThreeTimes = 11210008
    /// Your current role cannot do this. (`11210011`)
    case curIdentifierError = 11210011
    /// This nickname is already used for this role. (`11210014`)
    case identityNickNameExists = 11210014
    /// You have created the maximum number of classes. (`11210015`)
    case createClassMAx = 11210015
    /// Too many class code checks. Try again later. (`11210016`)
    case checkClassCodeMax = 11210016
    /// You have joined the maximum number of classes. (`11210017`)
    case joinTeamMax = 11210017
    /// The class is full. (`11210018`)
    case studentCountMax = 11210018
    /// Folders cannot be nested any deeper. (`11210027`)
    case folderLevelLimit = 11210027
    /// The check-in frequency is not valid. (`11210036`)
    case clockFrequencyInvalid = 11210036
    /// A code in the module's range that this version does not list.
    case other = -99999

    /// `"studyGroup"`
    public static var moduleName: String { "studyGroup" }
    /// Study group / 学习小组
    public static var moduleTitle: LocalizedText { LocalizedText(english: "Study group", simplifiedChinese: "学习小组") }
    /// `11210000...11219999`
    public static var codeRanges: [ClosedRange<Int64>] { [11210000...11219999] }
    /// ``other``
    @inlinable
    public static var unrecognised: Self { .other }
    /// Classified through ``ResponseCatalog/builtIn``, the C core's static default table.
    public static let classifier = ModuleClassifier<Self>(catalog: .builtIn)

    /// The case's catalog identifier (the case name).
    public var name: String {
        switch self {
        case .wrongTeamCode: return "wrongTeamCode"
        case .classNotFound: return "classNotFound"
        case .nicknameExists: return "nicknameExists"
        case .joinClassThreeTimes: return "joinClassThreeTimes"
        case .curIdentifierError: return "curIdentifierError"
        case .identityNickNameExists: return "identityNickNameExists"
        case .createClassMAx: return "createClassMAx"
        case .checkClassCodeMax: return "checkClassCodeMax"
        case .joinTeamMax: return "joinTeamMax"
        case .studentCountMax: return "studentCountMax"
        case .folderLevelLimit: return "folderLevelLimit"
        case .clockFrequencyInvalid: return "clockFrequencyInvalid"
        case .other: return "other"
        }
    }

    /// The case's catalog flags.
    public var flags: CodeFlags {
        switch self {
        case .wrongTeamCode: return [.showUser]
        case .classNotFound: return [.showUser]
        case .nicknameExists: return [.showUser]
        case .joinClassThreeTimes: return [.showUser]
        case .curIdentifierError: return [.showUser]
        case .identityNickNameExists: return [.showUser]
        case .createClassMAx: return [.showUser]
        case .checkClassCodeMax: return [.showUser]
        case .joinTeamMax: return [.showUser]
        case .studentCountMax: return [.showUser]
        case .folderLevelLimit: return [.showUser]
        case .clockFrequencyInvalid: return [.showUser]
        case .other: return []
        }
    }

    /// The case's catalog message.
    public var message: LocalizedText {
        switch self {
        case .wrongTeamCode: return LocalizedText(english: "The class code is wrong.", simplifiedChinese: "班级码错误。")
        case .classNotFound: return LocalizedText(english: "The class does not exist.", simplifiedChinese: "班级不存在。")
        case .nicknameExists: return LocalizedText(english: "This nickname is already used in the class.", simplifiedChinese: "该昵称在班级中已存在。")
        case .joinClassThreeTimes: return LocalizedText(english: "You have asked to join this class three times. Wait for the teacher to respond.", simplifiedChinese: "你已申请加入该班级三次,请等待老师处理。")
        case .curIdentifierError: return LocalizedText(english: "Your current role cannot do this.", simplifiedChinese: "当前身份无法进行此操作。")
        case .identityNickNameExists: return LocalizedText(english: "This nickname is already used for this role.", simplifiedChinese: "该身份下昵称已存在。")
        case .createClassMAx: return LocalizedText(english: "You have created the maximum number of classes.", simplifiedChinese: "创建班级数量已达上限。")
        case .checkClassCodeMax: return LocalizedText(english: "Too many class code checks. Try again later.", simplifiedChinese: "班级码校验次数已达上限,请稍后再试。")
        case .joinTeamMax: return LocalizedText(english: "You have joined the maximum number of classes.", simplifiedChinese: "加入班级数量已达上限。")
        case .studentCountMax: return LocalizedText(english: "The class is full.", simplifiedChinese: "班级人数已满。")
        case .folderLevelLimit: return LocalizedText(english: "Folders cannot be nested any deeper.", simplifiedChinese: "文件夹层级已达上限。")
        case .clockFrequencyInvalid: return LocalizedText(english: "The check-in frequency is not valid.", simplifiedChinese: "打卡频率无效。")
        case .other: return Self.unrecognisedMessage
        }
    }
}
