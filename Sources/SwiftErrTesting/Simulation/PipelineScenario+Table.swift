import Foundation
import SwiftErr

extension PipelineScenario.Result {
    /// The run as a row of ``PipelineScenario/table(_:)``.
    public var row: String {
        let report = self.report
        func seconds(_ duration: Duration?) -> String {
            guard let duration else { return "–" }
            return String(format: "%.2f s", duration / .seconds(1))
        }
        let failing = scenario.script.phases.map(\.behaviour).first { $0.isFailing && $0 != .down }
        let amplification = failing.flatMap { report.amplification(during: $0) }.map { String(format: "%.3f", $0) }
        let down = scenario.script.phases.contains { $0.behaviour == .down }
        let cells = [
            scenario.name,
            "\(report.requests.count)",
            "\(report.unanswered)",
            seconds(report.timeToFullAdmission),
            down ? "\(report.sentToDownUpstream)" : "–",
            amplification ?? "–",
            "\(report.refusedWhileAnswering(after: PipelineScenario.defaultRecoveryBound))",
            report.refreshesPerExpiry.map { String(format: "%.2f", $0) } ?? "–",
            failures.isEmpty ? "holds" : "FAILS: " + failures.joined(separator: "; "),
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }
}

extension PipelineScenario {
    /// The results of runs as a Markdown table: per scenario, the requests sent, those never
    /// answered, the time from the upstream's return until every request was admitted, the
    /// requests that reached the upstream while it was down, the upstream's requests per request
    /// while it failed part of them, the requests refused while it answered (once a phase had run
    /// for ``defaultRecoveryBound``), the token refreshes per expiry, and whether every expectation
    /// held.
    /// - Parameter results: The runs.
    /// - Returns: The table, a line per run after the header.
    public static func table(_ results: [Result]) -> String {
        let header = [
            "| scenario | requests | unanswered | full admission after return | sent while down | upstream requests per request | refused while answering | refreshes per expiry | expectations |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        return (header + results.map(\.row)).joined(separator: "\n") + "\n"
    }
}
