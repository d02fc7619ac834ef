// An upstream that fails on purpose, for the resilience figures (scripts/services/resilience-figures.sh).
//
//   flaky-upstream [--port 0] [--fail-fraction 0.5] [--failure close|status503]
//                  [--answer-code 0] [--down-after-ms 0] [--down-for-ms 0]
//
// Every request to /api/item is answered with the envelope {"ret":<answer-code>} and status 200,
// except an exact share --fail-fraction of them (spread evenly: request i fails when
// floor((i+1)·f) > floor(i·f)), which get --failure: the connection closed without an answer (a
// transport failure) or a 503. With --down-for-ms, the server stops listening --down-after-ms after
// it starts (connections are then refused by the kernel) and listens again on the same port
// --down-for-ms later. GET /served answers the number of /api/item requests received, as text.
//
// It is a LoopbackHTTPServer (SwiftErrTesting): one thread per connection, one request per
// connection. It prints `flaky-upstream listening on 127.0.0.1:PORT`, and `flaky-upstream down at
// MS` / `flaky-upstream up at MS` (wall-clock milliseconds) when it stops and starts listening.
import Foundation
import GatewayKit
import SwiftErrTesting
import Synchronization

let usage = """
    usage: flaky-upstream [--port N] [--fail-fraction F] [--failure close|status503] [--answer-code N]
                          [--down-after-ms N] [--down-for-ms N]
    """

struct Settings {
    var port: UInt16
    var failFraction: Double
    var failure: LoopbackHTTPServer.Reply
    var answerCode: Int64
    var downAfter: Int
    var downFor: Int
}

let settings: Settings
do {
    let options = try Options(
        Array(CommandLine.arguments.dropFirst()),
        known: ["port", "fail-fraction", "failure", "answer-code", "down-after-ms", "down-for-ms"])
    let fraction = Double(options.string("fail-fraction", default: "0")) ?? -1
    guard (0...1).contains(fraction) else { throw Options.Problem(description: "--fail-fraction is between 0 and 1") }
    let failure: LoopbackHTTPServer.Reply
    switch options.string("failure", default: "close") {
    case "close": failure = .close
    case "status503": failure = .status(503)
    case let other: throw Options.Problem(description: "--failure is 'close' or 'status503', not '\(other)'")
    }
    settings = Settings(
        port: UInt16(try options.int("port", default: 0, in: 0...65535)), failFraction: fraction, failure: failure,
        answerCode: Int64(try options.int("answer-code", default: 0)),
        downAfter: try options.int("down-after-ms", default: 0, in: 0...3_600_000),
        downFor: try options.int("down-for-ms", default: 0, in: 0...3_600_000))
} catch {
    FileHandle.standardError.write(Data("flaky-upstream: \(error)\n\(usage)\n".utf8))
    exit(2)
}

/// Counts the /api/item requests across the servers that take turns on the port.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
let served = Counter()

/// Starts a server on `port` with the routes of this upstream.
func start(port: UInt16) throws -> LoopbackHTTPServer {
    let server = try LoopbackHTTPServer(port: port)
    let answer = LoopbackHTTPServer.Reply.envelope(settings.answerCode, message: "answer")
    let fraction = settings.failFraction
    let failure = settings.failure
    server.route("/api/item") { _ in
        let index = Double(served.value.wrappingAdd(1, ordering: .relaxed).oldValue)
        return (((index + 1) * fraction).rounded(.down) > (index * fraction).rounded(.down)) ? failure : answer
    }
    server.route("/served") { _ in .json(String(served.value.load(ordering: .relaxed))) }
    return server
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Wall-clock milliseconds, as resilience-load writes them.
func milliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

var server = try start(port: settings.port)
let port = server.port
say("flaky-upstream listening on 127.0.0.1:\(port)")
if settings.downFor > 0 {
    Thread.sleep(forTimeInterval: Double(settings.downAfter) / 1000)
    server.stop()
    say("flaky-upstream down at \(milliseconds())")
    Thread.sleep(forTimeInterval: Double(settings.downFor) / 1000)
    // The listening socket is closed by the server's accepting thread: try until the port is free.
    var restarted: LoopbackHTTPServer?
    for _ in 0..<200 where restarted == nil {
        restarted = try? start(port: port)
        if restarted == nil { Thread.sleep(forTimeInterval: 0.01) }
    }
    guard let restarted else {
        FileHandle.standardError.write(Data("flaky-upstream: could not listen on \(port) again\n".utf8))
        exit(1)
    }
    server = restarted
    say("flaky-upstream up at \(milliseconds())")
}
while true { Thread.sleep(forTimeInterval: 3600) }
