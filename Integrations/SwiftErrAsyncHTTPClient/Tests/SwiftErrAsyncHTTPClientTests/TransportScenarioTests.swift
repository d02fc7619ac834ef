import AsyncHTTPClient
import Foundation
import SwiftErrAsyncHTTPClient
import SwiftErrTesting
import Testing

/// The session and protection scenarios every transport passes (SwiftErrTesting's
/// `TransportScenarios`), on async-http-client against loopback servers: one test body for each
/// list.
@Suite("Transport scenarios on async-http-client: sessions and upstream protection", .timeLimit(.minutes(4)))
struct TransportScenarioTests {
    /// An `HTTPClient` of the scenario's own: up to 128 connections to a host (100 requests at once),
    /// and no connection retried by its pool (a refused connection fails the send at once, as the
    /// gateway configures it); shut down after the scenario.
    static let scenarios = TransportScenarios(name: "async-http-client") {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 128)
        configuration.connectionPool.retryConnectionEstablishment = false
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        return TransportScenarios.Connection(AsyncHTTPClientTransport(client: httpClient)) {
            try await httpClient.shutdown()
        }
    }

    @Test("sessions", arguments: TransportScenarios.sessions)
    func session(_ scenario: TransportScenarios.Scenario) async {
        let result = await Self.scenarios.run(scenario)
        #expect(result.failures.isEmpty, "\(scenario): \(result.failures)")
        for note in result.notes { print("async-http-client: \(note)") }
    }

    @Test("upstream protection", arguments: TransportScenarios.protections)
    func protection(_ scenario: TransportScenarios.Scenario) async {
        let result = await Self.scenarios.run(scenario)
        #expect(result.failures.isEmpty, "\(scenario): \(result.failures)")
    }
}
