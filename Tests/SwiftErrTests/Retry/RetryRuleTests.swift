import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One retryability rule: business answers of any module are final unless their catalog flags say
/// retryable, `isRetryable` and `RetryPolicy` agree, and the retrier throws one typed error.
@Suite("One retryability rule", .timeLimit(.minutes(1)))
struct RetryRuleTests {
    /// Retries at once: no test here should wait.
    static let quick = RetryPolicy(maxAttempts: 3, initialBackoff: .zero, jitter: .none)

    @Test("a study-group answer to an upload retry is thrown once as an unexpected code, not a transport failure")
    func businessAnswerOfAnotherModule() async {
        let attempts = Locked(0)
        do {
            _ = try await retry(UploadCode.self, policy: Self.quick) {
                attempts.withLock { $0 += 1 }
                return try ResponseDecoder().decode(
                    ClassItemModel.self, module: StudyGroupCode.self, from: Fixtures.wrongTeamCode)
            }
            Issue.record("expected a failure")
        } catch .unexpectedCode(let raw) {
            #expect(raw == 11_210_005)
        } catch {
            Issue.record("expected .unexpectedCode, got \(error)")
        }
        #expect(attempts.withLock { $0 } == 1)
    }

    @Test(
        "every business answer, of any module, is sent once unless its catalog flags say retryable",
        arguments: [
            (ModuleRespError<StudyGroupCode>.base(.tokenExpire) as any Error, 1),
            (ModuleRespError<TagCode>.module(.alreadyExistsTagName), 1),
            (ModuleRespError<StudyGroupCode>.unexpectedCode(424_242), 1),
            (ModuleRespError<SyncCode>.module(.quotaExceeded), 1),
            (ModuleRespError<SyncCode>.module(.accountFrozen), 1),
            (ModuleRespError<SyncCode>.module(.serverBusy), 3),
        ])
    func businessAnswers(answer: any Error, expectedAttempts: Int) async {
        let attempts = Locked(0)
        do {
            _ = try await retry(UploadCode.self, policy: Self.quick) { () throws -> Int in
                attempts.withLock { $0 += 1 }
                throw answer
            }
        } catch {
            #expect(error.isServerCode, "\(error)")
            #expect(!error.isTransport, "\(error)")
        }
        #expect(attempts.withLock { $0 } == expectedAttempts, "\(answer)")
    }

    static let transportFailures: [any Error] = [
        URLError(.timedOut), URLError(.networkConnectionLost), URLError(.badURL), URLError(.callIsActive),
        URLError(.cancelled), POSIXError(.ECONNRESET), POSIXError(.EACCES), POSIXError(.ECANCELED),
        OpaqueFailure(tag: "?"), NSError(domain: NSPOSIXErrorDomain, code: 99_999),
        RequestTimeoutError(limit: .attempt, duration: .seconds(1), attempt: 1),
        RequestTimeoutError(limit: .deadline, duration: .seconds(1), attempt: 2),
        ResponseBodyTooLargeError(limit: 1024, contentLength: 4096),
    ]

    @Test("isRetryable and RetryPolicy.default agree on every transport failure", arguments: transportFailures)
    func transportRuleAgrees(underlying: any Error) {
        for error in [
            ModuleRespError<UploadCode>.transportFailed(underlying: underlying), ModuleRespError(adapting: underlying),
        ] {
            #expect(error.isRetryable == (RetryPolicy.default.disposition(for: error) == .retry), "\(error)")
        }
    }

    @Test("an attempt that ran out of time is retried; a request that reached its deadline is not")
    func timeouts() {
        let attempt = ModuleRespError<UploadCode>.transportFailed(
            underlying: RequestTimeoutError(limit: .attempt, duration: .seconds(1), attempt: 1))
        let deadline = ModuleRespError<UploadCode>.transportFailed(
            underlying: RequestTimeoutError(limit: .deadline, duration: .seconds(1), attempt: 1))
        #expect(attempt.isRetryable)
        #expect(!deadline.isRetryable)
        #expect(!RetryPolicy.plainExponential.disposition(for: deadline).isRetry)
    }

