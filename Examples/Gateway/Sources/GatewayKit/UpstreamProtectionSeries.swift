@_spi(Pipeline) import SwiftErr
import SwiftErrObservability
import Synchronization

/// The `/metrics` series of each upstream's protection (``SwiftErrObservability/UpstreamProtectionMetrics``),
/// made the first time the pipeline tells about the upstream and labelled with its
/// `Upstream.description` as the protections' keying names it (`127.0.0.1:8081`): the one place the
/// `upstream` label comes from.
final class UpstreamProtectionSeries: Sendable {
    private let make: @Sendable (String) -> UpstreamProtectionMetrics
    private let series = Mutex<[SwiftErr.Upstream: UpstreamProtectionMetrics]>([:])

    /// Creates the series, none made yet.
    /// - Parameter make: Makes the series of an upstream, given its label.
    init(make: @escaping @Sendable (String) -> UpstreamProtectionMetrics) {
        self.make = make
    }

    /// The series of an upstream, made on first use (its circuit shown closed).
    /// - Parameter upstream: The upstream.
    /// - Returns: Its series.
    func series(for upstream: SwiftErr.Upstream) -> UpstreamProtectionMetrics {
        series.withLock { series in
            if let known = series[upstream] { return known }
            let made = make(upstream.description)
            series[upstream] = made
            return made
        }
    }

    /// Counts what the pipeline says the upstream's protection decided.
    /// - Parameter event: The decision.
    func record(_ event: PipelineProtectionEvent) {
        let metrics = series(for: event.upstream)
        switch event.kind {
        case .admitted(let permit): metrics.recordAttempt(permit)
        case .refused(let refusal): metrics.record(refusal)
        case .transition(let transition): metrics.record(transition)
        }
    }
}
