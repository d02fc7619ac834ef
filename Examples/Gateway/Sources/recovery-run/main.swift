// Recovery after an outage, measured in real time and in the simulation, for
// scripts/services/recovery-comparison.sh.
//
//   recovery-run --front gateway|client --url URL --rate R --seconds S --upstream-log FILE [--pool-retries off|on]
//   recovery-run --simulate --front gateway|client --down-after-ms A --down-for-ms D --rate R --seconds S
//
// In real time it sends GET --url at a constant rate, request i at i / R seconds in a task of its
// own (as the simulation does), for --seconds, and waits until every request has ended. With
// --front gateway each request is a plain HTTP request to a gateway; with --front client it goes
// through a ResponseClient with the default protections (retry budget, circuit breaker, adaptive
// throttle), straight to the upstream. Each request's outcome is read the way the simulation reads
// it (SimulatedOutcome: a 503 of the gateway's protection or a client's refusal is `refused`). Then
// it reads --upstream-log, the output of flaky-upstream (`flaky-upstream down at MS`, `… up at MS`,
// wall-clock milliseconds), and prints
//
//   RESULT requests=N success=N answer=N refused=N failed=N cancelled=N refused_before_outage=N
//          full_admission_ms=N down_after_ms=N down_for_ms=N
//
// (one line), where down_after_ms is when the upstream went down after the first request was sent
// and down_for_ms how long it was down. With --simulate it runs that script (healthy, down at A for
// D, healthy again) at the same rate in a PipelineSimulation against the same front with its
// default configuration, and prints the same line. full_admission_ms is
// SimulationReport.timeToFullAdmission's measure for both: from the upstream's return to the last
// request a protection refused (0 when none was refused after it).
//
// --pool-retries on keeps async-http-client's retries of refused connections, which hide an outage
// from the protections: only the comparison's self-test sets it.
import AsyncHTTPClient
import Foundation
import GatewayKit
import GatewaySimulation
import SwiftErr
import SwiftErrAsyncHTTPClient
import SwiftErrDefaultCatalog
import SwiftErrTesting

let usage = """
    usage: recovery-run --front gateway|client --url URL --rate R --seconds S --upstream-log FILE [--pool-retries off|on]
           recovery-run --simulate --front gateway|client --down-after-ms A --down-for-ms D --rate R --seconds S
    """

enum Front: String {
    case gateway, client
}

struct Settings {
    var front: Front
    var rate: Int
    var seconds: Int
    var simulate: Bool
    var url = ""
    var upstreamLog = ""
    var downAfter = 0
    var downFor = 0
    var poolRetries = false
}

let settings: Settings
do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let simulate = arguments.first == "--simulate"
    let options = try Options(
        simulate ? Array(arguments.dropFirst()) : arguments,
        known: ["front", "url", "rate", "seconds", "upstream-log", "down-after-ms", "down-for-ms", "pool-retries"])
    guard let front = Front(rawValue: options.string("front", default: "")) else {
        throw Options.Problem(description: "--front is 'gateway' or 'client'")
    }
    var read = Settings(
        front: front, rate: try options.int("rate", default: 0, in: 1...5000),
        seconds: try options.int("seconds", default: 0, in: 1...3600), simulate: simulate)
    if simulate {
        read.downAfter = try options.int("down-after-ms", default: -1, in: 0...3_600_000)
        read.downFor = try options.int("down-for-ms", default: -1, in: 1...3_600_000)
    } else {
        read.url = options.string("url", default: "")
        read.upstreamLog = options.string("upstream-log", default: "")
        read.poolRetries = try options.flag("pool-retries", default: false)
        guard read.url.hasPrefix("http://"), !read.upstreamLog.isEmpty else {
            throw Options.Problem(description: "--url http://… and --upstream-log FILE are needed")
        }
    }
    settings = read
} catch {
    FileHandle.standardError.write(Data("recovery-run: \(error)\n\(usage)\n".utf8))
    exit(2)
}

/// One request: when it was sent (milliseconds) and how it ended.
struct Sent: Sendable {
    let atMilliseconds: Int64
    let outcome: SimulatedOutcome
}

