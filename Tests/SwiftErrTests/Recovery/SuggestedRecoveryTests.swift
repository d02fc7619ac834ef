import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Presentation actions from the catalog flags, in the library: reauthenticate → Sign In + Cancel,
/// retryable → Try Again + Cancel, otherwise OK.
@Suite("Suggested recovery: presentation actions from catalog flags")
struct SuggestedRecoveryTests {
    @Test("token expiry is presented with Sign In and Cancel, in English and Chinese")
    func tokenExpiry() {
        let error = ModuleRespError<StudyGroupCode>.base(.tokenExpire)
        let english = ErrorPresentation(error: error, language: .english)
        #expect(english.title == "Your session has expired. Please sign in again.")
        #expect(english.message == "The server answered with the general code 11001. Sign in again.")
        #expect(english.actions.map(\.title) == ["Sign In", "Cancel"])
        #expect(english.actions.map(\.role) == [.signIn, .cancel])
        let chinese = ErrorPresentation(error: error, language: .simplifiedChinese)
        #expect(chinese.title == "登录已过期,请重新登录。")
        #expect(chinese.message == "服务器返回通用错误码 11001。请重新登录。")
        #expect(chinese.actions.map(\.title) == ["登录", "取消"])
    }

    @Test(
        "each kind of failure gets the actions its flags or retryability call for",
        arguments: [
            (ModuleRespError<SyncCode>.base(.autoLoginFailed), ["Sign In", "Cancel"]),
            (.module(.serverBusy), ["Try Again", "Cancel"]),
            (.module(.busyButFatal), ["OK"]),
            (.module(.accountFrozen), ["OK"]),
            (.module(.quotaExceeded), ["OK"]),
            (.unacceptableStatus(503), ["Try Again", "Cancel"]),
            (.unacceptableStatus(404), ["OK"]),
            (.transportFailed(underlying: URLError(.timedOut)), ["Try Again", "Cancel"]),
            (.cancelled, ["OK"]),
            (.unexpectedCode(424_242), ["OK"]),
        ])
    func actionsByKind(error: ModuleRespError<SyncCode>, titles: [String]) {
        #expect(ErrorPresentation(error: error, language: .english).actions.map(\.title) == titles, "\(error)")
    }

    static let flagCases: [(CodeFlags, SuggestedRecovery)] = [
        (.reauthenticate, .signIn), ([.reauthenticate, .retryable], .signIn), (.retryable, .tryAgain),
        ([.retryable, .fatal], .acknowledge), (.showUser, .acknowledge), ([], .acknowledge),
    ]

    @Test("the flags rule itself", arguments: flagCases)
    func flagsRule(flags: CodeFlags, expected: SuggestedRecovery) {
        #expect(SuggestedRecovery(flags: flags) == expected)
    }

    @Test("Sign In and Try Again run the app's actions and report recovery; Cancel and OK do not")
    func actionsRun() {
        let signedIn = Locked(0)
        let retried = Locked(0)
        let reauth = ErrorPresentation(
            error: ModuleRespError<StudyGroupCode>.base(.tokenExpire), language: .english,
            signIn: { signedIn.withLock { $0 += 1 } })
        #expect(reauth.perform(actionAt: 0) == true)
        #expect(reauth.perform(actionAt: 1) == false)
        #expect(signedIn.withLock { $0 } == 1)
        let busy = ErrorPresentation(
            error: ModuleRespError<SyncCode>.module(.serverBusy), language: .english,
            tryAgain: { retried.withLock { $0 += 1 } })
        #expect(busy.perform(actionAt: 0) == true)
        #expect(retried.withLock { $0 } == 1)
        #expect(ErrorPresentation(error: ModuleRespError<SyncCode>.cancelled).perform(actionAt: 0) == false)
    }

    @Test("a raw code of a catalog is presented by the same rule")
    func rawCodes() {
        let expired = ErrorPresentation(code: 11001, in: .builtIn, language: .english)
        #expect(expired.title == "Your session has expired. Please sign in again.")
        #expect(expired.message == "The server answered with the general code 11001 (tokenExpire). Sign in again.")
        #expect(expired.actions.map(\.role) == [.signIn, .cancel])
        let busy = ErrorPresentation(code: 11_900_001, in: SyncCode.catalog!, language: .english)
        #expect(busy.actions.map(\.title) == ["Try Again", "Cancel"])
        let unknown = ErrorPresentation(code: 4_294_978_297, in: .builtIn, language: .simplifiedChinese)
        #expect(unknown.actions.map(\.title) == ["好"])
        #expect(unknown.message == "服务器返回了未知的错误码 4294978297。")
    }

    @Test("a module error wrapped in a RecoverableFailure keeps its options and speaks the language asked for")
    func wrapped() {
        let failure = RecoverableFailure.tryAgain(ModuleRespError<StudyGroupCode>.module(.wrongTeamCode)) {}
        let presentation = ErrorPresentation(error: failure, language: .simplifiedChinese)
        #expect(presentation.title == "班级码错误。")
        #expect(presentation.actions.map(\.role) == [.cancel, .tryAgain])
    }
}
