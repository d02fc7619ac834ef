// The default protections and a session, together, over (simulated) time: every scenario of
// PipelineScenario's tables against a ResponseClient with the defaults a user gets, and the table
// of what was measured, which the DocC article "Guarantees over time" shows.

import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@testable import SwiftErr

@Suite("Defaults over time: ResponseClient in the simulation")
struct DefaultsOverTimeTests {
    /// The article whose tables this test writes and checks.
    static let article = "Sources/SwiftErr/SwiftErr.docc/GuaranteesOverTime.md"

    @Test("every scenario holds on ResponseClient, and the article's tables are what the simulation measures")
    func scenarios() async throws {
        guard #available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            return
        }
        let withoutSession = try await Self.run(PipelineScenario.withoutSession) { simulation in
            let client = ResponseClient(
                transport: simulation.upstream, timeouts: .init(attempt: .seconds(2), overall: .seconds(10)),
                protections: try UpstreamProtections(clock: simulation.clock, random: simulation.random),
                clock: simulation.pipelineClock)
            return { SimulatedOutcome(await client.result($0, returning: NoData.self, module: StudyGroupCode.self)) }
        }
        let withSession = try await Self.run(PipelineScenario.withSession) { simulation in
            let tokens = try #require(simulation.tokens)
            let session = AuthenticationSession(
                authenticator: tokens.authenticator, credential: tokens.initialToken, clock: simulation.clock)
            let client = ResponseClient(
                transport: simulation.upstream, timeouts: .init(attempt: .seconds(2), overall: .seconds(10)),
                protections: try UpstreamProtections(clock: simulation.clock, random: simulation.random),
                authentication: session,
                clock: simulation.pipelineClock)
            return { SimulatedOutcome(await client.result($0, returning: NoData.self, module: StudyGroupCode.self)) }
        }
        for result in withoutSession + withSession {
            #expect(result.failures.isEmpty, "\(result.scenario): \(result.failures)")
        }
        try Self.check(table: "protections", PipelineScenario.table(withoutSession))
        try Self.check(table: "sessions", PipelineScenario.table(withSession))
    }

    /// Runs scenarios, two at a time (each simulation is one thread), in their order.
    @available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    static func run(
        _ scenarios: [PipelineScenario],
        _ pipeline:
            @escaping @Sendable (PipelineSimulation) throws -> @Sendable (TransportRequest) async -> SimulatedOutcome
    ) async throws -> [PipelineScenario.Result] {
        try await withThrowingTaskGroup(of: (Int, PipelineScenario.Result).self) { group in
            var results: [PipelineScenario.Result?] = Array(repeating: nil, count: scenarios.count)
            var next = 0
            func start() {
                guard next < scenarios.count else { return }
                let index = next
                next += 1
                group.addTask { (index, try await scenarios[index].run(pipeline)) }
            }
            start()
            start()
            while let (index, result) = try await group.next() {
                results[index] = result
                start()
            }
            return results.map { $0! }
        }
    }

    /// Compares the article's table between `<!-- scenario table: NAME -->` and
    /// `<!-- end of scenario table -->` with `table`; with `SWIFTERR_UPDATE_SCENARIO_TABLES=1` in
    /// the environment, writes it instead.
    static func check(table name: String, _ table: String) throws {
        let url = RepositoryFiles.root.appendingPathComponent(article)
        let text = try String(contentsOf: url, encoding: .utf8)
        let begin = "<!-- scenario table: \(name) -->\n"
        let end = "<!-- end of scenario table -->"
        let start = try #require(text.range(of: begin), "\(article) has no \(begin)")
        let stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
        let shown = String(text[start.upperBound..<stop.lowerBound])
        if ProcessInfo.processInfo.environment["SWIFTERR_UPDATE_SCENARIO_TABLES"] == "1" {
            let updated = text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: table)
            try updated.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            shown == table,
            "\(article): the \(name) table is not what the simulation measures; run SWIFTERR_UPDATE_SCENARIO_TABLES=1 swift test --filter DefaultsOverTimeTests. Measured:\n\(table)"
        )
    }
}
