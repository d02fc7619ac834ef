import Foundation
import NIOCore
import NIOHTTP1
@_spi(Pipeline) import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrObservability

extension Gateway {
    /// The module the retry policy's rule is applied under: `RetryPolicy` takes a failure as a
    /// `ModuleRespError<Code>`. The gateway gives it only statuses and transport failures, which the
    /// rule judges alike in every module (a code is judged by the flags of the gateway's own catalog,
    /// see ``failures()``), so any module of the built-in catalog serves.
    typealias RuleModule = SubjectCode

    /// What one upstream exchange got.
    enum UpstreamAnswer: Sendable {
        /// A whole response.
        case response(UpstreamResponse)
        /// A body over ``GatewayConfiguration/maxBodyBytes``.
        case tooLarge(ResponseBodyTooLargeError)
        /// No whole answer: refused, reset, closed, or out of time.
        case noAnswer(any Error)
    }

    /// One attempt: its answer and the observation of its envelope, what the client is answered
    /// with when the attempt ends the request.
    struct Attempt: Sendable {
        let answer: UpstreamAnswer
        let observation: ClassificationObserver.Observation?
    }

    /// An attempt the upstream failed (``SwiftErr/UpstreamOutcome``), or a request that ended before
    /// an answer: what the gateway passes on when the retry policy does not send it again.
    struct ProxyFailure: Error {
        /// What the client is answered with.
        enum Reply: Sendable {
            /// The attempt's answer, passed on (502 when there is none).
            case upstream(Attempt)
            /// 503 with `Retry-After`: the upstream's protection refused the request.
            case refused(UpstreamRefusal)
            /// Nothing: the request's task was cancelled.
            case cancelled
        }

        /// What the client is answered with.
        let reply: Reply
        /// The failure in the retry policy's terms: an unacceptable status (with its
        /// `Retry-After`), or a transport failure; `nil` for a code the request's catalog flags
        /// retryable (``code``), a refusal or a cancellation.
        var error: ModuleRespError<RuleModule>? = nil
        /// The code of a 2xx answer the request's catalog flags retryable, or `nil`.
        var code: Int64? = nil
    }

    /// Reads an upstream's answer with the request's catalog generation: counts it once (in the
    /// observer's series, or as unclassified), and judges it by the one rule. An answer the upstream
    /// failed (5xx, 429, 408, a code flagged retryable) is a ``ProxyFailure`` for the retry policy,
    /// and so is any status but 2xx (the policy's statuses decide; a 404 is not retried and is passed
    /// on); every other answer ends the request. With classification off, every answer is passed
    /// on, unread.
    func verdict(
        _ response: UpstreamResponse, with generation: GatewayCatalog.Generation
    ) -> PipelineVerdict<Attempt, ProxyFailure> {
        let attempt = Attempt(answer: .response(response), observation: nil)
        let status = response.status
        guard let observer = generation.observer else {
            return PipelineVerdict(result: .success(attempt), outcome: .unjudged, statusCode: status)
        }
        // SwiftErr reads the envelope of an accepted status only (2xx, as HTTPStatusValidator's
        // default): any other status is passed on as it came, and counted by its class.
        guard (200..<300).contains(status) else {
            unclassified?[UnclassifiedReason(status: status)]?.increment()
            let retryAfter = response.headers.first(name: "retry-after").flatMap(RetryAfter.init(headerValue:))
            let error = ModuleRespError<RuleModule>.unacceptableStatus(
                HTTPStatusError(statusCode: status, retryAfter: retryAfter))
            return PipelineVerdict(
                result: .failure(ProxyFailure(reply: .upstream(attempt), error: error)),
                outcome: UpstreamOutcome(status: status), statusCode: status)
        }
        let observation = try? observer.observe(body: response.body.readableBytesView)
        let observed = Attempt(answer: attempt.answer, observation: observation)
        let outcome = UpstreamOutcome(status: status, classification: observation?.classification)
        guard outcome.isFailure, let observation else {
            return PipelineVerdict(result: .success(observed), outcome: outcome, statusCode: status)
        }
        return PipelineVerdict(
            result: .failure(ProxyFailure(reply: .upstream(observed), code: observation.code)), outcome: outcome,
            statusCode: status, code: observation.code, flags: observation.classification.flags)
    }

    /// The pipeline's rules for ``ProxyFailure``: an exchange that threw is an attempt with no
    /// answer (counted as unclassified), and the configured ``GatewayConfiguration/retryPolicy``
    /// judges statuses and transport failures by its sets (``SwiftErr/RetryPolicy/disposition(for:)``),
    /// a code the catalog flags retryable as retryable unless the policy ends on it, and honours
    /// `Retry-After` on its statuses.
    func failures() -> PipelineFailures<ProxyFailure> {
        let policy = pipeline.policy
        let unclassified = self.unclassified
        return PipelineFailures(
            make: { (stop: PipelineStop) -> ProxyFailure in
                switch stop {
                case .transport(let error as ResponseBodyTooLargeError):
                    unclassified?[.bodyTooLarge]?.increment()
                    return ProxyFailure(
                        reply: .upstream(Attempt(answer: .tooLarge(error), observation: nil)),
                        error: .transportFailed(underlying: error))
                case .transport(let error):
                    unclassified?[.noAnswer]?.increment()
                    return ProxyFailure(
                        reply: .upstream(Attempt(answer: .noAnswer(error), observation: nil)),
                        error: .transportFailed(underlying: error))
                case .refused(let refusal):
                    return ProxyFailure(reply: .refused(refusal))
                case .cancelled:
                    return ProxyFailure(reply: .cancelled)
                case .reauthenticationFailed(let error):
                    // The gateway has no session: this does not happen.
                    return ProxyFailure(reply: .upstream(Attempt(answer: .noAnswer(error), observation: nil)))
                case .stoppedByUser(let error):
                    // The gateway has no decision hook: this does not happen.
                    return ProxyFailure(reply: .upstream(Attempt(answer: .noAnswer(error), observation: nil)))
                }
            },
            disposition: { (failure: ProxyFailure, _: (any Error)?) -> RetryDisposition in
                if let error = failure.error { return policy.disposition(for: error) }
                if let code = failure.code {
                    return policy.endingServerCodes.contains(code) ? .stop(.endsFlow) : .retry
                }
                return .stop(.notRetryable)
            },
            serverDelay: { (failure: ProxyFailure, thrown: (any Error)?, now: Date) -> Duration? in
                failure.error.flatMap { policy.retryAfterDelay(for: $0, original: thrown, now: now) }
            })
    }
}
