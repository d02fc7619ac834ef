import Foundation
import SwiftErr

/// A credential of a simulation: a token, numbered in the order the token service issued it.
public struct SimulatedToken: Sendable, Hashable {
    /// The token's number: 0 for the first session's, then 1, 2, … per refresh.
    public let number: Int
    /// The period of the service's expiry schedule it was issued in; it is accepted until that
    /// period ends.
    let period: Int

    /// The `Authorization` header field's value, `Bearer sim-N`.
    public var bearer: String { "Bearer sim-\(number)" }
}

/// The token service of a simulation: tokens expire on a schedule, a refresh issues a new one after
/// a latency, and it can be made to fail for a while.
///
/// A token is accepted until the end of the ``expiry`` period it was issued in (periods start at
/// zero): every token in flight expires together, as when a server rotates its keys, which is the
/// hard case for a session (every request in flight refused at once).
@available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public final class SimulatedTokenService: Sendable {
    /// How long a period lasts: tokens issued in one are refused from the next on.
    public let expiry: Duration
    /// How long a refresh takes.
    public let latency: Duration
    /// When refreshes fail (they throw `URLError.badServerResponse` after the latency).
    public let failures: [Range<Duration>]
    let clock: ManualClock

    private struct State {
        var issued = 0
        var refreshes = 0
        var failedRefreshes = 0
    }
    private let state = Locked(State())

    init(clock: ManualClock, expiry: Duration, latency: Duration, failures: [Range<Duration>]) {
        self.clock = clock
        self.expiry = expiry
        self.latency = latency
        self.failures = failures
    }

    /// The period `time` is in.
    func period(at time: Duration) -> Int {
        Int(time / expiry)
    }

    /// The first token, valid in the first period.
    public var initialToken: SimulatedToken { SimulatedToken(number: 0, period: 0) }

    /// Whether the upstream accepts `token` at `time`.
    func accepts(_ token: SimulatedToken, at time: Duration) -> Bool {
        token.period == period(at: time)
    }

    /// How many refreshes were asked for (answered or failed).
    public var refreshCount: Int { state.withLock { $0.refreshes } }
    /// How many of them failed.
    public var failedRefreshCount: Int { state.withLock { $0.failedRefreshes } }

    /// Issues a new token after the service's latency, or fails when a failure window covers the
    /// moment the refresh arrived.
    /// - Returns: A token of the current period.
    /// - Throws: `URLError.badServerResponse` in a failure window; `CancellationError`.
    public func refresh() async throws -> SimulatedToken {
        let arrival = clock.now.offset
        let failing = failures.contains { $0.contains(arrival) }
        state.withLock { state in
            state.refreshes += 1
            if failing { state.failedRefreshes += 1 }
        }
        try await clock.sleep(for: latency)
        if failing { throw URLError(.badServerResponse) }
        let now = clock.now.offset
        return state.withLock { state in
            state.issued += 1
            return SimulatedToken(number: state.issued, period: period(at: now))
        }
    }

    /// The authenticator of a session on this service: `Authorization: Bearer sim-N`.
    public var authenticator: SimulatedAuthenticator { SimulatedAuthenticator(service: self) }
}

/// Applies and refreshes ``SimulatedToken``s: the authenticator of a simulated session.
@available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct SimulatedAuthenticator: Authenticator {
    /// The service that issues the tokens.
    public let service: SimulatedTokenService

    /// Sets `Authorization: Bearer sim-N` (and the token's period, for the simulated upstream).
    /// - Parameters:
    ///   - credential: The token.
    ///   - request: The request.
    public func apply(_ credential: SimulatedToken, to request: inout TransportRequest) {
        request.setValue(credential.bearer, forHeader: "Authorization")
        request.setValue(String(credential.period), forHeader: "X-Simulated-Token-Period")
    }

    /// Asks the service for a new token.
    /// - Parameter credential: The refused token.
    /// - Returns: The new token.
    /// - Throws: What the service throws.
    public func refresh(_ credential: SimulatedToken) async throws -> SimulatedToken {
        try await service.refresh()
    }

    /// Whether the request carries this token.
    /// - Parameters:
    ///   - request: A request as sent.
    ///   - credential: The session's current token.
    /// - Returns: `true` when the request's `Authorization` is the token's.
    public func isRequest(_ request: TransportRequest, authenticatedWith credential: SimulatedToken) -> Bool {
        request.value(forHeader: "Authorization") == credential.bearer
    }
}