/// The RESULT line: counts by outcome, refusals before the outage, and the time from the upstream's
/// return to the last refused request.
func result(_ sent: [Sent], start: Int64, downAt: Int64, upAt: Int64) -> String {
    func count(_ outcome: SimulatedOutcome) -> Int { sent.filter { $0.outcome == outcome }.count }
    let refusedBefore = sent.filter { $0.outcome == .refused && $0.atMilliseconds < downAt }.count
    let lastRefused = sent.last { $0.outcome == .refused && $0.atMilliseconds >= upAt }
    let fullAdmission = lastRefused.map { $0.atMilliseconds - upAt } ?? 0
    return "RESULT requests=\(sent.count) success=\(count(.success)) answer=\(count(.answer))"
        + " refused=\(count(.refused)) failed=\(count(.failed)) cancelled=\(count(.cancelled))"
        + " refused_before_outage=\(refusedBefore) full_admission_ms=\(fullAdmission)"
        + " down_after_ms=\(downAt - start) down_for_ms=\(upAt - downAt)"
}

func milliseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
}

/// The simulated half: the same script, rate and front in a PipelineSimulation.
func simulated() async throws -> String {
    let script = UpstreamScript.outage(at: .milliseconds(settings.downAfter), lasting: .milliseconds(settings.downFor))
    let scenario = PipelineScenario(
        name: "outage", script: script,
        rate: Double(settings.rate), duration: .seconds(settings.seconds), expectations: [])
    let front = settings.front
    let run = try await scenario.run { simulation -> @Sendable (TransportRequest) async -> SimulatedOutcome in
        switch front {
        case .gateway:
            return Gateway.simulatedSend(on: simulation)
        case .client:
            let client = ResponseClient(
                transport: simulation.upstream, protections: try simulation.protections(),
                clock: simulation.pipelineClock)
            return { SimulatedOutcome(await client.result($0, returning: NoData.self, module: StudyGroupCode.self)) }
        }
    }
    let sent = run.report.requests.map { request in
        Sent(atMilliseconds: milliseconds(request.arrival), outcome: request.outcome ?? .cancelled)
    }
    return result(sent, start: 0, downAt: Int64(settings.downAfter), upAt: Int64(settings.downAfter + settings.downFor))
}

/// The real-time half: requests at a constant rate to a running gateway or upstream.
func measured() async throws -> String {
    // A refused connection fails the request at once, as SwiftErrAsyncHTTPClient's README asks: with
    // the pool's default retries of connection attempts a request waits, unseen by the protections,
    // until its deadline, and an outage shorter than that never reaches them.
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.retryConnectionEstablishment = settings.poolRetries
    let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    let transport = AsyncHTTPClientTransport(client: httpClient, timeout: .seconds(10))
    let send: @Sendable (TransportRequest) async -> SimulatedOutcome
    switch settings.front {
    case .gateway:
        send = { request in
            guard let answer = try? await transport.send(request) else { return .failed }
            return Gateway.outcome(of: answer)
        }
    case .client:
        let client = ResponseClient(transport: transport, protections: try UpstreamProtections())
        send = { SimulatedOutcome(await client.result($0, returning: NoData.self, module: StudyGroupCode.self)) }
    }
    let request = TransportRequest(url: URL(string: settings.url)!)
    let start = ContinuousClock.now
    let startMilliseconds = Int64(Date().timeIntervalSince1970 * 1000)
    let total = settings.rate * settings.seconds
    let sent = await withTaskGroup(of: Sent.self) { group in
        for index in 0..<total {
            try? await Task.sleep(until: start + .seconds(Double(index) / Double(settings.rate)), clock: .continuous)
            let at = Int64(Date().timeIntervalSince1970 * 1000)
            group.addTask { Sent(atMilliseconds: at, outcome: await send(request)) }
        }
        var all: [Sent] = []
        for await one in group { all.append(one) }
        return all.sorted { $0.atMilliseconds < $1.atMilliseconds }
    }
    try await httpClient.shutdown()
    let log = try String(contentsOfFile: settings.upstreamLog, encoding: .utf8)
    func moment(_ event: String) -> Int64? {
        log.split(separator: "\n").lazy.compactMap { line -> Int64? in
            let prefix = "flaky-upstream \(event) at "
            return line.hasPrefix(prefix) ? Int64(line.dropFirst(prefix.count)) : nil
        }.first
    }
    guard let downAt = moment("down"), let upAt = moment("up") else {
        throw Options.Problem(description: "\(settings.upstreamLog) has no 'down at' and 'up at' lines")
    }
    return result(sent, start: startMilliseconds, downAt: downAt, upAt: upAt)
}

do {
    print(settings.simulate ? try await simulated() : try await measured())
} catch {
    FileHandle.standardError.write(Data("recovery-run: \(error)\n".utf8))
    exit(1)
}
