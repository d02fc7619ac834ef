import CErrCore
import CErrDefaultCatalog
import SwiftErrCore
import SwiftErrDefaultCatalog
import Testing

/// The generated Swift enums and base-tier constants must say exactly what the C core's static
/// table says (both are generated from catalog/default.json; this catches a stale one).
@Suite("Built-in catalog: generated Swift agrees with errcore_default_table()")
struct BuiltInCatalogTests {
    /// The generated module enums, in module-id order.
    static let modules: [ModuleDefinition] = [
        AccountCode.definition, UploadCode.definition, MembershipCode.definition, SignInCode.definition,
        SubjectCode.definition, TagCode.definition, StudyGroupCode.definition,
    ]

    @Test("every generated module equals the C table's module, entry by entry")
    func modulesMatch() {
        let c = Catalog.builtIn.definition
        #expect(c.modules.count == Self.modules.count)
        for (swift, table) in zip(Self.modules, c.modules) {
            #expect(swift.name == table.name)
            #expect(swift.title == table.title, "title of \(swift.name)")
            #expect(swift.ranges == table.ranges, "ranges of \(swift.name)")
            #expect(swift.codes.sorted { $0.code < $1.code } == table.codes, "codes of \(swift.name)")
        }
    }

    @Test("every C entry classifies to the Swift value with the same code, name, flags and messages")
    func everyEntry() throws {
        let table = Catalog.builtIn
        for index in 0..<UInt32(table.entryCount) {
            let code = try #require(table.code(at: index))
            let name = try #require(table.entryName(at: index))
            let flags = try #require(table.entryFlags(at: index))
            var message = LocalizedText([:])
            for language in Language.builtIn {
                let text: String = try #require(table.entryMessage(at: index, in: language))
                message[language] = text
            }
            let module = try #require(table.entryModule(at: index))
            func check<Code: ModuleCode>(_: Code.Type) {
                let outcome = Code.classify(code)
                guard case .module(let value) = outcome else {
                    Issue.record("\(code) is not a \(Code.self) code: \(outcome)")
                    return
                }
                #expect(value.name == name)
                #expect(value.flags == flags)
                #expect(value.message == message)
                #expect(value.code == code)
                #expect(!value.isUnrecognised)
            }
            switch UInt32(module) {
            case 0:
                if code != table.successCode {
                    #expect(BaseCode(rawValue: code).name(in: .builtIn) == name)
                    #expect(StudyGroupCode.classify(code) == .base(BaseCode(rawValue: code)))
                }
            case ERRCORE_DEFAULT_MODULE_ACCOUNT: check(AccountCode.self)
            case ERRCORE_DEFAULT_MODULE_UPLOAD: check(UploadCode.self)
            case ERRCORE_DEFAULT_MODULE_MEMBERSHIP: check(MembershipCode.self)
            case ERRCORE_DEFAULT_MODULE_SIGN_IN: check(SignInCode.self)
            case ERRCORE_DEFAULT_MODULE_SUBJECT: check(SubjectCode.self)
            case ERRCORE_DEFAULT_MODULE_TAG: check(TagCode.self)
            case ERRCORE_DEFAULT_MODULE_STUDY_GROUP: check(StudyGroupCode.self)
            default: Issue.record("unexpected module id \(module) for code \(code)")
            }
        }
    }

    @Test("the built-in catalog has English, Simplified and Traditional Chinese and Hindi for every text")
    func fourLanguages() throws {
        let table = Catalog.builtIn
        #expect(table.languages == Language.builtIn)
        let definition = table.definition
        #expect(definition.languages == Language.builtIn)
        for text in definition.allTexts {
            #expect(Set(text.languages) == Set(Language.builtIn), "\(text)")
            for language in Language.builtIn {
                #expect(text[language]?.isEmpty == false, "\(language) of \(text)")
            }
        }
        for (swift, module) in zip(Self.modules, definition.modules) {
            #expect(Set(swift.title.languages) == Set(Language.builtIn), "title of \(module.name)")
        }
        // The lookups with fallback, as a user drives them.
        #expect(table.describe(11001, in: Language(tag: "zh-Hant-TW")!) == "登入狀態已過期,請重新登入。")
        #expect(table.describe(11001, in: Language(tag: "hi-IN")!) == "आपका सत्र समाप्त हो गया है। कृपया फिर से साइन इन करें।")
        #expect(table.describe(11001, in: Language(tag: "pt-BR")!) == "Your session has expired. Please sign in again.")
        #expect(table.describe(11_219_999, in: .traditionalChinese) == "無法辨識的學習小組錯誤(錯誤碼 11219999)")
        #expect(table.moduleTitle(7, in: .hindi) == "अध्ययन समूह")
    }

