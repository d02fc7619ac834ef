/// Leave to send one attempt to an upstream, from ``UpstreamProtection/admit(isRetry:)``: hand it
/// back with the attempt's outcome to ``UpstreamProtection/record(_:for:)``, exactly once, even
/// when the attempt is cancelled (``UpstreamOutcome/unjudged``), or the attempt stays counted as
/// in flight.
public struct UpstreamPermit: Sendable, Hashable {
    /// Whether the attempt is a retry (it counts against the retry budget's ceiling).
    public let isRetry: Bool
    /// Whether the attempt is a half-open circuit's probe.
    public let isProbe: Bool
    /// The change of the circuit's state that admitting the attempt made (`open → half_open` for
    /// the first probe after a break), or `nil`.
    public let transition: CircuitTransition?
    /// Whether the attempt is the adaptive throttle's probe: the one request per
    /// ``AdaptiveThrottle/probeInterval`` that passes while it sheds, whose acceptance ends the
    /// shedding.
    public let isThrottleProbe: Bool
    /// The circuit's generation when the attempt was admitted.
    let generation: UInt64
    /// The throttle's epoch when the attempt was admitted.
    let throttleEpoch: UInt64
    /// The retry budget's epoch when the attempt was admitted.
    let budgetEpoch: UInt64
}
