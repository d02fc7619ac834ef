import Metrics
import SwiftErr

/// swift-metrics series of one upstream's ``SwiftErr/UpstreamProtection``: its circuit's state and
/// changes of state, the requests it shed, the retries its budget refused, and the retries sent.
///
/// <!-- listing: context=server,observability -->
/// ```swift
/// let metrics = UpstreamProtectionMetrics(upstream: "orders", factory: prometheus)
/// do {
///     let permit = try protection.admit(isRetry: attempt > 1)
///     metrics.recordAttempt(permit)
///     let outcome = await callUpstream()   // the attempt, judged by UpstreamOutcome
///     if let transition = protection.record(outcome, for: permit) { metrics.record(transition) }
/// } catch {
///     metrics.record(error)       // shed, or a retry the budget refused
/// }
/// ```
///
/// With the default prefix `swifterr`, and `upstream` the name given (one per upstream the
/// service calls, so bounded by its configuration, never by what a request carries):
/// - `swifterr_circuit_state{upstream, state}`: a gauge per state (`closed`, `open`, `half_open`,
///   `isolated`), 1 for the current one and 0 for the others;
/// - `swifterr_circuit_transitions_total{upstream, from, to}`: changes of state;
/// - `swifterr_shed_requests_total{upstream, reason}`: requests refused by the breaker or the
///   throttle (`circuit_open`, `circuit_half_open`, `circuit_isolated`, `throttled`);
/// - `swifterr_retry_budget_exhausted_total{upstream}`: retries the budget refused;
/// - `swifterr_retries_total{upstream}`: retries sent.
///
/// Every series is made when the value is created, so recording is a dictionary lookup and the
/// backend's increment.
public struct UpstreamProtectionMetrics: Sendable {
    /// The upstream's name, the `upstream` label's value.
    public let upstream: String
    private let states: [CircuitState: Gauge]
    private let transitions: [CircuitTransition: Counter]
    private let shed: [UpstreamRefusal.Reason: Counter]
    private let exhausted: Counter
    private let retries: Counter

    /// Creates the series of one upstream, its circuit shown closed.
    /// - Parameters:
    ///   - upstream: The upstream's name (a host, or a name of your own).
    ///   - factory: The metrics backend (the one bootstrapped in `MetricsSystem` by default).
    ///   - prefix: The prefix of every metric name (`swifterr`).
    public init(upstream: String, factory: any MetricsFactory = MetricsSystem.factory, prefix: String = "swifterr") {
        self.upstream = upstream
        var states: [CircuitState: Gauge] = [:]
        var transitions: [CircuitTransition: Counter] = [:]
        for state in CircuitState.allCases {
            states[state] = Gauge(
                label: "\(prefix)_circuit_state", dimensions: [("upstream", upstream), ("state", state.rawValue)],
                factory: factory)
            for next in CircuitState.allCases where next != state {
                transitions[CircuitTransition(from: state, to: next)] = Counter(
                    label: "\(prefix)_circuit_transitions_total",
                    dimensions: [("upstream", upstream), ("from", state.rawValue), ("to", next.rawValue)],
                    factory: factory)
            }
        }
        var shed: [UpstreamRefusal.Reason: Counter] = [:]
        for reason in UpstreamRefusal.Reason.allCases where reason != .retryBudgetExhausted {
            shed[reason] = Counter(
                label: "\(prefix)_shed_requests_total",
                dimensions: [("upstream", upstream), ("reason", reason.rawValue)],
                factory: factory)
        }
        self.states = states
        self.transitions = transitions
        self.shed = shed
        exhausted = Counter(
            label: "\(prefix)_retry_budget_exhausted_total", dimensions: [("upstream", upstream)], factory: factory)
        retries = Counter(label: "\(prefix)_retries_total", dimensions: [("upstream", upstream)], factory: factory)
        show(.closed)
    }

    /// Counts a change of the circuit's state and shows the new state.
    /// - Parameter transition: The change.
    public func record(_ transition: CircuitTransition) {
        transitions[transition]?.increment()
        show(transition.to)
    }

    /// Counts a refusal: a shed request by its reason, or a retry the budget refused.
    /// - Parameter refusal: The refusal.
    public func record(_ refusal: UpstreamRefusal) {
        if refusal.reason == .retryBudgetExhausted {
            exhausted.increment()
        } else {
            shed[refusal.reason]?.increment()
        }
    }

    /// Counts an admitted attempt: a retry is counted in `swifterr_retries_total`, and a change of
    /// state the admission made (open → half-open) is recorded.
    /// - Parameter permit: The attempt's permit.
    public func recordAttempt(_ permit: UpstreamPermit) {
        if permit.isRetry { retries.increment() }
        if let transition = permit.transition { record(transition) }
    }

    /// Shows `state` as the circuit's current state.
    /// - Parameter state: The state.
    public func show(_ state: CircuitState) {
        for (each, gauge) in states { gauge.record(each == state ? 1 : 0) }
    }
}
