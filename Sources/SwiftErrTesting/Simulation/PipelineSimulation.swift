import Foundation
import SwiftErr

/// Runs a request pipeline against a scripted upstream on simulated time: hours of traffic in
/// seconds, the same way every time.
///
/// The simulation owns a ``ManualClock`` and the upstream (``SimulatedUpstream``, an
/// ``HTTPTransport``). Give your pipeline the simulation's clock — a `ResponseClient`'s
/// ``pipelineClock``, the session's ``clock``, and protections made by
/// ``protections(retryBudget:circuitBreaker:throttle:keying:)`` (on the clock, their throttles
/// drawing from the simulation's seed) — and the upstream as its transport; then send requests at
/// a rate:
///
/// <!-- listing: context=app,tests -->
/// ```swift
/// let simulation = PipelineSimulation(script: .outage(at: .seconds(30), lasting: .seconds(600)))
/// let client = ResponseClient(
///     transport: simulation.upstream,
///     protections: try simulation.protections(),
///     clock: simulation.pipelineClock)
/// let report = await simulation.run(rate: 10, for: .seconds(900)) { request in
///     SimulatedOutcome(await client.result(request, returning: NoData.self, module: StudyGroupCode.self))
/// }
/// #expect(report.unanswered == 0)
/// #expect(report.timeToFullAdmission! <= .seconds(10))
/// ```
///
/// Every task of the run — the requests, their retries and time limits, a session's refresh —
/// runs on one executor of the simulation's, which runs them one at a time until all are waiting;
/// then the clock moves to the next deadline. No real time passes and no thread decides the
/// order, so a report depends only on the script, the rate, the seed and the code under test.
/// Code that sleeps on another clock, starts a `Task.detached`, or waits on something outside the
/// simulation (a socket, a real timer) escapes it: keep such code out of a simulated pipeline.
@available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public final class PipelineSimulation: Sendable {
    /// The simulated time.
    public let clock: ManualClock
    /// The upstream: the transport to give the pipeline under test.
    public let upstream: SimulatedUpstream
    /// The token service, when the simulation has one.
    public let tokens: SimulatedTokenService?
    /// The seed of every random choice of the simulation (the upstream's failures, the jitter of
    /// ``pipelineClock``).
    public let seed: UInt64
    private let executor: SimulationExecutor
    private let jitter: Locked<SplitMix64>

    /// Creates a simulation.
    /// - Parameters:
    ///   - script: What the upstream does over time.
    ///   - tokenExpiry: How long tokens last, to give the simulation a ``SimulatedTokenService``
    ///     (`nil`: no tokens, no session).
    ///   - refreshLatency: How long a token refresh takes (50 ms).
    ///   - refreshFailures: When refreshes fail.
    ///   - expiredAnswer: How the upstream refuses an expired token (HTTP 401).
    ///   - seed: The seed of every random choice (1).
    public init(
        script: UpstreamScript, tokenExpiry: Duration? = nil, refreshLatency: Duration = .milliseconds(50),
        refreshFailures: [Range<Duration>] = [], expiredAnswer: SimulatedUpstream.ExpiredAnswer = .status(401),
        seed: UInt64 = 1
    ) {
        let clock = ManualClock(recordingSleeps: false)
        self.clock = clock
        self.seed = seed
        let tokens = tokenExpiry.map {
            SimulatedTokenService(clock: clock, expiry: $0, latency: refreshLatency, failures: refreshFailures)
        }
        self.tokens = tokens
        upstream = SimulatedUpstream(
            script: script, tokens: tokens, expiredAnswer: expiredAnswer, clock: clock, seed: seed)
        executor = SimulationExecutor()
        jitter = Locked(SplitMix64(seed: seed ^ 0x5851_F42D_4C95_7F2D))
    }

    /// Random numbers in `0 ..< 1` from the simulation's seed: give them to everything under test
    /// that draws at random (the protections' throttles, the retries' jitter through
    /// ``pipelineClock``), so that a run repeats exactly.
    public var random: @Sendable () -> Double {
        let jitter = self.jitter
        return { jitter.withLock { Double($0.next() >> 11) * 0x1.0p-53 } }
    }

    /// The time for a pipeline under test: waits and limits on ``clock``, a wall clock that starts
    /// at 2027-01-15 08:00:00 UTC and runs with it, and jitter from ``random``.
    public var pipelineClock: PipelineClock {
        let clock = self.clock
        return PipelineClock(
            clock, wallClock: { Date(timeIntervalSince1970: 1_800_000_000 + clock.now.offset / .seconds(1)) },
            random: random)
    }

    /// Upstream protections for a pipeline under test: each upstream's protection measures its
    /// windows and breaks on ``clock``, and its throttle sheds by random numbers drawn from the
    /// simulation's seed, so that a run is the same every time (`UpstreamProtections(clock:)` alone
    /// seeds each throttle at random).
    /// - Parameters:
    ///   - retryBudget: The retry budget, or `nil` for none (``SwiftErr/RetryBudget/default``).
    ///   - circuitBreaker: The circuit breaker, or `nil` for none (``SwiftErr/CircuitBreaker/default``).
    ///   - throttle: The adaptive throttle, or `nil` for none (``SwiftErr/AdaptiveThrottle/default``).
    ///   - keying: How requests are told apart into upstreams (``SwiftErr/UpstreamKeying/host``).
    /// - Returns: The registry, 64 upstreams at most.
    /// - Throws: ``SwiftErr/ResilienceConfigurationError`` as `UpstreamProtections` throws it.
    public func protections(
        retryBudget: RetryBudget? = .default, circuitBreaker: CircuitBreaker? = .default,
        throttle: AdaptiveThrottle? = .default, keying: UpstreamKeying = .host
    ) throws(ResilienceConfigurationError) -> UpstreamProtections {
        let numbers = Locked(SplitMix64(seed: seed ^ 0x2545_F491_4F6C_DD1D))
        return try UpstreamProtections(
            retryBudget: retryBudget, circuitBreaker: circuitBreaker, throttle: throttle, keying: keying,
            clock: clock, random: { numbers.withLock { Double($0.next() >> 11) * 0x1.0p-53 } })
    }

    /// Sends requests at a constant rate and returns what happened to them.
    ///
    /// Request `i` is sent at `i / rate` seconds, in a task of its own, for as long as `duration`;
    /// then the requests still running are given up to `drain` of simulated time to end. A request
    /// that has not ended by then is cancelled and counted as unanswered.
    /// - Parameters:
    ///   - rate: Requests per second, more than zero.
    ///   - duration: How long requests are sent.
    ///   - drain: How long the last requests may take to end (15 minutes).
    ///   - request: The request `i` (a GET of `https://upstream.simulation/resource` by default).
    ///   - send: Sends a request through the pipeline under test and says how it ended.
    /// - Returns: The report.
    public func run(
        rate: Double, for duration: Duration, drain: Duration = .seconds(900),
        request: @escaping @Sendable (Int) -> TransportRequest = { _ in
            TransportRequest(url: URL(string: "https://upstream.simulation/resource")!)
        },
        send: @escaping @Sendable (TransportRequest) async -> SimulatedOutcome
    ) async -> SimulationReport {
        let interval = Duration.seconds(1) / max(rate, .leastNonzeroMagnitude)
        let total = Int((duration / interval).rounded(.down))
        let records = Locked([SimulationReport.Request]())
        let running = Locked([Int: Task<Void, Never>]())
        let clock = self.clock
        let origin = clock.now
        let executor = self.executor
        // `Task {}` does not inherit a task executor: the tasks SwiftErr starts (a session's
        // refresh) go through `UnstructuredTasks`, bound here for every task of the run.
        let start: @Sendable (@escaping @Sendable () async -> Void) -> Task<Void, Never> = { operation in
            Task(executorPreference: executor) { await operation() }
        }
        @Sendable func generate() async {
            for index in 0..<total {
                let arrival = interval * index
                do {
                    try await clock.sleep(until: origin.advanced(by: arrival))
                } catch {
                    return
                }
                records.withLock { $0.append(SimulationReport.Request(arrival: arrival)) }
                let task = Task(executorPreference: executor) {
                    let outcome = await send(request(index))
                    let end = origin.duration(to: clock.now)
                    records.withLock { records in
                        records[index].end = end
                        records[index].outcome = outcome
                    }
                    _ = running.withLock { $0.removeValue(forKey: index) }
                }
                running.withLock { $0[index] = task }
            }
        }
        let generator = Task(executorPreference: executor) {
            await UnstructuredTasks.$start.withValue(UnstructuredTasks.Starter(start)) { await generate() }
        }
        let limit = origin.advanced(by: duration + drain)
        await drive(until: limit)
        // What is left past the limit is cancelled, and its cancellation run, so that no task of the
        // simulation outlives it.
        generator.cancel()
        for task in running.withLock({ Array($0.values) }) { task.cancel() }
        await drive(until: limit)
        let requests = records.withLock { records in
            records.map { record in
                var record = record
                if record.outcome == nil || record.outcome == .cancelled,
                    record.end.map({ $0 > duration + drain }) ?? true
                {
                    record.end = nil
                    record.outcome = nil
                }
                return record
            }
        }
        // The period boundaries strictly inside the run: tokens expire at each.
        let expiries = tokens.map { Int(((duration - .nanoseconds(1)) / $0.expiry).rounded(.down)) } ?? 0
        return SimulationReport(
            script: upstream.script, requests: requests,
            receivedPerPhase: upstream.script.phases.indices.map { upstream.received(inPhase: $0) },
            refreshes: tokens?.refreshCount ?? 0, expiries: expiries)
    }

    /// Runs the simulation's tasks on a thread of its own until no deadline is left before `limit`
    /// (``drive(untilLimit:)``), and resumes when it is done: a run takes seconds of real time,
    /// during which the thread that awaits it goes back to the concurrency pool, so that other
    /// tests of the process, with real-time limits of their own, are not held up.
    private func drive(until limit: ManualClock.Instant) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread { [self] in
                drive(untilLimit: limit)
                done.resume()
            }
            thread.name = "PipelineSimulation"
            thread.start()
        }
    }

    /// Runs the tasks until all wait, moves the clock to the next deadline, and again, until no
    /// deadline is left before `limit`.
    private func drive(untilLimit limit: ManualClock.Instant) {
        while true {
            executor.runUntilIdle()
            guard let next = clock.nextDeadline, next <= limit else { return }
            clock.advance(to: next)
        }
    }
}

extension SimulationReport.Request {
    init(arrival: Duration) {
        self.init(arrival: arrival, end: nil, outcome: nil)
    }
}
