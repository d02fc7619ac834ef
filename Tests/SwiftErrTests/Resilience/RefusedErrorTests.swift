import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@testable import SwiftErr

/// What a request an upstream's protection refused looks like to the app: the typed case, its
/// accessors, its texts in both languages, its presentation (Try Again / Cancel, "Try again
/// later."), the policy's verdict and the one rule's.
@Suite("ModuleRespError.refused: accessors, texts, presentation, policy, outcome")
struct RefusedErrorTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    static let refusals: [UpstreamRefusal] = [
        UpstreamRefusal(reason: .circuitOpen, retryAfter: .milliseconds(3_200)),
        UpstreamRefusal(reason: .circuitHalfOpen, retryAfter: .seconds(5)),
        UpstreamRefusal(reason: .circuitIsolated, retryAfter: nil),
        UpstreamRefusal(reason: .throttled, retryAfter: .milliseconds(12)),
        UpstreamRefusal(reason: .retryBudgetExhausted, retryAfter: nil),
    ]

    @Test("accessors: refused, never retried, unjudged, keeps the refusal, no server code", arguments: refusals)
    func accessors(refusal: UpstreamRefusal) {
        let error = Failure.refused(refusal)
        #expect(error.isRefused)
        #expect(error.refusal == refusal)
        #expect(!error.isRetryable)
        #expect(RetryPolicy.default.disposition(for: error) == .stop(.notRetryable))
        #expect(RetryPolicy(retriesOtherTransportFailures: true).disposition(for: error) == .stop(.notRetryable))
        #expect(UpstreamOutcome(error) == .unjudged)
        #expect(UpstreamOutcome(Result<Int, Failure>.failure(error)) == .unjudged)
        #expect(!error.requiresReauthentication && !error.isTransport && !error.isCancelled)
        #expect(error.underlyingError as? UpstreamRefusal == refusal)
        #expect(error.rawCode == nil && error.flags == [] && error.outcome == nil && !error.isServerCode)
        #expect(error.errorCode == -8)
        #expect((error.errorUserInfo[NSUnderlyingErrorKey] as? NSError) != nil)
        #expect(ModuleRespError<UploadCode>(converting: error).refusal == refusal)
        #expect(Failure(adapting: refusal).refusal == refusal, "the one mapping gives the case for the bare refusal")
        #expect(Failure.transportFailed(underlying: POSIXError(.ECONNREFUSED)).refusal == nil)
    }

    @Test("retryAfter: the refusal's time in whole seconds, rounded up and at least one; nil without one")
    func retryAfter() {
        #expect(Failure.refused(Self.refusals[0]).retryAfter == .seconds(4))
        #expect(Failure.refused(Self.refusals[1]).retryAfter == .seconds(5))
        #expect(Failure.refused(Self.refusals[2]).retryAfter == nil)
        #expect(Failure.refused(Self.refusals[3]).retryAfter == .seconds(1))
        #expect(Failure.refused(UpstreamRefusal(reason: .circuitOpen, retryAfter: .zero)).retryAfter == .seconds(1))
        #expect(Failure.refused(Self.refusals[0]).refusal?.retryAfter == .milliseconds(3_200), "the exact time")
        #expect(
            Failure.unacceptableStatus(HTTPStatusError(statusCode: 503, retryAfter: .seconds(7))).retryAfter
                == .seconds(7))
    }

    @Test(
        "the presentation offers Try Again and Cancel, and says to try again later, in both languages",
        arguments: refusals)
    func presentation(refusal: UpstreamRefusal) {
        let error = Failure.refused(refusal)
        #expect(error.suggestedRecovery == .tryAgain)
        let english = ErrorPresentation(error: error, language: .english)
        #expect(english.title == "The service is temporarily unavailable.")
        #expect(english.actions.map(\.title) == ["Try Again", "Cancel"])
        #expect(english.actions.map(\.role) == [.tryAgain, .cancel])
        #expect(english.message == refusal.reason(in: .english) + " Try again later.")
        let chinese = ErrorPresentation(error: error, language: .simplifiedChinese)
        #expect(chinese.title == "服务暂时不可用。")
        #expect(chinese.actions.map(\.title) == ["重试", "取消"])
        #expect(chinese.message == refusal.reason(in: .simplifiedChinese) + "请稍后重试。")
        #expect(error.recoverySuggestion(in: .english) == "Try again later.")
        #expect(error.localizedDescription == error.errorDescription)
        #expect(refusal.localizedDescription == refusal.errorDescription)
        // The bare refusal presents the same texts through LocalizedError.
        let bare = ErrorPresentation(error: refusal, language: .english)
        #expect(bare.title == "The service is temporarily unavailable.")
    }

    @Test("each reason has its own sentence, in both languages")
    func reasons() {
        let english = Self.refusals.map { $0.reason(in: .english) }
        #expect(
            english == [
                "Too many requests to the service failed, so sending to it is paused.",
                "The app is checking whether the service is back.",
                "Sending requests to the service has been stopped.",
                "The service has been failing, so fewer requests are sent to it.",
                "The service has been failing, so the request was not sent again.",
            ])
        let chinese = Self.refusals.map { $0.reason(in: .simplifiedChinese) }
        #expect(Set(chinese).count == 5)
        #expect(chinese.allSatisfy { $0.hasSuffix("。") })
        for refusal in Self.refusals {
            #expect(Failure.refused(refusal).failureReason(in: .english) == refusal.reason(in: .english))
            #expect(Failure.refused(refusal).errorDescription(in: .simplifiedChinese) == "服务暂时不可用。")
        }
    }

    @Test("the log description names the reason and the time")
    func descriptions() {
        #expect(
            Failure.refused(Self.refusals[0]).description
                == "refused by the upstream's protection: circuit_open (retry after 3.2 seconds)")
        #expect(
            Failure.refused(Self.refusals[2]).debugDescription
                == "ModuleRespError<StudyGroupCode>: refused by the upstream's protection: circuit_isolated")
    }

    @Test("a refusal thrown as it is, or carried as a transport failure, is unjudged and never retried")
    func thrownRefusal() {
        let refusal = Self.refusals[0]
        #expect(UpstreamOutcome(transportError: refusal) == .unjudged)
        let carried = Failure.transportFailed(underlying: refusal)
        #expect(UpstreamOutcome(carried) == .unjudged)
        #expect(RetryPolicy(retriesOtherTransportFailures: true).disposition(for: carried) == .stop(.notRetryable))
    }

    @Test("a Retrier never repeats an operation its upstream's protection refuses: one attempt, the typed case")
    func retrierStops() async {
        let attempts = Locked(0)
        let retrier = Retrier(
            for: StudyGroupCode.self, policy: RetryPolicy(maxAttempts: 5, initialBackoff: .zero), clock: ManualClock())
        do {
            _ = try await retrier.run { () async throws -> Int in
                attempts.withLock { $0 += 1 }
                throw Self.refusals[3]
            }
            Issue.record("expected a refusal")
        } catch {
            #expect(error.refusal == Self.refusals[3])
        }
        #expect(attempts.withLock { $0 } == 1)
    }
}
