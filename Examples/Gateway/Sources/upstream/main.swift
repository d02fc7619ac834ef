// The canned envelope API behind the gateway (see `Upstream` in GatewayKit).
//
//   upstream [--port 8081] [--host 127.0.0.1]
//
// When it listens it prints one line, `upstream listening on HOST:PORT`.
import Foundation
import GatewayKit
import Hummingbird
import Logging

let host: String
let port: Int
do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()), known: ["port", "host"])
    host = options.string("host", default: "127.0.0.1")
    port = try options.int("port", default: 8081, in: 0...65535)
} catch {
    FileHandle.standardError.write(Data("upstream: \(error)\nusage: upstream [--port N] [--host ADDRESS]\n".utf8))
    exit(2)
}

var logger = Logger(label: "upstream")
logger.logLevel = .notice
let application = Upstream.application(host: host, port: port, logger: logger) { channel in
    // Written straight to the file descriptor, so the load test sees it at once.
    FileHandle.standardOutput.write(Data("upstream listening on \(host):\(channel.localAddress?.port ?? port)\n".utf8))
}
try await application.runService()
