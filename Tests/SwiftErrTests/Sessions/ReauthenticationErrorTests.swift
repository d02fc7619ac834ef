import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@testable import SwiftErr

/// What a session that could not be renewed looks like to the app: the typed case, its accessors,
/// its texts in both languages, its presentation (Sign In / Cancel) and the policy's verdict.
@Suite("ModuleRespError.reauthenticationFailed: accessors, texts, presentation, policy")
struct ReauthenticationErrorTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    struct Offline: Error {}

    static let failures: [ReauthenticationError] = [
        ReauthenticationError(reason: .refreshFailed, underlyingError: Offline()),
        ReauthenticationError(reason: .excessiveRefresh(.default)),
        ReauthenticationError(reason: .refusedAfterRefresh, underlyingError: Failure.base(.tokenExpire)),
        ReauthenticationError(reason: .refreshUsesSession),
    ]

    @Test(
        "accessors: requires re-authentication, never retryable, keeps its cause, no server code", arguments: failures)
    func accessors(failure: ReauthenticationError) {
        let error = Failure.reauthenticationFailed(failure)
        #expect(error.isReauthenticationFailure)
        #expect(error.reauthenticationError?.reason == failure.reason)
        #expect(error.requiresReauthentication)
        #expect(!error.isRetryable)
        #expect(RetryPolicy.default.disposition(for: error) == .stop(.notRetryable))
        #expect(RetryPolicy(retriesOtherTransportFailures: true).disposition(for: error) == .stop(.notRetryable))
        #expect(error.underlyingError is ReauthenticationError)
        #expect(error.rawCode == nil && error.flags == [] && error.outcome == nil && !error.isServerCode)
        #expect(error.errorCode == -7)
        #expect((error.errorUserInfo[NSUnderlyingErrorKey] as? NSError) != nil)
        // Another module's view keeps the case.
        #expect(ModuleRespError<UploadCode>(converting: error).reauthenticationError?.reason == failure.reason)
        // The one mapping of foreign errors gives the case for the bare error.
        #expect(Failure(adapting: failure).reauthenticationError?.reason == failure.reason)
    }

    @Test("the presentation offers Sign In and Cancel, in English and Chinese", arguments: failures)
    func presentation(failure: ReauthenticationError) {
        let error = Failure.reauthenticationFailed(failure)
        #expect(error.suggestedRecovery == .signIn)
        let english = ErrorPresentation(error: error, language: .english)
        #expect(english.title == "Your session has ended. Please sign in again.")
        #expect(english.actions.map(\.title) == ["Sign In", "Cancel"])
        #expect(english.actions.map(\.role) == [.signIn, .cancel])
        #expect(english.message?.hasSuffix("Sign in again.") == true)
        let chinese = ErrorPresentation(error: error, language: .simplifiedChinese)
        #expect(chinese.title == "登录已失效,请重新登录。")
        #expect(chinese.actions.map(\.title) == ["登录", "取消"])
        #expect(chinese.message?.hasSuffix("请重新登录。") == true)
    }

    @Test("each reason has its own sentence, in both languages")
    func reasons() {
        let failed = Self.failures[0]
        #expect(failed.reason(in: .english) == "Renewing the session failed.")
        #expect(failed.reason(in: .simplifiedChinese) == "续期登录失败。")
        let excessive = Self.failures[1]
        #expect(
            excessive.reason(in: .english)
                == "The session was renewed 5 times within 30 seconds, and the server still asked to sign in again.")
        #expect(excessive.reason(in: .simplifiedChinese) == "30 秒内已续期 5 次,服务器仍要求重新登录。")
        let refused = Self.failures[2]
        #expect(refused.reason(in: .english) == "The server refused the request again after the session was renewed.")
        #expect(Failure.reauthenticationFailed(refused).failureReason(in: .english) == refused.reason(in: .english))
        let ownSession = Self.failures[3]
        #expect(
            ownSession.reason(in: .english)
                == "The request that renews the session was sent with the session it renews.")
        #expect(ownSession.reason(in: .simplifiedChinese) == "续期登录的请求使用了正在续期的同一会话。")
    }

    @Test("the log description names the reason and the cause")
    func descriptions() {
        #expect(Self.failures[0].description == "refreshing the credential failed: Offline()")
        #expect(Self.failures[1].description == "more than 5 refreshes in 30.0 seconds")
        #expect(
            Failure.reauthenticationFailed(Self.failures[2]).description.hasPrefix(
                "re-authentication failed: the request was refused again after the credential was refreshed: base.tokenExpire"
            ))
        #expect(
            Self.failures[3].description
                == "the refresh sent a request through a client of its own session, which would wait for the refresh itself; send the refresh's request through a client without the session"
        )
    }
}
