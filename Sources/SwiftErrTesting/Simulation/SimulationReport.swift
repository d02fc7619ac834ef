import SwiftErr

/// What a ``PipelineSimulation`` run measured, in the terms a user states a guarantee in.
public struct SimulationReport: Sendable {
    /// One request: when it arrived, when it ended (`nil`: it never did), and how.
    public struct Request: Sendable, Hashable {
        /// When the caller sent it, since the simulation started.
        public var arrival: Duration
        /// When the caller got its outcome, or `nil` when it never did.
        public var end: Duration?
        /// Its outcome, or `nil` when it never ended.
        public var outcome: SimulatedOutcome?
    }

    /// The upstream's script.
    public let script: UpstreamScript
    /// Every request, in order of arrival.
    public let requests: [Request]
    /// How many requests reached the upstream in each phase of the script.
    public let receivedPerPhase: [Int]
    /// Token refreshes asked of the token service, and expiry periods that passed while requests
    /// were sent (0 without a token service).
    public let refreshes: Int
    /// See ``refreshes``.
    public let expiries: Int

    /// Requests whose caller never got an outcome: must be 0.
    public var unanswered: Int { requests.filter { $0.outcome == nil }.count }

    /// How many requests ended with `outcome`.
    /// - Parameter outcome: An outcome.
    /// - Returns: The count.
    public func count(_ outcome: SimulatedOutcome) -> Int {
        requests.filter { $0.outcome == outcome }.count
    }

    /// The time from the upstream's last return (``UpstreamScript/lastRecovery``) until the last
    /// request refused by a protection arrived: how long it took until every request was admitted
    /// again. Zero when none was refused after the return; `nil` when the upstream never came back.
    public var timeToFullAdmission: Duration? {
        guard let recovery = script.lastRecovery else { return nil }
        let lastRefused = requests.last { $0.outcome == .refused && $0.arrival >= recovery }
        return lastRefused.map { $0.arrival - recovery } ?? .zero
    }

    /// Requests that reached the upstream while it was ``UpstreamScript/Behaviour/down``.
    public var sentToDownUpstream: Int {
        script.phases.indices.filter { script.phases[$0].behaviour == .down }.reduce(0) { $0 + receivedPerPhase[$1] }
    }

    /// Requests sent to the upstream per request of the callers, over the phases whose behaviour is
    /// `behaviour` (requests counted by arrival); `nil` when no request arrived in them.
    /// - Parameter behaviour: A phase's behaviour.
    /// - Returns: The ratio.
    public func amplification(during behaviour: UpstreamScript.Behaviour) -> Double? {
        var sent = 0
        var asked = 0
        for index in script.phases.indices where script.phases[index].behaviour == behaviour {
            sent += receivedPerPhase[index]
            let start = script.phases[index].start
            let end = script.end(ofPhase: index)
            asked +=
                requests.filter { request in
                    request.arrival >= start && (end.map { request.arrival < $0 } ?? true)
                }.count
        }
        return asked == 0 ? nil : Double(sent) / Double(asked)
    }

    /// Requests refused by a protection that arrived while the upstream was healthy and answering
    /// (``UpstreamScript/Behaviour/answering(code:)``, ``UpstreamScript/Behaviour/healthy``,
    /// ``UpstreamScript/Behaviour/slow(_:)``) and had been for `settled` (so that the refusals
    /// right after a return, which ``timeToFullAdmission`` measures, are not counted): business
    /// answers must never open a circuit or make the throttle shed.
    /// - Parameter settled: How long a phase must have run before its refusals count.
    /// - Returns: The count.
    public func refusedWhileAnswering(after settled: Duration = .zero) -> Int {
        requests.filter { request in
            guard request.outcome == .refused else { return false }
            let index = script.phase(at: request.arrival)
            return !script.phases[index].behaviour.isFailing && request.arrival - script.phases[index].start >= settled
        }.count
    }

    /// Token refreshes per expiry period that passed (`nil` without expiries).
    public var refreshesPerExpiry: Double? {
        expiries == 0 ? nil : Double(refreshes) / Double(expiries)
    }
}
