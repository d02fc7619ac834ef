import Foundation
import NIOCore
import NIOHTTP1
@_spi(Pipeline) import SwiftErr
import SwiftErrObservability

extension Gateway {
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

        /// What the retry policy judges of a failed attempt.
        enum Cause: Sendable {
            /// A status the gateway does not classify (any but 2xx), with its `Retry-After`.
            case status(Int, RetryAfter?)
            /// No whole answer: the exchange's error.
            case transport(any Error)
            /// A 2xx answer whose code the request's catalog flags as a failure, with its flags.
            case code(Int64, CodeFlags)
        }

        /// What the client is answered with.
        let reply: Reply
        /// What the retry policy judges, or `nil` for a refusal or a cancellation (never retried).
        var cause: Cause? = nil
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
            return PipelineVerdict(
                result: .failure(ProxyFailure(reply: .upstream(attempt), cause: .status(status, retryAfter))),
                outcome: UpstreamOutcome(status: status), statusCode: status)
        }
        let observation = try? observer.observe(body: response.body.readableBytesView)
        if configuration.plantedClassificationCost > .zero { Self.burnCPU(configuration.plantedClassificationCost) }
        let observed = Attempt(answer: attempt.answer, observation: observation)
        let outcome = UpstreamOutcome(status: status, classification: observation?.classification)
        guard outcome.isFailure, let observation else {
            return PipelineVerdict(result: .success(observed), outcome: outcome, statusCode: status)
        }
        return PipelineVerdict(
            result: .failure(
                ProxyFailure(
                    reply: .upstream(observed), cause: .code(observation.code, observation.classification.flags))),
            outcome: outcome,
            statusCode: status, code: observation.code, flags: observation.classification.flags)
    }

    /// The pipeline's rules for ``ProxyFailure``: an exchange that threw is an attempt with no
    /// answer (counted as unclassified), and the configured ``GatewayConfiguration/retryPolicy``
    /// judges each cause by SwiftErr's one retry rule, without a module type: a status by
    /// ``SwiftErr/RetryPolicy/disposition(forStatus:)``, a transport failure by
    /// ``SwiftErr/RetryPolicy/disposition(forTransportError:)``, a code by its flags in the
    /// request's catalog (``SwiftErr/RetryPolicy/disposition(forCode:flags:)``), and `Retry-After`
    /// by ``SwiftErr/RetryPolicy/retryAfterDelay(forStatus:retryAfter:now:)``.
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
                        cause: .transport(error))
                case .transport(let error):
                    unclassified?[.noAnswer]?.increment()
                    return ProxyFailure(
                        reply: .upstream(Attempt(answer: .noAnswer(error), observation: nil)),
                        cause: .transport(error))
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
                switch failure.cause {
                case .status(let status, _): return policy.disposition(forStatus: status)
                case .transport(let error): return policy.disposition(forTransportError: error)
                case .code(let code, let flags): return policy.disposition(forCode: code, flags: flags)
                case nil: return .stop(.notRetryable)
                }
            },
            serverDelay: { (failure: ProxyFailure, _: (any Error)?, now: Date) -> Duration? in
                guard case .status(let status, let retryAfter) = failure.cause else { return nil }
                return policy.retryAfterDelay(forStatus: status, retryAfter: retryAfter, now: now)
            })
    }

    /// Spins until the calling thread has used `cost` more CPU time (its own CPU clock, so that a
    /// preempted thread still burns the whole amount): the planted cost of the load test's self-test.
    static func burnCPU(_ cost: Duration) {
        func threadCPUTime() -> Duration {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
        }
        let end = threadCPUTime() + cost
        while threadCPUTime() < end {}
    }
}
