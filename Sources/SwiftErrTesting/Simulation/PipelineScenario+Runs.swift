import Foundation
import SwiftErr

@available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension PipelineScenario {
    /// Runs scenarios against a pipeline, `width` at a time (each simulation runs on one thread), the
    /// ones with the most requests first, and returns their results in the order of `scenarios`: one
    /// test body for every scenario of a table.
    ///
    /// <!-- listing: context=app,tests -->
    /// ```swift
    /// let results = try await PipelineScenario.run(PipelineScenario.withoutSession) { simulation in
    ///     let client = ResponseClient(
    ///         transport: simulation.upstream,
    ///         protections: try simulation.protections(),
    ///         clock: simulation.pipelineClock)
    ///     return { SimulatedOutcome(await client.result($0, returning: NoData.self, module: StudyGroupCode.self)) }
    /// }
    /// for result in results { #expect(result.failures.isEmpty, "\(result.scenario): \(result.failures)") }
    /// ```
    /// - Parameters:
    ///   - scenarios: The scenarios.
    ///   - seed: The seed of every simulation (1).
    ///   - width: How many run at once (2; values below 1 mean 1).
    ///   - pipeline: Builds the pipeline under test for one simulation (see ``run(seed:_:)``).
    /// - Returns: The results, in order.
    /// - Throws: What `pipeline` throws.
    public static func run(
        _ scenarios: [PipelineScenario], seed: UInt64 = 1, concurrently width: Int = 2,
        _ pipeline:
            @escaping @Sendable (PipelineSimulation) throws -> @Sendable (TransportRequest) async -> SimulatedOutcome
    ) async throws -> [Result] {
        // The scenarios with the most requests start first (longest processing time first), so that
        // the longest run is not the last to start while the other threads have nothing left to run.
        let order = scenarios.indices.sorted { first, second in
            let (a, b) = (scenarios[first].requestCount, scenarios[second].requestCount)
            return a != b ? a > b : first < second
        }
        return try await withThrowingTaskGroup(of: (Int, Result).self) { group in
            var results: [Result?] = Array(repeating: nil, count: scenarios.count)
            var next = 0
            func start() {
                guard next < order.count else { return }
                let index = order[next]
                next += 1
                group.addTask { (index, try await scenarios[index].run(seed: seed, pipeline)) }
            }
            for _ in 0..<max(1, width) { start() }
            while let (index, result) = try await group.next() {
                results[index] = result
                start()
            }
            return results.compactMap { $0 }
        }
    }

    /// Compares a scenario table of a Markdown document — the lines between
    /// `<!-- scenario table: NAME -->` and `<!-- end of scenario table -->` — with `table`, or
    /// writes `table` there instead.
    ///
    /// A test calls it with ``table(_:)`` of the results it measured, so that the document shows
    /// what the simulation measures, and with `update` set (from an environment variable, say) to
    /// rewrite the document after a deliberate change.
    /// - Parameters:
    ///   - name: The table's name in its opening marker.
    ///   - table: The table measured.
    ///   - document: The Markdown file.
    ///   - update: Whether to write `table` into the document instead of comparing.
    /// - Returns: `nil` when the document shows `table` (or was updated); otherwise the table the
    ///   document shows.
    /// - Throws: ``TableError`` when the document has no such table; the file system's error when it
    ///   cannot be read or written.
    public static func compareTable(
        _ name: String, _ table: String, inDocumentAt document: URL, update: Bool = false
    ) throws -> String? {
        let text = try String(contentsOf: document, encoding: .utf8)
        let begin = "<!-- scenario table: \(name) -->\n"
        let end = "<!-- end of scenario table -->"
        guard let start = text.range(of: begin) else {
            throw TableError(document: document.path, problem: "no line \"\(begin.dropLast())\"")
        }
        guard let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else {
            throw TableError(document: document.path, problem: "no \"\(end)\" after the \(name) table")
        }
        let shown = String(text[start.upperBound..<stop.lowerBound])
        if update {
            if shown != table {
                let updated = text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: table)
                try updated.write(to: document, atomically: true, encoding: .utf8)
            }
            return nil
        }
        return shown == table ? nil : shown
    }

    /// A document without the scenario table asked for.
    public struct TableError: Error, CustomStringConvertible {
        /// The document's path.
        public let document: String
        /// What is missing.
        public let problem: String

        /// The error in words.
        public var description: String { "\(document): \(problem)" }
    }
}
