import Foundation
import SwiftErr

/// The session and protection scenarios a ``SwiftErr/ResponseClient`` must pass on any
/// ``SwiftErr/HTTPTransport``, written once: each runs against real HTTP servers on 127.0.0.1
/// (``LoopbackHTTPServer``, ``LoopbackTokenService``), with clients made on the transport under test.
///
/// SwiftErr's URLSession and async-http-client transports run them from one test body each; run them
/// on your own transport the same way:
///
/// <!-- listing: context=transport-tests -->
/// ```swift
/// @Suite struct MyTransportTests {
///     static let scenarios = TransportScenarios(name: "MyTransport") {
///         let client = MyHTTPClient()
///         return TransportScenarios.Connection(MyTransport(client)) { await client.close() }
///     }
///
///     @Test(arguments: TransportScenarios.all)
///     func scenario(_ scenario: TransportScenarios.Scenario) async {
///         let result = await Self.scenarios.run(scenario)
///         #expect(result.failures.isEmpty, "\(result.failures)")
///     }
/// }
/// ```
///
/// A scenario reports what did not hold as text in ``Result/failures`` (it does not depend on a
/// test framework), each with the line of the scenario that checked it. The scenarios speak the
/// built-in catalog's codes (SwiftErrDefaultCatalog): 11001 and 11004 are flagged `reauthenticate`,
/// 11005 is not, 11210005 is a study-group answer.
///
/// The transport must open up to 128 connections to one host at once (``sessions`` sends 100
/// requests together, each held at the server until all have arrived), and must not retry a
/// refused connection on its own.
public struct TransportScenarios: Sendable {
    /// A transport made for one scenario, and how it is closed after it.
    public struct Connection: Sendable {
        /// The transport the scenario's clients send through.
        public var transport: any HTTPTransport
        /// Releases what the transport holds (a session, a client's connections).
        public var close: @Sendable () async throws -> Void

        /// Creates a connection.
        /// - Parameters:
        ///   - transport: The transport.
        ///   - close: Releases it after the scenario (nothing by default).
        public init(_ transport: any HTTPTransport, close: @escaping @Sendable () async throws -> Void = {}) {
            self.transport = transport
            self.close = close
        }
    }

    /// One scenario: its name says what must hold.
    public struct Scenario: Sendable, CustomStringConvertible {
        /// What must hold, in words.
        public let name: String
        let body: @Sendable (any HTTPTransport, ScenarioChecks) async throws -> Void

        init(_ name: String, _ body: @escaping @Sendable (any HTTPTransport, ScenarioChecks) async throws -> Void) {
            self.name = name
            self.body = body
        }

        /// The name.
        public var description: String { name }
    }

    /// What a run of a scenario found.
    public struct Result: Sendable {
        /// The scenario's name.
        public var scenario: String
        /// The transport's name.
        public var transport: String
        /// What did not hold, each with the scenario's line that checked it; empty when it passed.
        public var failures: [String]
        /// Figures the scenario measured (how long the refresh and replays took), for the log.
        public var notes: [String]
    }

    /// The transport's name, for the results.
    public let name: String
    private let connect: @Sendable () async throws -> Connection

    /// Creates the scenarios for a transport.
    /// - Parameters:
    ///   - name: The transport's name.
    ///   - connect: Makes a new transport for a scenario (each scenario gets its own, closed after
    ///     it).
    public init(name: String, connect: @escaping @Sendable () async throws -> Connection) {
        self.name = name
        self.connect = connect
    }

    /// Every scenario: ``sessions``, then ``protections``.
    public static var all: [Scenario] { sessions + protections }

    /// Runs a scenario on a new transport, and closes it.
    /// - Parameter scenario: The scenario.
    /// - Returns: What it found: an error thrown by the transport's `connect` or `close`, or by the
    ///   scenario (a loopback server that could not start), is a failure.
    public func run(_ scenario: Scenario) async -> Result {
        let checks = ScenarioChecks()
        do {
            let connection = try await connect()
            do {
                try await scenario.body(connection.transport, checks)
            } catch is ScenarioChecks.Stopped {
                // A required value was missing: the failure is recorded.
            } catch {
                checks.record("threw \(error)")
            }
            do {
                try await connection.close()
            } catch {
                checks.record("closing the transport threw \(error)")
            }
        } catch {
            checks.record("making the transport threw \(error)")
        }
        return Result(scenario: scenario.name, transport: name, failures: checks.failures, notes: checks.notes)
    }
}

/// What a scenario found: the checks that failed, and the figures it noted.
final class ScenarioChecks: Sendable {
    /// Thrown by ``require(_:_:line:)`` to end a scenario whose next steps need the missing value.
    struct Stopped: Error {}

    private let state = Locked<(failures: [String], notes: [String])>(([], []))

    /// The checks that failed.
    var failures: [String] { state.withLock { $0.failures } }
    /// The figures noted.
    var notes: [String] { state.withLock { $0.notes } }

    /// Records a failure unless `condition` holds.
    /// - Parameters:
    ///   - condition: What must hold.
    ///   - message: What it means, for the failure.
    ///   - line: The scenario's line.
    func expect(_ condition: Bool, _ message: @autoclosure () -> String, line: UInt = #line) {
        if !condition { record("line \(line): \(message())") }
    }

    /// Records a failure unless `actual == expected`.
    /// - Parameters:
    ///   - actual: The value measured.
    ///   - expected: The value that must be measured.
    ///   - message: What it is, for the failure.
    ///   - line: The scenario's line.
    func expect<Value: Equatable>(
        _ actual: Value, equals expected: Value, _ message: @autoclosure () -> String, line: UInt = #line
    ) {
        if actual != expected { record("line \(line): \(message()): \(actual), expected \(expected)") }
    }

    /// The value, or a recorded failure that ends the scenario.
    /// - Parameters:
    ///   - value: The value.
    ///   - message: What is missing, for the failure.
    ///   - line: The scenario's line.
    /// - Returns: The value.
    /// - Throws: ``Stopped`` when it is `nil`.
    func require<Value>(_ value: Value?, _ message: @autoclosure () -> String, line: UInt = #line) throws -> Value {
        guard let value else {
            record("line \(line): \(message())")
            throw Stopped()
        }
        return value
    }

    /// Records a failure.
    func record(_ failure: String) {
        state.withLock { $0.failures.append(failure) }
    }

    /// Notes a figure.
    func note(_ note: String) {
        state.withLock { $0.notes.append(note) }
    }
}
