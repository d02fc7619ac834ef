// SessionBenchmarks — what keeping a session alive costs: one ResponseClient request with an
// AuthenticationSession that needs no refresh, against the same request without a session (an
// in-process transport, no network; allocations included), and how soon 1,000 requests waiting on
// a refresh go on once it has finished.
//
//   cd Benchmarks && swift package benchmark --target SessionBenchmarks
//   swift package benchmark thresholds check --metric mallocCountTotal

import Baselines
import Benchmark
import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Synchronization

/// Answers every request with the same small success envelope, in process.
struct StubTransport: HTTPTransport {
    let response = TransportResponse(statusCode: 200, body: EnvelopeSamples.smallSuccess)

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        response
    }
}

/// `Authorization: Bearer <token>`; its refresh waits at `gate` (when there is one), notes when it
/// returns, and gives the next token.
struct BenchAuthenticator: Authenticator {
    let gate: ReleaseGate?

    func apply(_ credential: String, to request: inout TransportRequest) {
        request.setValue("Bearer " + credential, forHeader: "Authorization")
    }

    func refresh(_ credential: String) async throws -> String {
        await gate?.wait()
        gate?.noteRefreshEnded()
        return credential + "+"
    }

    func isRequest(_ request: TransportRequest, authenticatedWith credential: String) -> Bool {
        request.value(forHeader: "Authorization") == "Bearer " + credential
    }
}

/// Holds the refresh until opened, and records when it returned.
final class ReleaseGate: Sendable {
    private let state = Mutex<(open: Bool, waiter: CheckedContinuation<Void, Never>?, ended: ContinuousClock.Instant?)>(
        (false, nil, nil))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                if !state.open { state.waiter = continuation }
                return state.open
            }
            if open { continuation.resume() }
        }
    }

    var isWaiting: Bool { state.withLock { $0.waiter != nil } }

    func open() {
        let waiter = state.withLock { state in
            state.open = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func noteRefreshEnded() {
        state.withLock { $0.ended = .now }
    }

    var refreshEnded: ContinuousClock.Instant? { state.withLock { $0.ended } }
}

/// When each waiter went on: one slot per waiter, each written by its own task only.
///
/// `@unchecked Sendable`: the tasks write distinct slots (`record(_:at:)` with their own index)
/// and the benchmark reads them only after awaiting every task, so no slot is accessed by two
/// threads without that ordering.
final class WakeTimes: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<ContinuousClock.Instant>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: .now)
    }

    deinit { slots.deallocate() }

    func record(_ instant: ContinuousClock.Instant, at index: Int) { slots[index] = instant }
    var all: [ContinuousClock.Instant] { Array(slots) }
}

/// Nanoseconds of a duration.
func nanoseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
}

/// One refresh held at a gate, `count` requests waiting on it (one that started it, the others
/// starting while it runs); the gate opens, and each waiter notes when it went on. Returns the
/// time from the refresh returning to the last waiter going on, and to the median one.
func releaseWaiters(_ count: Int) async -> (last: Duration, median: Duration) {
    let gate = ReleaseGate()
    let session = AuthenticationSession(authenticator: BenchAuthenticator(gate: gate), credential: "t-0")
    let request = TransportRequest(url: URL(string: "http://in-process/class")!)
    let times = WakeTimes(count: count)
    guard let sent = try? await session.authenticate(request) else { fatalError("no credential applied") }
    var tasks: [Task<Void, Never>] = []
    tasks.append(
        Task {
            _ = try? await session.reauthenticate(sent, trigger: .status(401), module: "bench")
            times.record(.now, at: 0)
        })
    while !gate.isWaiting { await Task.yield() }
    for index in 1..<count {
        tasks.append(
            Task {
                _ = try? await session.authenticate(request)
                times.record(.now, at: index)
            })
    }
    while session.waitingRequestCount < count { await Task.yield() }
    gate.open()
    for task in tasks { await task.value }
    guard let ended = gate.refreshEnded else { fatalError("the refresh did not end") }
    let latencies = times.all.map { ended.duration(to: $0) }.sorted()
    return (latencies[count - 1], latencies[count / 2])
}

let benchmarks: @Sendable () -> Void = {
    let request = TransportRequest(url: URL(string: "http://in-process/class/c-1")!)
    let withoutSession = ResponseClient(transport: StubTransport())
    let session = AuthenticationSession(authenticator: BenchAuthenticator(gate: nil), credential: "t-0")
    let withSession = ResponseClient(transport: StubTransport(), authentication: session)
    let requestConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .nanoseconds, maxDuration: .seconds(2),
        maxIterations: 100_000)

    // One request, all of ResponseClient's stages, no refresh needed.
    Benchmark("ClientRequest_withoutSession", configuration: requestConfiguration) { _ in
        blackHole(try? await withoutSession.send(request, returning: ClassInfo.self, module: StudyGroupCode.self))
    }
    Benchmark("ClientRequest_withSession", configuration: requestConfiguration) { _ in
        blackHole(try? await withSession.send(request, returning: ClassInfo.self, module: StudyGroupCode.self))
    }

    // 1,000 waiters released: nanoseconds from the refresh returning to the last (and the median)
    // waiter going on. Timings only: never a threshold.
    let released = Benchmark.Configuration(
        metrics: [.custom("lastWaiterReleasedNs"), .custom("medianWaiterReleasedNs")], maxDuration: .seconds(10),
        maxIterations: 100)
    Benchmark("RefreshRelease_1000Waiters", configuration: released) { benchmark in
        let (last, median) = await releaseWaiters(1_000)
        benchmark.measurement(.custom("lastWaiterReleasedNs"), nanoseconds(last))
        benchmark.measurement(.custom("medianWaiterReleasedNs"), nanoseconds(median))
    }
}
