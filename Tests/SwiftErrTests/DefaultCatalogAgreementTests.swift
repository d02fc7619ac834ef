import CErrCore
import Testing
@testable import SwiftErr

/// The Swift enums and base-tier constants must say exactly what the C core's static table says.
@Suite("Default catalog: Swift enums agree with errcore_default_table()")
struct DefaultCatalogAgreementTests {
    /// Sorts a definition's entries so that order does not matter in comparisons.
    private func normalised(_ definition: CatalogDefinition) -> CatalogDefinition {
        var copy = definition
        copy.base.sort { $0.code < $1.code }
        for i in copy.modules.indices {
            copy.modules[i].codes.sort { $0.code < $1.code }
        }
        return copy
    }

    @Test("the whole definition matches entry by entry")
    func wholeDefinition() {
        let swift = normalised(CatalogDefinition.standard)
        let c = normalised(CodeTable.builtIn.definition)
        #expect(swift.success == c.success)
        #expect(swift.base.count == c.base.count)
        for (s, t) in zip(swift.base, c.base) {
            #expect(s == t, "base entry \(s.name) differs from C \(t.name)")
        }
        #expect(swift.modules.count == c.modules.count)
        for (s, t) in zip(swift.modules, c.modules) {
            #expect(s.name == t.name)
            #expect(s.title == t.title, "title of \(s.name)")
            #expect(s.ranges == t.ranges, "ranges of \(s.name)")
            #expect(s.codes.count == t.codes.count, "code count of \(s.name)")
            for (a, b) in zip(s.codes, t.codes) {
                #expect(a == b, "\(s.name).\(a.name) differs from C \(b.name)")
            }
        }
    }

    @Test("every C entry classifies to the Swift value with the same name, flags and messages")
    func everyEntry() throws {
        let table = CodeTable.builtIn
        for index in 0..<UInt32(table.entryCount) {
            let code = try #require(table.code(at: index))
            let name = try #require(table.entryName(at: index))
            let flags = try #require(table.entryFlags(at: index))
            let english = try #require(table.entryMessage(at: index, in: .english))
            let chinese = try #require(table.entryMessage(at: index, in: .simplifiedChinese))
            let module = try #require(table.entryModule(at: index))
            func check<Code: ModuleCode>(_: Code.Type) {
                let outcome = Code.classify(code).outcome
                guard case .module(let value) = outcome else {
                    Issue.record("\(code) is not a \(Code.self) code: \(outcome)")
                    return
                }
                #expect(value.name == name)
                #expect(value.flags == flags)
                #expect(value.message == LocalizedText(english: english, simplifiedChinese: chinese))
                #expect(value.code == code)
            }
            switch UInt32(module) {
            case 0:
                if code == table.successCode {
                    #expect(BaseCode.successEntry.name == name)
                } else {
                    let entry = try #require(BaseCode.standardEntries.first { $0.code == code })
                    #expect(entry.name == name)
                    #expect(entry.flags == flags)
                    #expect(entry.message == LocalizedText(english: english, simplifiedChinese: chinese))
                    #expect(BaseCode(rawValue: code).name() == name)
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

    @Test("module ids and names match the C header's constants")
    func moduleIDs() {
        let table = CodeTable.builtIn
        #expect(table.moduleID(named: AccountCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_ACCOUNT))
        #expect(table.moduleID(named: UploadCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_UPLOAD))
        #expect(table.moduleID(named: MembershipCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_MEMBERSHIP))
        #expect(table.moduleID(named: SignInCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_SIGN_IN))
        #expect(table.moduleID(named: SubjectCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_SUBJECT))
        #expect(table.moduleID(named: TagCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_TAG))
        #expect(table.moduleID(named: StudyGroupCode.moduleName) == UInt16(ERRCORE_DEFAULT_MODULE_STUDY_GROUP))
        #expect(table.moduleCount == 7)
    }

    @Test("every Swift case (except the fallback) is in the C table, and the fallback is not")
    func everyCase() {
        func check<Code: ModuleCode>(_: Code.Type) {
            for value in Code.allCases {
                let classified = Code.classify(Int64(value.rawValue))
                if value.isUnrecognised {
                    #expect(classified.outcome == .unexpected(Int64(value.rawValue)), "sentinel \(value.rawValue) must not be a code")
                } else {
                    #expect(classified.outcome == .module(value))
                    #expect(classified.classification.isExact)
                }
            }
            // Every unlisted code in the range is the module's fallback.
            for range in Code.codeRanges {
                for code in [range.lowerBound, range.upperBound] where Code.allCases.allSatisfy({ $0.code != code }) {
                    #expect(Code.classify(code).outcome == .module(Code.unrecognised))
                }
            }
        }
        check(AccountCode.self)
        check(UploadCode.self)
        check(MembershipCode.self)
        check(SignInCode.self)
        check(SubjectCode.self)
        check(TagCode.self)
        check(StudyGroupCode.self)
    }

    @Test("the base constants are the seeds' codes and are base-tier in C", arguments: [
        (BaseCode.tokenExpire, Int64(11001)), (.verifyCodeExpire, 11002), (.verifyCodeIncorrect, 11003),
        (.autoLoginFailed, 11004), (.appidLoginFailed, 11005), (.phoneIsRegisted, 11006),
        (.phoneHasBinded, 11010), (.overVerifyCode, 11011),
    ])
    func baseConstants(code: BaseCode, raw: Int64) {
        #expect(code.rawValue == raw)
        #expect(CodeTable.builtIn.classify(raw).tier == .base)
        #expect(StudyGroupCode.classify(raw).outcome == .base(code))
    }

    @Test("token expiry is flagged for re-authentication in C")
    func tokenExpireFlags() {
        #expect(BaseCode.tokenExpire.message(in: .simplifiedChinese) == "登录已过期,请重新登录。")
        #expect(BaseCode(rawValue: 99).name() == nil)
        #expect(BaseCode(rawValue: 11_210_005).flags() == [], "a module code is not a base code")
        #expect(BaseCode.tokenExpire.flags().contains(.reauthenticate))
        #expect(!BaseCode.verifyCodeIncorrect.flags().contains(.reauthenticate))
    }
}
