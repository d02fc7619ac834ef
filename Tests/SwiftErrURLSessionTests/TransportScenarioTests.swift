import Foundation
import SwiftErrTesting
import SwiftErrURLSession
import Testing

/// The session and protection scenarios every transport passes (SwiftErrTesting's
/// `TransportScenarios`), on URLSession against loopback servers: one test body for each list.
@Suite("Transport scenarios on URLSession: sessions and upstream protection", .timeLimit(.minutes(4)))
struct TransportScenarioTests {
    /// An ephemeral URLSession of the scenario's own, up to 128 connections to a host (100 requests
    /// at once, each on a connection of its own: the server closes each one).
    static let scenarios = TransportScenarios(name: "URLSession") {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 128
        let session = URLSession(configuration: configuration)
        return TransportScenarios.Connection(URLSessionTransport(session: session)) { session.invalidateAndCancel() }
    }

    @Test("sessions", arguments: TransportScenarios.sessions)
    func session(_ scenario: TransportScenarios.Scenario) async {
        let result = await Self.scenarios.run(scenario)
        #expect(result.failures.isEmpty, "\(scenario): \(result.failures)")
        for note in result.notes { print("URLSession: \(note)") }
    }

    @Test("upstream protection", arguments: TransportScenarios.protections)
    func protection(_ scenario: TransportScenarios.Scenario) async {
        let result = await Self.scenarios.run(scenario)
        #expect(result.failures.isEmpty, "\(scenario): \(result.failures)")
    }
}