    @Test("module ids and names match the C header's constants")
    func moduleIDs() {
        let table = Catalog.builtIn
        #expect(table.moduleID(named: AccountCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_ACCOUNT))
        #expect(table.moduleID(named: UploadCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_UPLOAD))
        #expect(table.moduleID(named: MembershipCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_MEMBERSHIP))
        #expect(table.moduleID(named: SignInCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_SIGN_IN))
        #expect(table.moduleID(named: SubjectCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_SUBJECT))
        #expect(table.moduleID(named: TagCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_TAG))
        #expect(table.moduleID(named: StudyGroupCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_STUDY_GROUP))
        #expect(table.moduleCount == 7)
    }

    @Test("every listed case is in the C table; every unlisted code in a range keeps its number")
    func everyCase() {
        func check<Code: ModuleCode>(_: Code.Type) {
            for value in Code.listedCases {
                #expect(Code.classify(value.code) == .module(value))
                #expect(Code(code: value.code) == value)
                #expect(Catalog.builtIn.classify(value.code).isExact)
            }
            for range in Code.codeRanges {
                for code in [range.lowerBound, range.upperBound]
                where !Code.listedCases.contains(where: { $0.code == code }) {
                    let outcome = Code.classify(code)
                    #expect(outcome == .module(Code.unrecognised(code)))
                    #expect(outcome.rawCode == code)
                    #expect(Code(code: code)?.isUnrecognised == true)
                }
            }
            #expect(Code(code: 0) == nil, "the success code is no module's")
            #expect(Code(code: 11001) == nil, "a base code is no module's")
        }
        check(AccountCode.self)
        check(UploadCode.self)
        check(MembershipCode.self)
        check(SignInCode.self)
        check(SubjectCode.self)
        check(TagCode.self)
        check(StudyGroupCode.self)
    }

    @Test(
        "the generated base constants are base-tier in C",
        arguments: [
            (BaseCode.tokenExpire, Int64(11001)), (.verifyCodeExpire, 11002), (.verifyCodeIncorrect, 11003),
            (.autoLoginFailed, 11004), (.appidLoginFailed, 11005), (.phoneIsRegisted, 11006),
            (.phoneHasBinded, 11010), (.overVerifyCode, 11011),
        ])
    func baseConstants(code: BaseCode, raw: Int64) {
        #expect(code.rawValue == raw)
        #expect(Catalog.builtIn.classify(raw).tier == .base)
        #expect(StudyGroupCode.classify(raw) == .base(code))
    }

    @Test("token expiry and failed automatic sign-in are flagged for re-authentication in C")
    func reauthenticationFlags() {
        #expect(BaseCode.tokenExpire.message(in: .simplifiedChinese, catalog: .builtIn) == "登录已过期,请重新登录。")
        #expect(BaseCode(rawValue: 99).name(in: .builtIn) == nil)
        #expect(BaseCode(rawValue: 11_210_005).flags(in: .builtIn) == [], "a module code is not a base code")
        #expect(BaseCode.tokenExpire.flags(in: .builtIn).contains(.reauthenticate))
        #expect(BaseCode.autoLoginFailed.flags(in: .builtIn).contains(.reauthenticate))
        #expect(!BaseCode.verifyCodeIncorrect.flags(in: .builtIn).contains(.reauthenticate))
    }
}
