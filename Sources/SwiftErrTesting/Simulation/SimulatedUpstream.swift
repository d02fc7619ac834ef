import Foundation
import SwiftErr

/// The upstream of a ``PipelineSimulation``: an ``HTTPTransport`` that answers as its
/// ``UpstreamScript`` says at the simulated moment each request arrives, after the script's
/// latency on the simulation's clock, and counts what reached it.
///
/// With a ``SimulatedTokenService``, a request whose token has expired is refused with
/// ``expiredAnswer`` (HTTP 401 by default) whatever the phase, as a server checks credentials
/// before anything else.
@available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public final class SimulatedUpstream: HTTPTransport {
    /// How the upstream refuses an expired token.
    public enum ExpiredAnswer: Sendable, Hashable {
        /// This HTTP status (401).
        case status(Int)
        /// HTTP 200 with this code in the envelope (a code the catalog flags `reauthenticate`).
        case code(Int64)
    }

    /// What it does over time.
    public let script: UpstreamScript
    /// The token service whose tokens it checks, or `nil`.
    public let tokens: SimulatedTokenService?
    /// How it refuses an expired token.
    public let expiredAnswer: ExpiredAnswer
    let clock: ManualClock

    private struct State {
        var random: SplitMix64
        /// Requests that reached it, per phase of the script (by when they arrived).
        var received: [Int]
        /// Requests refused for an expired token.
        var expiredRefusals = 0
    }
    private let state: Locked<State>

    init(
        script: UpstreamScript, tokens: SimulatedTokenService?, expiredAnswer: ExpiredAnswer, clock: ManualClock,
        seed: UInt64
    ) {
        self.script = script
        self.tokens = tokens
        self.expiredAnswer = expiredAnswer
        self.clock = clock
        state = Locked(State(random: SplitMix64(seed: seed), received: Array(repeating: 0, count: script.phases.count)))
    }

    /// How many requests reached the upstream in phase `index` of the script (by when they arrived).
    /// - Parameter index: A phase's index.
    /// - Returns: The count.
    public func received(inPhase index: Int) -> Int {
        state.withLock { $0.received[index] }
    }

    /// How many requests reached the upstream in all.
    public var receivedCount: Int { state.withLock { $0.received.reduce(0, +) } }

    /// How many requests it refused for an expired token.
    public var expiredRefusalCount: Int { state.withLock { $0.expiredRefusals } }

    /// Answers a request as the script says at the moment it arrives.
    /// - Parameter request: The request.
    /// - Returns: The answer.
    /// - Throws: `URLError.cannotConnectToHost` while the upstream is down; `CancellationError`.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let arrival = clock.now.offset
        let phase = script.phase(at: arrival)
        let behaviour = script.phases[phase].behaviour
        let expired: Bool
        if let tokens {
            let period = request.value(forHeader: "X-Simulated-Token-Period").flatMap(Int.init)
            expired = period.map { $0 != tokens.period(at: arrival) } ?? true
        } else {
            expired = false
        }
        let failing: Bool = state.withLock { state in
            state.received[phase] += 1
            if case .failing(let fraction) = behaviour, !expired, behaviour != .down {
                return Double(state.random.next() >> 11) * 0x1.0p-53 < fraction
            }
            return false
        }
        if behaviour == .down { throw URLError(.cannotConnectToHost) }
        if case .slow(let latency) = behaviour {
            try await clock.sleep(for: latency)
        } else {
            try await clock.sleep(for: script.latency)
        }
        if expired {
            state.withLock { $0.expiredRefusals += 1 }
            switch expiredAnswer {
            case .status(let status): return TransportResponse(statusCode: status, body: Data())
            case .code(let code): return Self.envelope(code: code, message: "token expired")
            }
        }
        if failing { return TransportResponse(statusCode: 503, body: Data()) }
        if case .answering(let code) = behaviour { return Self.envelope(code: code, message: "business answer") }
        return Self.envelope(code: 0, message: "ok")
    }

    /// `{"ret":CODE,"msg":MESSAGE,"data":{}}` at HTTP 200.
    static func envelope(code: Int64, message: String) -> TransportResponse {
        TransportResponse(
            statusCode: 200, headerFields: ["Content-Type": "application/json"],
            body: Data(#"{"ret":\#(code),"msg":"\#(message)","data":{}}"#.utf8))
    }
}
