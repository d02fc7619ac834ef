import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one rule for what a failure is: transport failures, timeouts, 5xx, 429 and codes flagged
/// retryable count; success, business answers, base codes and other 4xx do not; and the retry
/// policy never repeats what the rule does not call a failure.
@Suite("One rule for what a failure is")
struct UpstreamOutcomeTests {
    static let errors: [(ModuleRespError<SyncCode>, UpstreamOutcome)] = [
        (.module(.serverBusy), .failure(.retryableCode)),
        (.module(.busyButFatal), .answer),
        (.module(.accountFrozen), .answer),
        (.module(.quotaExceeded), .answer),
        (.module(.other(11_909_999)), .answer),
        (.base(.tokenExpire), .answer),
        (.base(.verifyCodeIncorrect), .answer),
        (.unexpectedCode(11_210_005), .answer),
        (.unexpectedCode(424_242), .answer),
        (.unacceptableStatus(500), .failure(.serverError)),
        (.unacceptableStatus(503), .failure(.serverError)),
        (.unacceptableStatus(599), .failure(.serverError)),
        (.unacceptableStatus(429), .failure(.tooManyRequests)),
        (.unacceptableStatus(408), .failure(.timeout)),
        (.unacceptableStatus(404), .answer),
        (.unacceptableStatus(409), .answer),
        (.unacceptableStatus(401), .answer),
        (.unacceptableStatus(304), .answer),
        (.transportFailed(underlying: POSIXError(.ECONNREFUSED)), .failure(.transport)),
        (.transportFailed(underlying: POSIXError(.ECONNRESET)), .failure(.transport)),
        (.transportFailed(underlying: POSIXError(.ETIMEDOUT)), .failure(.timeout)),
        (.transportFailed(underlying: URLError(.networkConnectionLost)), .failure(.transport)),
        (.transportFailed(underlying: URLError(.timedOut)), .failure(.timeout)),
        (.transportFailed(underlying: OpaqueFailure(tag: "x")), .failure(.transport)),
        (
            .transportFailed(underlying: RequestTimeoutError(limit: .attempt, duration: .seconds(1), attempt: 1)),
            .failure(.timeout)
        ),
        (
            .transportFailed(underlying: RequestTimeoutError(limit: .deadline, duration: .seconds(1), attempt: 2)),
            .failure(.timeout)
        ),
        (.transportFailed(underlying: ResponseBodyTooLargeError(limit: 10, contentLength: 20)), .answer),
        (.transportFailed(underlying: CancellationError()), .unjudged),
        (.transportFailed(underlying: URLError(.cancelled)), .unjudged),
        (.transportFailed(underlying: POSIXError(.ECANCELED)), .unjudged),
        (.invalidEnvelope(EnvelopeError(reason: .missingCode, offset: 0)), .answer),
        (.decodingFailed(underlying: OpaqueFailure(tag: "d")), .answer),
        (.reauthenticationFailed(ReauthenticationError(reason: .refusedAfterRefresh)), .answer),
        (
            .reauthenticationFailed(
                ReauthenticationError(reason: .refreshFailed, underlyingError: OpaqueFailure(tag: "r"))),
            .answer
        ),
        (.cancelled, .unjudged),
        (.stoppedByUser(UserStoppedError(attempts: 1, lastError: OpaqueFailure(tag: "s"))), .unjudged),
    ]

    @Test("each kind of error has its outcome", arguments: errors)
    func errorOutcomes(error: ModuleRespError<SyncCode>, expected: UpstreamOutcome) {
        #expect(UpstreamOutcome(error) == expected, "\(error)")
        #expect(UpstreamOutcome(Result<Int, ModuleRespError<SyncCode>>.failure(error)) == expected)
    }

    @Test("a payload is a success")
    func success() {
        #expect(UpstreamOutcome(Result<Int, ModuleRespError<SyncCode>>.success(1)) == .success)
    }

    @Test("the default policy repeats only failures, and every failure it does not repeat has a reason")
    func policyRepeatsOnlyFailures() {
        for (error, outcome) in Self.errors where RetryPolicy.default.disposition(for: error) == .retry {
            #expect(outcome.isFailure, "\(error) is retried but is not a failure by the rule")
        }
        // And the statuses the default policy repeats are all failures by the rule.
        for status in RetryPolicy.default.retryableStatusCodes {
            #expect(UpstreamOutcome(status: status).isFailure, "\(status)")
        }
    }

    @Test("a cancellation carried as a transport failure is never retried, even by a policy retrying other failures")
    func cancellationNotRetried() {
        let policy = RetryPolicy(retriesOtherTransportFailures: true)
        let error = ModuleRespError<SyncCode>.transportFailed(underlying: CancellationError())
        #expect(policy.disposition(for: error) == .stop(.notRetryable))
        #expect(!error.isRetryable)
    }

    @Test(
        "the gateway's form: a status and the envelope's classification",
        arguments: [
            (200, Int64(0), UpstreamOutcome.success),
            (200, 11_210_005, .answer),
            (200, 11_001, .answer),
            (200, 11_219_999, .answer),
            (200, 99_999_999, .answer),
            (201, 0, .success),
        ])
    func rawForm(status: Int, code: Int64, expected: UpstreamOutcome) {
        let classification = Catalog.builtIn.classify(code)
        #expect(UpstreamOutcome(status: status, classification: classification) == expected)
    }

    @Test("the gateway's form: a retryable code of a catalog is a failure; statuses decide without an envelope")
    func rawFormFlagsAndStatuses() throws {
        let catalog = try #require(SyncCode.catalog)
        let busy = catalog.classify(SyncCode.serverBusy.code)
        #expect(UpstreamOutcome(status: 200, classification: busy) == .failure(.retryableCode))
        #expect(UpstreamOutcome(status: 200, classification: catalog.classify(SyncCode.busyButFatal.code)) == .answer)
        #expect(UpstreamOutcome(status: 200, classification: nil) == .answer)
        #expect(UpstreamOutcome(status: 503, classification: busy) == .failure(.serverError))
        #expect(UpstreamOutcome(status: 429, classification: nil) == .failure(.tooManyRequests))
        #expect(UpstreamOutcome(status: 404, classification: nil) == .answer)
        #expect(UpstreamOutcome(status: 700) == .failure(.serverError))
        #expect(UpstreamOutcome(status: 99) == .failure(.serverError))
        #expect(UpstreamOutcome(status: 101) == .answer)
    }
}
