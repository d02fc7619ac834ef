import Foundation
import SwiftErr

/// What a simulated upstream does over time: a list of phases, each a ``Behaviour`` from its
/// start until the next phase starts.
///
/// <!-- listing: context=tests -->
/// ```swift
/// let script = UpstreamScript.outage(at: .seconds(60), lasting: .seconds(600))   // healthy, down, healthy
/// let flaky = UpstreamScript([(.zero, .failing(fraction: 0.5))])
/// ```
public struct UpstreamScript: Sendable {
    /// What the upstream does during a phase.
    public enum Behaviour: Sendable, Hashable {
        /// Answers 200 with the success envelope, `{"ret":0,"msg":"ok","data":{}}`.
        case healthy
        /// Refuses every connection at once (`URLError.cannotConnectToHost`).
        case down
        /// Answers 503 to this fraction of the requests (chosen by the simulation's seed), the
        /// success envelope to the others.
        case failing(fraction: Double)
        /// Answers 200 with this business code, `{"ret":CODE,"msg":"business answer"}`: the upstream
        /// is healthy and says no.
        case answering(code: Int64)
        /// Answers like ``healthy``, after this long instead of the script's latency.
        case slow(Duration)

        /// Whether the upstream fails requests in this phase (no answer, or 5xx).
        public var isFailing: Bool {
            switch self {
            case .down, .failing: return true
            case .healthy, .answering, .slow: return false
            }
        }
    }

    /// The phases, in order of their start (the first starts at zero).
    public let phases: [(start: Duration, behaviour: Behaviour)]
    /// How long the upstream takes to answer, outside ``Behaviour/slow(_:)`` phases (10 ms).
    public var latency: Duration

    /// Creates a script.
    /// - Parameters:
    ///   - phases: The phases; they are put in order of their start, and a phase starting at zero
    ///     is added (``Behaviour/healthy``) when none does.
    ///   - latency: How long the upstream takes to answer (10 ms).
    public init(_ phases: [(start: Duration, behaviour: Behaviour)], latency: Duration = .milliseconds(10)) {
        var sorted = phases.sorted { $0.start < $1.start }
        if sorted.first.map({ $0.start > .zero }) ?? true { sorted.insert((.zero, .healthy), at: 0) }
        self.phases = sorted
        self.latency = latency
    }

    /// Healthy, down from `start` for `duration`, then healthy again.
    /// - Parameters:
    ///   - start: When the outage starts.
    ///   - duration: How long it lasts.
    /// - Returns: The script.
    public static func outage(at start: Duration, lasting duration: Duration) -> UpstreamScript {
        UpstreamScript([(.zero, .healthy), (start, .down), (start + duration, .healthy)])
    }

    /// The index of the phase at `time`.
    /// - Parameter time: Time since the simulation started.
    /// - Returns: The phase's index in ``phases``.
    public func phase(at time: Duration) -> Int {
        // Indices rather than the (start, behaviour) tuples: a debug build looks tuple metadata up
        // for each, and a simulation asks for every request it answers.
        var index = 0
        var position = 1
        while position < phases.count, phases[position].start <= time {
            index = position
            position += 1
        }
        return index
    }

    /// The end of phase `index`: the next phase's start, or `nil` for the last.
    /// - Parameter index: A phase's index.
    /// - Returns: Its end.
    public func end(ofPhase index: Int) -> Duration? {
        index + 1 < phases.count ? phases[index + 1].start : nil
    }

    /// When the upstream last came back: the start of the first phase that does not fail after the
    /// last one that does, or `nil` when no phase fails or the last one does.
    public var lastRecovery: Duration? {
        guard let lastFailing = phases.lastIndex(where: { $0.behaviour.isFailing }),
            lastFailing + 1 < phases.count
        else { return nil }
        return phases[lastFailing + 1].start
    }
}
