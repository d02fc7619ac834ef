/// What an upstream's protection decided for a request of a ``RequestPipeline``: what a front end
/// counts (a gateway's `/metrics`, with `SwiftErrObservability`'s `UpstreamProtectionMetrics`),
/// since the pipeline, not the front end, admits each send and records its outcome.
///
/// ```swift
/// @_spi(Pipeline) import SwiftErr
///
/// var pipeline = RequestPipeline(protections: try UpstreamProtections())
/// pipeline.protectionObserver = { event in
///     let label = event.upstream.description                  // the series' `upstream` label
///     switch event.kind {
///     case .admitted(let permit): print(label, permit.isRetry ? "retry admitted" : "send admitted")
///     case .refused(let refusal): print(label, "refused:", refusal.reason)
///     case .transition(let transition): print(label, "circuit:", transition)
///     }
/// }
/// ```
@_spi(Pipeline)
public struct PipelineProtectionEvent: Sendable {
    /// What was decided.
    public enum Kind: Sendable {
        /// A send was admitted: a first send, a retry (``UpstreamPermit/isRetry``) or the replay after
        /// a refresh; the permit carries the change of state admitting it made (open → half-open).
        case admitted(UpstreamPermit)
        /// A send was refused (the circuit, the throttle, or for a retry the budget), or a retry was
        /// not waited for because it would have been refused (``UpstreamRefusal/Reason/retryBudgetExhausted``,
        /// or the circuit's reason, with no time to wait).
        case refused(UpstreamRefusal)
        /// Recording a send's outcome changed the circuit's state.
        case transition(CircuitTransition)
    }

    /// The upstream, as the registry's ``UpstreamKeying`` names it: its ``Upstream/description`` is
    /// the label a metric gives it.
    public let upstream: Upstream
    /// What was decided.
    public let kind: Kind
}
