import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

/// LocalizedError and CustomNSError, checked on Linux where `localizedDescription` needs
/// `NSLocalizedDescriptionKey` in `errorUserInfo`.
///
/// Serialized: the tests set the process-wide ``MessageLanguage``.
@Suite("Descriptions: LocalizedError and CustomNSError", .serialized)
struct LocalizedDescriptionTests {
    @Test("English and Simplified Chinese descriptions from the catalog")
    func languages() {
        let error = ModuleRespError<StudyGroupCode>.module(.wrongTeamCode)
        #expect(error.errorDescription(in: .english) == "The class code is wrong.")
        #expect(error.errorDescription(in: .simplifiedChinese) == "班级码错误。")
        #expect(
            error.failureReason(in: .english)
                == "The server answered with the Study group code 11210005 (wrongTeamCode).")
        #expect(error.failureReason(in: .simplifiedChinese) == "服务器返回学习小组错误码 11210005(wrongTeamCode)。")
        let token = ModuleRespError<StudyGroupCode>.base(.tokenExpire)
        #expect(token.errorDescription(in: .simplifiedChinese) == "登录已过期,请重新登录。")
        #expect(token.recoverySuggestion(in: .english) == "Sign in again.")
        #expect(token.recoverySuggestion(in: .simplifiedChinese) == "请重新登录。")
        #expect(
            ModuleRespError<StudyGroupCode>.module(.other(11_219_999)).errorDescription(in: .simplifiedChinese)
                == "未识别的学习小组错误(错误码 11219999)")
        #expect(
            ModuleRespError<StudyGroupCode>.unacceptableStatus(503).recoverySuggestion(in: .english)
                == "Try again later.")
        #expect(ModuleRespError<StudyGroupCode>.module(.wrongTeamCode).recoverySuggestion(in: .english) == nil)
    }

    @Test("the language as an identifier gives: zh-CN and zh_CN Chinese texts throughout, zh-TW Traditional or English")
    func identifiers() {
        let cancelled = ModuleRespError<StudyGroupCode>.cancelled
        let token = ModuleRespError<StudyGroupCode>.base(.tokenExpire)
        let unrecognised = ModuleRespError<StudyGroupCode>.module(.other(11_219_999))
        for identifier in ["zh-CN", "zh_CN.UTF-8", "zh", "zh-Hans-SG"] {
            let language = Language.matching(identifier: identifier)
            #expect(cancelled.errorDescription(in: language) == "请求已取消。", "\(identifier)")
            #expect(token.errorDescription(in: language) == "登录已过期,请重新登录。", "\(identifier)")
            #expect(token.recoverySuggestion(in: language) == "请重新登录。", "\(identifier)")
            #expect(unrecognised.errorDescription(in: language) == "未识别的学习小组错误(错误码 11219999)")
        }
        let traditional = Language.matching(identifier: "zh_TW.UTF-8")
        // The catalog has zh-Hant; SwiftErr's own texts are English and Simplified Chinese only, and
        // Traditional Chinese never falls back to Simplified.
        #expect(token.errorDescription(in: traditional) == "登入狀態已過期,請重新登入。")
        #expect(cancelled.errorDescription(in: traditional) == "The request was cancelled.")
    }

    @Test("a missing translation falls back to English")
    func fallback() {
        let error = ModuleRespError<FallbackCode>.module(.englishOnly)
        #expect(error.errorDescription(in: .simplifiedChinese) == "Only in English.")
    }

    @Test("localizedDescription on this platform follows the language setting")
    func localizedDescription() {
        defer { Language.followSystem() }
        let error: any Error = ModuleRespError<StudyGroupCode>.module(.classNotFound)
        Language.current = .english
        #expect(error.localizedDescription == "The class does not exist.")
        #expect((error as NSError).localizedDescription == "The class does not exist.")
        #expect(
            (error as NSError).localizedFailureReason
                == "The server answered with the Study group code 11210006 (classNotFound).")
        Language.current = .simplifiedChinese
        #expect(error.localizedDescription == "班级不存在。")
        let token: any Error = ModuleRespError<StudyGroupCode>.base(.tokenExpire)
        #expect((token as NSError).localizedRecoverySuggestion == "请重新登录。")
    }

    @Test("NSError bridging: domain per module, code = raw code, userInfo")
    func nsError() throws {
        defer { Language.followSystem() }
        Language.current = .english
        let ns = ModuleRespError<StudyGroupCode>.module(.joinTeamMax) as NSError
        #expect(ns.domain == "SwiftErr.studyGroup")
        #expect(ns.code == 11_210_017)
        #expect(ns.userInfo[NSLocalizedDescriptionKey] as? String == "You have joined the maximum number of classes.")
        #expect((ns.userInfo[ModuleRespErrorKeys.rawCode] as? NSNumber)?.int64Value == 11_210_017)
        #expect(ns.userInfo[ModuleRespErrorKeys.module] as? String == "studyGroup")
        #expect((ModuleRespError<TagCode>.base(.tokenExpire) as NSError).domain == "SwiftErr.tag")
        #expect((ModuleRespError<TagCode>.base(.tokenExpire) as NSError).code == 11001)
        #expect((ModuleRespError<TagCode>.unexpectedCode(.max) as NSError).code == Int(clamping: Int64.max))

        struct Offline: Error {}
        let transport = ModuleRespError<TagCode>.transportFailed(underlying: Offline()) as NSError
        #expect(transport.code == -1)
        #expect(transport.userInfo[NSUnderlyingErrorKey] != nil)
        #expect(transport.localizedDescription == "The network request failed.")
        #expect(transport.localizedRecoverySuggestion == "Check your network connection and try again.")
        #expect((ModuleRespError<TagCode>.cancelled as NSError).code == -2)
        #expect((ModuleRespError<TagCode>.unacceptableStatus(502) as NSError).code == 502)
    }

    @Test(
        "the system language follows LC_ALL, then LC_MESSAGES, then LANG",
        arguments: [
            ([String: String](), Language.english),
            (["LANG": "zh_CN.UTF-8"], "zh-CN"),
            (["LANG": "zh_TW.UTF-8"], "zh-TW"), (["LANG": "hi_IN.UTF-8"], "hi-IN"),
            (["LANG": "sr_RS.UTF-8@latin"], "sr-Latn-RS"),
            (["LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"], "zh-CN"),
            (["LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"], "en-US"),
            (["LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"], "zh-CN"),
            (["LC_ALL": "", "LANG": "zh_CN.UTF-8"], "zh-CN"),
            (["LANG": "C"], Language.english), (["LANG": "POSIX"], Language.english),
            (["LANG": "C.UTF-8"], Language.english),
        ] as [([String: String], Language)])
    func localeEnvironment(environment: [String: String], expected: Language) {
        #expect(Language.fromLocaleEnvironment { environment[$0] } == expected)
    }
}

/// A Swift-only module with an English-only message.
enum FallbackCode: ModuleCode {
    case englishOnly
    case other(Int64)

    static var moduleName: String { "fallbackTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Fallback") }
    static var codeRanges: [ClosedRange<Int64>] { [11_510_000...11_510_999] }
    static var listedCases: [Self] { [.englishOnly] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }

    var message: LocalizedText {
        switch self {
        case .englishOnly: return LocalizedText(english: "Only in English.")
        case .other: return Self.unrecognisedMessage
        }
    }
    var code: Int64 {
        switch self {
        case .englishOnly: return 11_510_001
        case .other(let code): return code
        }
    }
}
