import Foundation
import Testing
import SwiftErr

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
        #expect(error.failureReason(in: .english) == "The server answered with the Study group code 11210005 (wrongTeamCode).")
        #expect(error.failureReason(in: .simplifiedChinese) == "服务器返回学习小组错误码 11210005(wrongTeamCode)。")
        let token = ModuleRespError<StudyGroupCode>.base(.tokenExpire)
        #expect(token.errorDescription(in: .simplifiedChinese) == "登录已过期,请重新登录。")
        #expect(token.recoverySuggestion(in: .english) == "Sign in again.")
        #expect(token.recoverySuggestion(in: .simplifiedChinese) == "请重新登录。")
        #expect(ModuleRespError<StudyGroupCode>.module(.other).errorDescription(in: .simplifiedChinese) == "未识别的学习小组错误")
        #expect(ModuleRespError<StudyGroupCode>.unacceptableStatus(503).recoverySuggestion(in: .english) == "Try again later.")
        #expect(ModuleRespError<StudyGroupCode>.module(.wrongTeamCode).recoverySuggestion(in: .english) == nil)
    }

    @Test("a missing translation falls back to English")
    func fallback() {
        let error = ModuleRespError<FallbackCode>.module(.englishOnly)
        #expect(error.errorDescription(in: .simplifiedChinese) == "Only in English.")
    }

    @Test("localizedDescription on this platform follows the language setting")
    func localizedDescription() {
        defer { MessageLanguage.reset() }
        let error: any Error = ModuleRespError<StudyGroupCode>.module(.classNotFound)
        MessageLanguage.current = .english
        #expect(error.localizedDescription == "The class does not exist.")
        #expect((error as NSError).localizedDescription == "The class does not exist.")
        #expect((error as NSError).localizedFailureReason == "The server answered with the Study group code 11210006 (classNotFound).")
        MessageLanguage.current = .simplifiedChinese
        #expect(error.localizedDescription == "班级不存在。")
        let token: any Error = ModuleRespError<StudyGroupCode>.base(.tokenExpire)
        #expect((token as NSError).localizedRecoverySuggestion == "请重新登录。")
    }

    @Test("NSError bridging: domain per module, code = raw code, userInfo")
    func nsError() throws {
        defer { MessageLanguage.reset() }
        MessageLanguage.current = .english
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

    @Test("the language follows a Chinese locale when not set")
    func localeLanguage() {
        #expect(Language(locale: Locale(identifier: "zh_CN")) == .simplifiedChinese)
        #expect(Language(locale: Locale(identifier: "zh-Hant_TW")) == .english)
        #expect(Language(locale: Locale(identifier: "en_GB")) == .english)
    }
}

/// A Swift-only module with an English-only message.
enum FallbackCode: Int, ModuleCode {
    case englishOnly = 11_510_001
    case other = -99999

    static var moduleName: String { "fallbackTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Fallback") }
    static var codeRanges: [ClosedRange<Int64>] { [11_510_000...11_510_999] }
    static var unrecognised: Self { .other }

    var message: LocalizedText {
        switch self {
        case .englishOnly: return LocalizedText(english: "Only in English.")
        case .other: return Self.unrecognisedMessage
        }
    }
}
