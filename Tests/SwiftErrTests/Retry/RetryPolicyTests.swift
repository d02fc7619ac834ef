import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Retry policy: backoff and which failures are retried")
struct RetryPolicyTests {
    typealias Failure = ModuleRespError<SyncCode>

    @Test("exponential backoff without jitter doubles and stops at the cap")
    func exponentialWithCap() {
        let policy = RetryPolicy(
            initialBackoff: .milliseconds(500), multiplier: 2, maxBackoff: .seconds(4), jitter: .none)
        let delays = (1...7).map { policy.backoff(afterAttempt: $0, unitRandom: 0.9) }
        #expect(
            delays == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4), .seconds(4),
            ])
    }

    @Test("full and equal jitter use the injected random number", arguments: [0.0, 0.25, 0.5, 0.75])
    func jitter(u: Double) {
        var policy = RetryPolicy(initialBackoff: .seconds(8), maxBackoff: .seconds(60), jitter: .full)
        #expect(policy.backoff(afterAttempt: 1, unitRandom: u) == .milliseconds(Int64(8000 * u)))
        policy.jitter = .equal
        #expect(policy.backoff(afterAttempt: 1, unitRandom: u) == .milliseconds(Int64(4000 + 4000 * u)))
    }

    @Test("nonsense parameters are clamped, never trap")
    func clamps() {
        let policy = RetryPolicy(initialBackoff: .seconds(-3), multiplier: -2, maxBackoff: .seconds(10), jitter: .full)
        #expect(policy.backoff(afterAttempt: -5, unitRandom: .nan) == .zero)
        let huge = RetryPolicy(
            initialBackoff: .seconds(1), multiplier: 1e300, maxBackoff: .seconds(Int64.max), jitter: .equal)
        #expect(huge.backoff(afterAttempt: 1_000, unitRandom: 2) > .seconds(1_000_000_000))
        #expect(
            RetryPolicy(initialBackoff: .seconds(1), multiplier: 0.5, jitter: .none).backoff(
                afterAttempt: 4, unitRandom: 0) == .seconds(1))
    }

    @Test(
        "HTTP statuses: our defaults retry 408, 429, 500, 502, 503, 504 and nothing else",
        arguments: [400, 401, 404, 408, 409, 429, 500, 501, 502, 503, 504, 505, 599])
    func statuses(status: Int) {
        let expected: RetryDisposition =
            [408, 429, 500, 502, 503, 504].contains(status) ? .retry : .stop(.notRetryable)
        #expect(RetryPolicy.default.disposition(for: Failure.unacceptableStatus(status)) == expected)
    }

    @Test("an ending status (503) ends the flow even though it is retryable")
    func endingStatus() {
        let policy = RetryPolicy(endingStatusCodes: [503])
        #expect(policy.disposition(for: Failure.unacceptableStatus(503)) == .stop(.endsFlow))
        #expect(policy.disposition(for: Failure.unacceptableStatus(502)) == .retry)
    }

    @Test("server codes: catalog flags decide, fatal wins over retryable, ending codes are configurable")
    func serverCodes() {
        let policy = RetryPolicy.default
        #expect(policy.disposition(for: Failure.module(.serverBusy)) == .retry)
        #expect(policy.disposition(for: Failure.module(.accountFrozen)) == .stop(.fatalCode))
        #expect(policy.disposition(for: Failure.module(.busyButFatal)) == .stop(.fatalCode))
        #expect(policy.disposition(for: Failure.module(.quotaExceeded)) == .stop(.notRetryable))
        #expect(policy.disposition(for: Failure.base(.tokenExpire)) == .stop(.notRetryable))
        #expect(policy.disposition(for: Failure.unexpectedCode(424242)) == .stop(.notRetryable))
        let ending = RetryPolicy(endingServerCodes: [11900001, 424242])
        #expect(ending.disposition(for: Failure.module(.serverBusy)) == .stop(.endsFlow))
        #expect(ending.disposition(for: Failure.unexpectedCode(424242)) == .stop(.endsFlow))
    }

    @Test("transport failures: the 11 default URLError codes, the 18 extended ones, POSIX codes, other errors")
    func transport() {
        #expect(RetryPolicy.extendedTransientURLErrorCodes.count == 18)
        #expect(RetryPolicy.transientURLErrorCodes.count == 11)
        #expect(RetryPolicy.transientURLErrorCodes.isSubset(of: RetryPolicy.extendedTransientURLErrorCodes))
        let ours = RetryPolicy.default
        let plain = RetryPolicy.plainExponential
        for code in RetryPolicy.extendedTransientURLErrorCodes {
            let failure = Failure.transportFailed(underlying: URLError(code))
            #expect(plain.disposition(for: failure) == .retry)
            let expected: RetryDisposition =
                RetryPolicy.transientURLErrorCodes.contains(code) ? .retry : .stop(.notRetryable)
            #expect(ours.disposition(for: failure) == expected, "URLError \(code.rawValue)")
        }
        #expect(ours.disposition(for: Failure.transportFailed(underlying: URLError(.badURL))) == .stop(.notRetryable))
        #expect(ours.disposition(for: Failure.transportFailed(underlying: POSIXError(.ECONNRESET))) == .retry)
        #expect(ours.disposition(for: Failure.transportFailed(underlying: POSIXError(.EACCES))) == .stop(.notRetryable))
        #expect(ours.disposition(for: Failure.transportFailed(underlying: OpaqueFailure(tag: "?"))) == .retry)
        #expect(
            plain.disposition(for: Failure.transportFailed(underlying: OpaqueFailure(tag: "?")))
                == .stop(.notRetryable))
    }

    @Test("plain exponential statuses are 408, 500, 502, 503, 504 (no 429)")
    func plainExponentialStatuses() {
        let retried = (400...599).filter {
            RetryPolicy.plainExponential.disposition(for: Failure.unacceptableStatus($0)) == .retry
        }
        #expect(retried == [408, 500, 502, 503, 504])
    }

    @Test("the deprecated names are the renamed values: alamofireCompatible, alamofireURLErrorCodes")
    func deprecatedAliases() {
        // Read through a protocol whose requirements RetryPolicy's deprecated members witness, so
        // the test checks the aliases without a deprecation warning.
        func aliases<Policy: RenamedRetryPolicyMembers>(_: Policy.Type) -> (RetryPolicy, Set<URLError.Code>) {
            (Policy.alamofireCompatible, Policy.alamofireURLErrorCodes)
        }
        let (policy, codes) = aliases(RetryPolicy.self)
        #expect(policy == RetryPolicy.plainExponential)
        #expect(codes == RetryPolicy.extendedTransientURLErrorCodes)
    }

    @Test("cancellation, envelope, decoding and catalog failures are never retried")
    func neverRetried() {
        let policy = RetryPolicy.default
        #expect(policy.disposition(for: Failure.cancelled) == .stop(.cancelled))
        #expect(
            policy.disposition(for: Failure.decodingFailed(underlying: OpaqueFailure(tag: "d"))) == .stop(.notRetryable)
        )
        #expect(
            policy.disposition(for: Failure.invalidCatalog(CatalogError(status: .nullArgument, message: "x")))
                == .stop(.notRetryable))
    }

    @Test("Retry-After is honoured only on the configured statuses and only when the original error carries it")
    func retryAfterSelection() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let policy = RetryPolicy.default
        let with429 = HTTPStatusError(statusCode: 429, retryAfter: .seconds(9))
        #expect(
            policy.retryAfterDelay(for: Failure.unacceptableStatus(429), original: with429, now: now) == .seconds(9))
        let with500 = HTTPStatusError(statusCode: 500, retryAfter: .seconds(9))
        #expect(policy.retryAfterDelay(for: Failure.unacceptableStatus(500), original: with500, now: now) == nil)
        #expect(
            policy.retryAfterDelay(for: Failure.unacceptableStatus(503), original: OpaqueFailure(tag: "x"), now: now)
                == nil)
        let dated = HTTPStatusError(statusCode: 503, retryAfter: .date(now.addingTimeInterval(42)))
        #expect(policy.retryAfterDelay(for: Failure.unacceptableStatus(503), original: dated, now: now) == .seconds(42))
    }
}

/// The names ``RetryPolicy`` had before they said what they are.
private protocol RenamedRetryPolicyMembers {
    static var alamofireCompatible: RetryPolicy { get }
    static var alamofireURLErrorCodes: Set<URLError.Code> { get }
}

extension RetryPolicy: RenamedRetryPolicyMembers {}
