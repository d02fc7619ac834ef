// The gateway over (simulated) time: every scenario of PipelineScenario.defaults against the
// gateway's real proxy code with its default configuration (classification on, its retry policy
// and protections), its upstream exchange sending to the simulated upstream on the simulation's
// clock; the same expectations as every pipeline's, and the measured tables checked against the
// DocC article "Guarantees over time".

import Foundation
import GatewayKit
import GatewaySimulation
import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@Suite("Gateway over time: every default scenario in the simulation")
struct GatewayOverTimeTests {
    /// The article whose tables the gateway must measure, from the repository's root.
    static let article = "Sources/SwiftErr/SwiftErr.docc/GuaranteesOverTime.md"
    /// The repository's root (this file is Examples/Gateway/Tests/GatewayTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every scenario holds on the gateway, and it measures the article's tables")
    func scenarios() async throws {
        let withoutSession = try await PipelineScenario.run(PipelineScenario.withoutSession) { simulation in
            Gateway.simulatedSend(on: simulation)
        }
        // The gateway keeps no session: its client does, and the gateway passes the upstream's 401 on.
        let withSession = try await PipelineScenario.run(PipelineScenario.withSession) { simulation in
            guard let tokens = simulation.tokens else { throw ScenarioWithoutTokens() }
            let session = AuthenticationSession(
                authenticator: tokens.authenticator, credential: tokens.initialToken, clock: simulation.clock)
            let client = ResponseClient(
                transport: GatewayTransport(gateway: Gateway.simulated(on: simulation)), policy: .never,
                timeouts: .init(overall: .seconds(10)), authentication: session, clock: simulation.pipelineClock)
            return { SimulatedOutcome(await client.result($0, returning: NoData.self, module: StudyGroupCode.self)) }
        }
        for result in withoutSession + withSession {
            #expect(result.failures.isEmpty, "\(result.scenario): \(result.failures)")
        }
        let document = Self.root.appendingPathComponent(Self.article)
        let update = ProcessInfo.processInfo.environment["SWIFTERR_UPDATE_SCENARIO_TABLES"] == "1"
        for (name, results) in [("gateway protections", withoutSession), ("gateway sessions", withSession)] {
            let table = PipelineScenario.table(results)
            let shown = try PipelineScenario.compareTable(name, table, inDocumentAt: document, update: update)
            #expect(
                shown == nil,
                "\(Self.article): the \(name) table is not what the simulation measures; run SWIFTERR_UPDATE_SCENARIO_TABLES=1 swift test --filter GatewayOverTimeTests. Measured:\n\(table)"
            )
        }
    }

    struct ScenarioWithoutTokens: Error {}
}
