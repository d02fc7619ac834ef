import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RetryPolicy's rules for a front end without a module type (a gateway): statuses, transport errors,
/// codes with their flags and `Retry-After`, each checked against what the policy's documentation
/// says, and against the module error's rule over the same inputs (one rule, not two).
@Suite("RetryPolicy without a module: statuses, transport errors, codes, Retry-After")
struct ModuleFreeRuleTests {
    /// A policy that changes every set the rules read.
    static let custom = RetryPolicy(
        retryableStatusCodes: [409, 503], endingStatusCodes: [503, 418], endingServerCodes: [11_210_005],
        retryableURLErrorCodes: [.timedOut], retryablePOSIXErrorCodes: [.ECONNRESET],
        retriesOtherTransportFailures: false, retryAfterStatusCodes: [409])

    /// What the documentation says of a status: an ending one ends the flow, a retryable one is
    /// retried, anything else is final.
    static func documented(_ policy: RetryPolicy, status: Int) -> RetryDisposition {
        if policy.endingStatusCodes.contains(status) { return .stop(.endsFlow) }
        return policy.retryableStatusCodes.contains(status) ? .retry : .stop(.notRetryable)
    }

    @Test(
        "every status from 0 to 999, under the default and a custom policy, as documented and as the module rule says")
    func statuses() {
        for policy in [RetryPolicy.default, Self.custom] {
            for status in 0...999 {
                let expected = Self.documented(policy, status: status)
                #expect(policy.disposition(forStatus: status) == expected, "\(status)")
                let error = ModuleRespError<StudyGroupCode>.unacceptableStatus(HTTPStatusError(statusCode: status))
                #expect(policy.disposition(for: error) == expected, "\(status)")
            }
        }
        let retried = (100...599).filter { RetryPolicy.default.disposition(forStatus: $0) == .retry }
        #expect(retried == [408, 429, 500, 502, 503, 504])
        #expect(Self.custom.disposition(forStatus: 503) == .stop(.endsFlow), "ending wins over retryable")
    }

    @Test("transport errors: the policy's sets, attempt limits, and what the one rule never repeats")
    func transportErrors() {
        let cases: [(any Error, RetryDisposition, RetryDisposition)] = [
            // (error, default policy, custom policy)
            (URLError(.timedOut), .retry, .retry),
            (URLError(.networkConnectionLost), .retry, .stop(.notRetryable)),
            (URLError(.badURL), .stop(.notRetryable), .stop(.notRetryable)),
            (URLError(.cancelled), .stop(.notRetryable), .stop(.notRetryable)),
            (POSIXError(.ECONNRESET), .retry, .retry),
            (POSIXError(.ECONNREFUSED), .retry, .stop(.notRetryable)),
            (POSIXError(.ECANCELED), .stop(.notRetryable), .stop(.notRetryable)),
            (RequestTimeoutError(limit: .attempt, duration: .seconds(1), attempt: 1), .retry, .retry),
            (
                RequestTimeoutError(limit: .deadline, duration: .seconds(1), attempt: 1), .stop(.notRetryable),
                .stop(.notRetryable)
            ),
            (ResponseBodyTooLargeError(limit: 1, contentLength: 2), .stop(.notRetryable), .stop(.notRetryable)),
            (CancellationError(), .stop(.notRetryable), .stop(.notRetryable)),
            (CocoaError(.fileReadUnknown), .retry, .stop(.notRetryable)),
        ]
        for (error, byDefault, byCustom) in cases {
            #expect(RetryPolicy.default.disposition(forTransportError: error) == byDefault, "\(error)")
            #expect(Self.custom.disposition(forTransportError: error) == byCustom, "\(error)")
            let wrapped = ModuleRespError<StudyGroupCode>.transportFailed(underlying: error)
            #expect(RetryPolicy.default.disposition(for: wrapped) == byDefault, "\(error)")
            #expect(Self.custom.disposition(for: wrapped) == byCustom, "\(error)")
        }
    }

    @Test("codes: fatal ends, an ending code ends, retryable (and not fatal) retries, anything else is final")
    func codes() {
        let flagSets: [CodeFlags] = [[], .retryable, .fatal, [.retryable, .fatal], .showUser, .reauthenticate]
        for flags in flagSets {
            for code in [Int64(11_210_005), 11_210_006, 11001] {
                for policy in [RetryPolicy.default, Self.custom] {
                    let expected: RetryDisposition
                    if flags.contains(.fatal) {
                        expected = .stop(.fatalCode)
                    } else if policy.endingServerCodes.contains(code) {
                        expected = .stop(.endsFlow)
                    } else {
                        expected = flags.contains(.retryable) ? .retry : .stop(.notRetryable)
                    }
                    #expect(policy.disposition(forCode: code, flags: flags) == expected, "\(code) \(flags)")
                }
            }
            #expect(
                Self.custom.disposition(forCode: nil, flags: flags)
                    == RetryPolicy.default.disposition(forCode: nil, flags: flags))
        }
        // The module rule reads the code's flags in its catalog: the built-in catalog flags none of
        // these retryable.
        for code in [StudyGroupCode.wrongTeamCode, .classNotFound] {
            let error = ModuleRespError<StudyGroupCode>.module(code)
            #expect(
                RetryPolicy.default.disposition(for: error)
                    == RetryPolicy.default.disposition(forCode: code.code, flags: error.flags))
            #expect(
                Self.custom.disposition(for: error) == Self.custom.disposition(forCode: code.code, flags: error.flags))
        }
        #expect(
            Self.custom.disposition(for: ModuleRespError<StudyGroupCode>.module(.wrongTeamCode)) == .stop(.endsFlow))
    }

    @Test("Retry-After: honoured only on the policy's statuses, seconds or a date, and as the module rule reads it")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let policy = RetryPolicy.default
        #expect(policy.retryAfterDelay(forStatus: 503, retryAfter: .seconds(7), now: now) == .seconds(7))
        #expect(policy.retryAfterDelay(forStatus: 429, retryAfter: .seconds(2), now: now) == .seconds(2))
        #expect(policy.retryAfterDelay(forStatus: 500, retryAfter: .seconds(7), now: now) == nil)
        #expect(policy.retryAfterDelay(forStatus: 503, retryAfter: nil, now: now) == nil)
        #expect(
            policy.retryAfterDelay(forStatus: 503, retryAfter: .date(now.addingTimeInterval(3)), now: now)
                == .seconds(3))
        #expect(
            policy.retryAfterDelay(forStatus: 503, retryAfter: .date(now.addingTimeInterval(-3)), now: now) == .zero)
        #expect(Self.custom.retryAfterDelay(forStatus: 409, retryAfter: .seconds(4), now: now) == .seconds(4))
        #expect(Self.custom.retryAfterDelay(forStatus: 503, retryAfter: .seconds(4), now: now) == nil)
        for status in [408, 409, 429, 500, 503] {
            for answer in [RetryAfter?.none, .seconds(5)] {
                let error = ModuleRespError<StudyGroupCode>.unacceptableStatus(
                    HTTPStatusError(statusCode: status, retryAfter: answer))
                for policy in [RetryPolicy.default, Self.custom] {
                    #expect(
                        policy.retryAfterDelay(for: error, now: now)
                            == policy.retryAfterDelay(forStatus: status, retryAfter: answer, now: now))
                }
            }
        }
    }
}
