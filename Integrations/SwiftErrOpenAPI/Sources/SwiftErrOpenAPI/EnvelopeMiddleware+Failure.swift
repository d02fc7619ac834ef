import Foundation
import HTTPTypes
import OpenAPIRuntime
@_spi(Pipeline) import SwiftErr

extension EnvelopeMiddleware {
    /// A failed attempt of an intercepted request, as SwiftErr's pipeline judges it: the module's
    /// error, which the retry policy reads, and what the middleware hands back if the failure ends the
    /// request.
    struct Failure: Error {
        /// The failure in the module's terms, judged by the retry policy; thrown when neither
        /// ``thrown`` nor ``response`` is set.
        var error: ModuleRespError<Code>
        /// The error the layers below threw (or the middleware's time limit, or the task's
        /// cancellation), thrown as it is.
        var thrown: (any Error)?
        /// The response passed on, for a status the decoder does not accept: the generated client
        /// handles documented statuses itself.
        var response: (HTTPResponse, HTTPBody?)?

        /// What the middleware returns for this failure, or throws.
        func end() throws -> (HTTPResponse, HTTPBody?) {
            if let response { return response }
            throw thrown ?? error
        }
    }

    /// The pipeline's rules for ``Failure``: the module's rules (``SwiftErr/RetryPolicy`` through
    /// `PipelineFailures.module`) applied to ``Failure/error``, with the error the layers below threw
    /// kept to be thrown unchanged.
    func failures() -> PipelineFailures<Failure> {
        let module = PipelineFailures<ModuleRespError<Code>>.module(Code.self, policy: policy)
        return PipelineFailures(
            make: { (stop: PipelineStop) -> Failure in
                switch stop {
                case .transport(let error):
                    return Failure(error: module.make(stop), thrown: error)
                case .cancelled:
                    return Failure(error: .cancelled, thrown: CancellationError())
                case .reauthenticationFailed(let failure):
                    // The answer refused after the refresh is kept as the module's error, as a
                    // ResponseClient keeps it.
                    let underlying = (failure.underlyingError as? Failure)?.error ?? failure.underlyingError
                    let kept = ReauthenticationError(reason: failure.reason, underlyingError: underlying)
                    return Failure(error: module.make(.reauthenticationFailed(kept)))
                case .refused, .stoppedByUser:
                    return Failure(error: module.make(stop))
                }
            },
            disposition: { (failure: Failure, thrown: (any Error)?) -> RetryDisposition in
                module.disposition(failure.error, thrown)
            },
            serverDelay: { (failure: Failure, thrown: (any Error)?, now: Date) -> Duration? in
                module.serverDelay(failure.error, thrown, now)
            })
    }
}
