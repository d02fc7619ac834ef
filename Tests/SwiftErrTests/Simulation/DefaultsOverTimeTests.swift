// The default protections and a session, together, over (simulated) time: every scenario of
// PipelineScenario's tables against a ResponseClient with the defaults a user gets.

import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@testable import SwiftErr

@Suite("Defaults over time: ResponseClient in the simulation")
struct DefaultsOverTimeTests {
    /// The scenarios' count in each table (the tables need macOS 15; the arguments cannot name them).
    static let withoutSessionCount = 14
    static let withSessionCount = 2

    @Test("scenarios without a session", arguments: 0..<withoutSessionCount)
    func withoutSession(_ index: Int) async throws {
        guard #available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            return
        }
        #expect(PipelineScenario.withoutSession.count == Self.withoutSessionCount)
        let scenario = PipelineScenario.withoutSession[index]
        let result = try await scenario.run { simulation in
            let client = ResponseClient(
                transport: simulation.upstream, timeouts: .init(attempt: .seconds(2), overall: .seconds(10)),
                protections: try UpstreamProtections(clock: simulation.clock), clock: simulation.pipelineClock)
            return { SimulatedOutcome(await client.result($0, returning: NoData.self, module: StudyGroupCode.self)) }
        }
        #expect(result.failures.isEmpty, "\(scenario): \(result.failures)")
    }

    @Test("scenarios with a session", arguments: 0..<withSessionCount)
    func withSession(_ index: Int) async throws {
        guard #available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            return
        }
        #expect(PipelineScenario.withSession.count == Self.withSessionCount)
        let scenario = PipelineScenario.withSession[index]
        let result = try await scenario.run { simulation in
            let tokens = try #require(simulation.tokens)
            let session = AuthenticationSession(
                authenticator: tokens.authenticator, credential: tokens.initialToken, clock: simulation.clock)
            let client = ResponseClient(
                transport: simulation.upstream, timeouts: .init(attempt: .seconds(2), overall: .seconds(10)),
                protections: try UpstreamProtections(clock: simulation.clock), authentication: session,
                clock: simulation.pipelineClock)
            return { SimulatedOutcome(await client.result($0, returning: NoData.self, module: StudyGroupCode.self)) }
        }
        #expect(result.failures.isEmpty, "\(scenario): \(result.failures)")
    }
}
