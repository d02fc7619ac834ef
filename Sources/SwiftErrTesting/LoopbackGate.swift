import Foundation
import SwiftErr

/// Holds the server's answers until a test opens it: for putting requests "in flight" at a known
/// moment with ``LoopbackHTTPServer``.
///
/// A route's handler calls ``pass()``, which blocks its connection's thread (each connection has
/// one) until ``open()``; ``waitForWaiting(_:timeout:)`` lets the test wait until the requests it
/// sent have reached the server.
///
/// <!-- listing: context=app,tests-server -->
/// ```swift
/// let gate = LoopbackGate()
/// server.route("/slow") { request in
///     gate.pass()
///     return .envelope(0)
/// }
/// let task = Task {
///     try await client.send(TransportRequest(url: server.url("/slow")), returning: NoData.self, module: StudyGroupCode.self)
/// }
/// #expect(await gate.waitForWaiting(1))
/// // … the request is at the server, unanswered …
/// gate.open()
/// ```
public final class LoopbackGate: Sendable {
    private struct State {
        var isOpen = false
        var waiting = 0
        var passed = 0
    }

    /// Wakes blocked `pass()` calls; `state` is changed only while it is locked, so none misses `open()`.
    private let condition = NSCondition()
    private let state = Locked(State())

    /// The longest ``pass()`` blocks when the gate is never opened, so that a failing test does
    /// not leave the server's threads blocked for ever.
    public let limit: Duration

    /// Creates a closed gate.
    /// - Parameter limit: The longest ``pass()`` blocks (180 seconds by default: longer than any
    ///   wait of ``waitForWaiting(_:timeout:)``).
    public init(limit: Duration = .seconds(180)) {
        self.limit = limit
    }

    /// Blocks the calling thread until the gate is open (at once when it already is), or until
    /// ``limit`` has passed.
    /// - Returns: `true` when the gate was opened, `false` when the limit ran out.
    @discardableResult
    public func pass() -> Bool {
        let deadline = Date(timeIntervalSinceNow: Self.seconds(limit))
        condition.lock()
        defer { condition.unlock() }
        state.withLock { $0.waiting += 1 }
        var opened = state.withLock { $0.isOpen }
        while !opened, condition.wait(until: deadline) {
            opened = state.withLock { $0.isOpen }
        }
        opened = state.withLock { state in
            state.waiting -= 1
            if state.isOpen { state.passed += 1 }
            return state.isOpen
        }
        return opened
    }

    /// Opens the gate: every blocked ``pass()`` returns, and every later one returns at once.
    public func open() {
        condition.lock()
        state.withLock { $0.isOpen = true }
        condition.broadcast()
        condition.unlock()
    }

    /// How many threads are blocked in ``pass()``.
    public var waitingCount: Int { state.withLock { $0.waiting } }

    /// How many ``pass()`` calls have returned because the gate was open.
    public var passedCount: Int { state.withLock { $0.passed } }

    /// Waits until at least `count` threads are blocked in ``pass()``.
    /// - Parameters:
    ///   - count: How many to wait for.
    ///   - timeout: How long to wait at most (120 seconds by default: far beyond a correct run,
    ///     even when the test process shares two loaded cores with other suites).
    /// - Returns: `true` when they are, `false` when the time ran out (or the task was cancelled).
    public func waitForWaiting(_ count: Int, timeout: Duration = .seconds(120)) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while waitingCount < count {
            guard ContinuousClock.now < deadline, (try? await Task.sleep(for: .milliseconds(2))) != nil else {
                return false
            }
        }
        return true
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
