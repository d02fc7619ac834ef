// The gateway on a simulation's clock and upstream (SwiftErrTesting), and its answers read as a
// simulated request's outcome: what the gateway's over-time tests and recovery-run's simulated
// half share.
import GatewayKit
import SwiftErr
import SwiftErrTesting

extension Gateway {
    /// The gateway with its default configuration, sending to the simulated upstream on the
    /// simulation's clock and random numbers.
    /// - Parameter simulation: The simulation.
    /// - Returns: The gateway, whose ``GatewayTransport`` sends a request through its proxy.
    public static func simulated(on simulation: PipelineSimulation) -> Gateway {
        Gateway(
            configuration: GatewayConfiguration(upstream: "https://upstream.simulation"),
            exchange: .transport(simulation.upstream), clock: simulation.clock, random: simulation.pipelineClock.random)
    }

    /// How a simulation sends a request through the gateway of ``simulated(on:)`` (in process,
    /// through ``GatewayTransport``) and reads its answer (``outcome(of:)``).
    /// - Parameter simulation: The simulation.
    /// - Returns: The function a ``SwiftErrTesting/PipelineScenario`` run sends each request with.
    public static func simulatedSend(on simulation: PipelineSimulation)
        -> @Sendable (TransportRequest) async -> SimulatedOutcome
    {
        let transport = GatewayTransport(gateway: simulated(on: simulation))
        return { request in
            // The gateway throws only when the request's task was cancelled.
            guard let answer = try? await transport.send(request) else { return .cancelled }
            return outcome(of: answer)
        }
    }

    /// What the gateway's client saw: a 503 the gateway's protection answered is a refusal; any other
    /// answer is judged by its status and envelope code.
    /// - Parameter answer: The gateway's answer.
    /// - Returns: The outcome.
    public static func outcome(of answer: TransportResponse) -> SimulatedOutcome {
        if GatewayTransport.isRefusal(answer) { return .refused }
        return SimulatedOutcome(status: answer.statusCode ?? 0, code: try? ResponseEnvelope.parse(answer.body).code)
    }
}
