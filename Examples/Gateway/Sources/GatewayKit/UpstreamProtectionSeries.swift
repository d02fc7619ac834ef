@_spi(Pipeline) import SwiftErr
import SwiftErrObservability
import Synchronization

/// The `/metrics` series of each upstream's protection (``SwiftErrObservability/UpstreamProtectionMetrics``),
/// labelled with the `Upstream` the protections are keyed by, as its `description` writes it
/// (`127.0.0.1:8081`): the one place the `upstream` label comes from. The configured upstream's are
/// made at once; any other's the first time the pipeline tells about it.
final class UpstreamProtectionSeries: Sendable {
    private let make: @Sendable (String) -> UpstreamProtectionMetrics
    /// The configured upstream and its series, made at once, found without the lock.
    private let configured: (upstream: SwiftErr.Upstream, series: UpstreamProtectionMetrics)?
    private let series = Mutex<[SwiftErr.Upstream: UpstreamProtectionMetrics]>([:])

    /// Creates the series, those of the configured upstream made at once (its circuit shown closed).
    /// - Parameters:
    ///   - configured: The configured upstream, or `nil`.
    ///   - make: Makes the series of an upstream, given its label.
    init(configured: SwiftErr.Upstream?, make: @escaping @Sendable (String) -> UpstreamProtectionMetrics) {
        self.make = make
        self.configured = configured.map { ($0, make($0.description)) }
    }

    /// The series of an upstream, made on first use (its circuit shown closed).
    /// - Parameter upstream: The upstream.
    /// - Returns: Its series.
    func series(for upstream: SwiftErr.Upstream) -> UpstreamProtectionMetrics {
        if let configured, configured.upstream == upstream { return configured.series }
        return series.withLock { series in
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
