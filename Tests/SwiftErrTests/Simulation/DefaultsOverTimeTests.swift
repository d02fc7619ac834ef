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
        let withoutSession = try await PipelineScenario.run(PipelineScenario.withoutSession) { simulation in
            let client = ResponseClient(
                transport: simulation.upstream, timeouts: .init(attempt: .seconds(2), overall: .seconds(10)),
                protections: try simulation.protections(), clock: simulation.pipelineClock)
            return { SimulatedOutcome(await client.result($0, returning: NoData.self, module: StudyGroupCode.self)) }
        }
        let withSession = try await PipelineScenario.run(PipelineScenario.withSession) { simulation in
            let tokens = try #require(simulation.tokens)
            let session = AuthenticationSession(
                authenticator: tokens.authenticator, credential: tokens.initialToken, clock: simulation.clock)
            let client = ResponseClient(
                transport: simulation.upstream, timeouts: .init(attempt: .seconds(2), overall: .seconds(10)),
                protections: try simulation.protections(), authentication: session,
                clock: simulation.pipelineClock)
            return { SimulatedOutcome(await client.result($0, returning: NoData.self, module: StudyGroupCode.self)) }
        }
        for result in withoutSession + withSession {
            #expect(result.failures.isEmpty, "\(result.scenario): \(result.failures)")
        }
        try Self.check(table: "protections", PipelineScenario.table(withoutSession))
        try Self.check(table: "sessions", PipelineScenario.table(withSession))
    }

    /// Compares the article's table `name` with `table`; with `SWIFTERR_UPDATE_SCENARIO_TABLES=1` in
    /// the environment, writes it instead.
    @available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    static func check(table name: String, _ table: String) throws {
        let update = ProcessInfo.processInfo.environment["SWIFTERR_UPDATE_SCENARIO_TABLES"] == "1"
        let shown = try PipelineScenario.compareTable(
            name, table, inDocumentAt: RepositoryFiles.root.appendingPathComponent(article), update: update)
        #expect(
            shown == nil,
            "\(article): the \(name) table is not what the simulation measures; run SWIFTERR_UPDATE_SCENARIO_TABLES=1 swift test --filter DefaultsOverTimeTests. Measured:\n\(table)"
        )
    }
}
