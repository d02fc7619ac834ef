/// The state of a ``CircuitBreaker``.
public enum CircuitState: String, Sendable, Hashable, CaseIterable {
    /// Requests pass; outcomes are counted in the sampling window.
    case closed
    /// Requests are refused at once, until the break is over.
    case open
    /// The break is over: a few probe requests pass; their outcomes close or reopen the circuit.
    case halfOpen = "half_open"
    /// Opened by hand (``UpstreamProtection/isolate()``): every request is refused until
    /// ``UpstreamProtection/reset()``.
    case isolated
}

/// A change of a circuit's state.
public struct CircuitTransition: Sendable, Hashable, CustomStringConvertible {
    /// The state before.
    public let from: CircuitState
    /// The state after.
    public let to: CircuitState

    /// Creates a transition.
    /// - Parameters:
    ///   - from: The state before.
    ///   - to: The state after.
    public init(from: CircuitState, to: CircuitState) {
        self.from = from
        self.to = to
    }

    /// `closed → open`.
    public var description: String { "\(from.rawValue) → \(to.rawValue)" }
}
