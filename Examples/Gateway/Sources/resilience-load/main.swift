// A closed-loop load for the resilience figures: --concurrency clients, each sending GET --url
// again as soon as it has an answer, for --seconds. Every answer is written to --samples as one
// line, `<wall-clock ms> <status> <latency µs>` (status 0: no answer), and a summary is printed:
//
//   RESULT requests=N status200=N status502=N status503=N other=N errors=N
//
//   resilience-load --url http://127.0.0.1:8080/api/item [--concurrency 8] [--seconds 10] --samples FILE
import AsyncHTTPClient
import Foundation
import GatewayKit
import NIOCore

let usage = "usage: resilience-load --url URL [--concurrency N] [--seconds N] --samples FILE"

let url: String
let concurrency: Int
let seconds: Int
let samplesPath: String
do {
    let options = try Options(
        Array(CommandLine.arguments.dropFirst()), known: ["url", "concurrency", "seconds", "samples"])
    url = options.string("url", default: "")
    samplesPath = options.string("samples", default: "")
    guard url.hasPrefix("http://"), !samplesPath.isEmpty else {
        throw Options.Problem(description: "--url http://… and --samples FILE are needed")
    }
    concurrency = try options.int("concurrency", default: 8, in: 1...512)
    seconds = try options.int("seconds", default: 10, in: 1...3600)
} catch {
    FileHandle.standardError.write(Data("resilience-load: \(error)\n\(usage)\n".utf8))
    exit(2)
}

/// One answer: when it came (wall-clock milliseconds), its status (0: none), its latency.
struct Sample: Sendable {
    let atMilliseconds: Int64
    let status: Int
    let microseconds: Int64
}

var configuration = HTTPClient.Configuration()
configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
let end = ContinuousClock.now.advanced(by: .seconds(seconds))
let samples = await withTaskGroup(of: [Sample].self) { group in
    for _ in 0..<concurrency {
        group.addTask {
            var mine: [Sample] = []
            while ContinuousClock.now < end {
                let start = ContinuousClock.now
                var status = 0
                do {
                    let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                    _ = try await response.body.collect(upTo: 16 << 20)
                    status = Int(response.status.code)
                } catch {
                    status = 0
                }
                let (s, atto) = (ContinuousClock.now - start).components
                mine.append(
                    Sample(
                        atMilliseconds: Int64(Date().timeIntervalSince1970 * 1000), status: status,
                        microseconds: s * 1_000_000 + atto / 1_000_000_000_000))
            }
            return mine
        }
    }
    var all: [Sample] = []
    for await part in group { all += part }
    return all
}
try await shutDown(client)

/// Closes the client's connections. Called from a function, not the top level, so that the async
/// `shutdown()` is chosen over the one that returns a future.
func shutDown(_ client: HTTPClient) async throws {
    try await client.shutdown()
}

var text = ""
for sample in samples.sorted(by: { $0.atMilliseconds < $1.atMilliseconds }) {
    text += "\(sample.atMilliseconds) \(sample.status) \(sample.microseconds)\n"
}
try text.write(toFile: samplesPath, atomically: true, encoding: .utf8)
func count(_ status: Int) -> Int { samples.filter { $0.status == status }.count }
let known = count(200) + count(502) + count(503) + count(0)
print(
    "RESULT requests=\(samples.count) status200=\(count(200)) status502=\(count(502)) status503=\(count(503))"
        + " other=\(samples.count - known) errors=\(count(0))")
