import Foundation
import SwiftErr

/// One situation a request pipeline must get through, with what a user expects of it: a row of
/// the scenario tables that ``PipelineScenario/defaults`` lists and every pipeline of this
/// repository passes (``ResponseClient``, the OpenAPI middleware, the gateway).
///
/// Run one against your own configuration with ``run(_:)``, giving it the pipeline to test built on
/// the simulation's clock and upstream:
///
/// <!-- listing: context=app,tests -->
/// ```swift
/// for scenario in PipelineScenario.defaults {
///     let result = try await scenario.run { simulation in
///         let client = ResponseClient(
///             transport: simulation.upstream,
///             protections: try simulation.protections(),
///             clock: simulation.pipelineClock)
///         return { SimulatedOutcome(await client.result($0, returning: NoData.self, module: StudyGroupCode.self)) }
///     }
///     #expect(result.failures.isEmpty, "\(scenario): \(result.failures)")
/// }
/// ```
public struct PipelineScenario: Sendable, CustomStringConvertible {
    /// What a user expects of a run.
    public enum Expectation: Sendable, Hashable, CustomStringConvertible {
        /// Every request gets an outcome: nothing hangs.
        case everyRequestAnswered
        /// After the upstream's last return, every request is admitted again within this long.
        case fullAdmission(within: Duration)
        /// While the upstream fails as this behaviour says, it gets at most this many requests per
        /// request of the callers.
        case amplification(during: UpstreamScript.Behaviour, atMost: Double)
        /// No request is refused by a protection while the upstream answers (business answers
        /// included), once a phase has run for this long.
        case noneRefusedWhileAnswering(after: Duration)
        /// At most this many token refreshes per expiry period.
        case refreshesPerExpiry(atMost: Double)
        /// No request fails because the session could not be renewed.
        case noReauthenticationFailure
        /// Requests arriving from this time on all succeed.
        case allSucceed(from: Duration)

        /// The expectation in words, for a table.
        public var description: String {
            switch self {
            case .everyRequestAnswered: return "every request answered"
            case .fullAdmission(let within): return "full admission within \(Self.seconds(within))"
            case .amplification(let behaviour, let most):
                return "≤ \(most) upstream requests per request while \(behaviour)"
            case .noneRefusedWhileAnswering(let after):
                return "none refused while answering (after \(Self.seconds(after)))"
            case .refreshesPerExpiry(let most): return "≤ \(most) refresh per expiry"
            case .noReauthenticationFailure: return "no sign-in lost"
            case .allSucceed(let from): return "all succeed from \(Self.seconds(from))"
            }
        }

        static func seconds(_ duration: Duration) -> String {
            let value = duration / .seconds(1)
            return value == value.rounded() ? "\(Int(value)) s" : String(format: "%.3f s", value)
        }
    }

    /// The scenario's name, e.g. `outage 60 s at 100/s`.
    public var name: String
    /// What the upstream does.
    public var script: UpstreamScript
    /// Requests per second.
    public var rate: Double
    /// How long requests are sent.
    public var duration: Duration
    /// How long tokens last, for a pipeline with a session (`nil`: no session).
    public var tokenExpiry: Duration?
    /// When token refreshes fail.
    public var refreshFailures: [Range<Duration>]
    /// What must hold.
    public var expectations: [Expectation]

    /// Creates a scenario.
    /// - Parameters:
    ///   - name: Its name.
    ///   - script: What the upstream does.
    ///   - rate: Requests per second.
    ///   - duration: How long requests are sent.
    ///   - tokenExpiry: How long tokens last (`nil`: no session).
    ///   - refreshFailures: When token refreshes fail.
    ///   - expectations: What must hold.
    public init(
        name: String, script: UpstreamScript, rate: Double, duration: Duration, tokenExpiry: Duration? = nil,
        refreshFailures: [Range<Duration>] = [], expectations: [Expectation]
    ) {
        self.name = name
        self.script = script
        self.rate = rate
        self.duration = duration
        self.tokenExpiry = tokenExpiry
        self.refreshFailures = refreshFailures
        self.expectations = expectations
    }

    /// The name.
    public var description: String { name }

    /// How many requests a run sends: the rate times the duration.
    public var requestCount: Int {
        Int((duration / (Duration.seconds(1) / max(rate, .leastNonzeroMagnitude))).rounded(.down))
    }

    /// What a run of a scenario found.
    public struct Result: Sendable {
        /// The scenario.
        public var scenario: PipelineScenario
        /// The report of the run.
        public var report: SimulationReport
        /// The expectations that did not hold, each with what was measured.
        public var failures: [String]
    }

    /// Runs the scenario against a pipeline.
    /// - Parameters:
    ///   - seed: The simulation's seed (1).
    ///   - pipeline: Builds the pipeline under test on the simulation's clock and upstream (and its
    ///     token service, for a scenario with tokens), and returns how a request is sent through it.
    /// - Returns: The report and the expectations that failed.
    /// - Throws: What `pipeline` throws.
    @available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public func run(
        seed: UInt64 = 1,
        _ pipeline: (PipelineSimulation) throws -> @Sendable (TransportRequest) async -> SimulatedOutcome
    ) async rethrows -> Result {
        let simulation = PipelineSimulation(
            script: script, tokenExpiry: tokenExpiry, refreshFailures: refreshFailures, seed: seed)
        let send = try pipeline(simulation)
        let report = await simulation.run(rate: rate, for: duration, send: send)
        return Result(scenario: self, report: report, failures: expectations.compactMap { check($0, report) })
    }

    /// What failed of an expectation, or `nil` when it held.
    private func check(_ expectation: Expectation, _ report: SimulationReport) -> String? {
        switch expectation {
        case .everyRequestAnswered:
            return report.unanswered == 0 ? nil : "\(report.unanswered) requests never answered"
        case .fullAdmission(let within):
            guard let time = report.timeToFullAdmission else { return "the upstream never came back" }
            return time <= within ? nil : "full admission after \(time), more than \(within)"
        case .amplification(let behaviour, let most):
            guard let ratio = report.amplification(during: behaviour) else { return "no request while \(behaviour)" }
            return ratio <= most ? nil : "\(ratio) upstream requests per request while \(behaviour), more than \(most)"
        case .noneRefusedWhileAnswering(let after):
            let refused = report.refusedWhileAnswering(after: after)
            return refused == 0 ? nil : "\(refused) requests refused while the upstream answered"
        case .refreshesPerExpiry(let most):
            guard let ratio = report.refreshesPerExpiry else { return "no token expired" }
            return ratio <= most ? nil : "\(ratio) refreshes per expiry, more than \(most)"
        case .noReauthenticationFailure:
            let lost = report.count(.reauthenticationFailed)
            return lost == 0 ? nil : "\(lost) requests lost their session"
        case .allSucceed(let from):
            let failed = report.requests.filter { $0.arrival >= from && $0.outcome != .success }.count
            return failed == 0 ? nil : "\(failed) requests from \(from) on did not succeed"
        }
    }
}