    @Test("a body over a reader's limit is final under every policy, even one retrying other transport failures")
    func bodyTooLarge() {
        for tooLarge in [
            ResponseBodyTooLargeError(limit: 1024, contentLength: 4096),
            ResponseBodyTooLargeError(limit: 1024, received: 1500),
        ] {
            let error = ModuleRespError<UploadCode>.transportFailed(underlying: tooLarge)
            #expect(!error.isRetryable)
            #expect(RetryPolicy(retriesOtherTransportFailures: true).disposition(for: error) == .stop(.notRetryable))
            #expect(!RetryPolicy.plainExponential.disposition(for: error).isRetry)
        }
        #expect(
            ResponseBodyTooLargeError(limit: 1024, contentLength: 4096).description
                == "response body of 4096 bytes (Content-Length) exceeds the limit of 1024 bytes")
        #expect(
            ResponseBodyTooLargeError(limit: 1024, received: 1500).description
                == "response body exceeds the limit of 1024 bytes (1500 bytes received)")
    }

    @Test("the retrier throws one typed error: a single catch matches cases, the stop and cancellation")
    func typedThrows() async {
        let clock = ManualClock()
        let retrier = Retrier(for: StudyGroupCode.self, policy: .never, clock: clock)
        do {
            _ = try await retrier.run { () throws -> Int in
                throw ModuleRespError<StudyGroupCode>.module(.wrongTeamCode)
            }
            Issue.record("expected a failure")
        } catch .module(.wrongTeamCode) {
            // Matched by case: the thrown type is ModuleRespError<StudyGroupCode>.
        } catch {
            let typed: ModuleRespError<StudyGroupCode> = error
            Issue.record("expected .module(.wrongTeamCode), got \(typed)")
        }
        let stopping = Retrier(for: StudyGroupCode.self, policy: Self.quick, clock: clock, decide: { _ in .stop })
        do {
            _ = try await stopping.run { () throws -> Int in throw URLError(.timedOut) }
            Issue.record("expected a failure")
        } catch .stoppedByUser(let stop) {
            #expect(stop.attempts == 1)
            #expect(stop.lastError is ModuleRespError<StudyGroupCode>)
        } catch {
            Issue.record("expected .stoppedByUser, got \(error)")
        }
    }

    @Test("the retrier honours Retry-After from the typed error, not only from the thrown error")
    func retryAfterFromTypedError() async throws {
        let clock = ManualClock()
        let retrier = Retrier(
            for: StudyGroupCode.self, policy: RetryPolicy(initialBackoff: .seconds(30), jitter: .none), clock: clock)
        let operation = ScriptedOperation([
            ModuleRespError<StudyGroupCode>.unacceptableStatus(
                HTTPStatusError(statusCode: 503, retryAfter: .seconds(4)))
        ])
        let task = Task { try await retrier.run { try operation() } }
        await clock.waitForSleepers(1)
        clock.advanceToNextDeadline()
        #expect(try await task.value == 2)
        #expect(clock.sleepRequests == [.seconds(4)])
    }

    @Test("no wait runs past the deadline: the failure that asked for it is thrown at once")
    func deadlineBeforeWait() async {
        let clock = ManualClock()
        let retrier = Retrier(
            for: StudyGroupCode.self, policy: RetryPolicy(initialBackoff: .seconds(5), jitter: .none), clock: clock)
        let operation = ScriptedOperation([HTTPStatusError(statusCode: 500), HTTPStatusError(statusCode: 500)])
        await #expect {
            try await retrier.run(deadline: clock.now.advanced(by: .seconds(2))) { try operation() }
        } throws: {
            ($0 as? ModuleRespError<StudyGroupCode>)?.statusCode == 500
        }
        #expect(operation.attempts == 1)
        #expect(clock.sleepRequests.isEmpty)
    }
}

extension RetryDisposition {
    var isRetry: Bool { self == .retry }
}
