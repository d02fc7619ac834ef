// The gateway: proxies /api/* to the upstream, classifies every answer, serves /metrics.
//
//   gateway --upstream http://127.0.0.1:8081 [--port 8080] [--host 127.0.0.1]
//           [--classification on|off] [--max-body-bytes 1048576] [--log-level notice]
//           [--attempts 3] [--retry-budget on|off] [--circuit-breaker on|off] [--throttle on|off]
//           [--catalog FILE] [--admin-port N]
//
// With --catalog it classifies with that catalog file (the built-in catalog otherwise) and reads
// it again on SIGHUP and on POST /admin/reload-catalog; a bad file keeps the catalog in use. The
// admin listener runs with --admin-port, on 127.0.0.1 only.
//
// When it listens it prints one line, `gateway listening on HOST:PORT classification=on|off`
// (with the port it got when --port is 0), which the load test reads, and with --admin-port,
// `gateway admin listening on 127.0.0.1:PORT`.
//
// --planted-cost-us N burns N µs of CPU on each classified answer: only the load test's self-test
// sets it, to check that its cost gate catches a dearer classification.
import AsyncHTTPClient
import Foundation
import GatewayKit
import Hummingbird
import Logging
import ServiceLifecycle
import SwiftErr
import SwiftErrCatalogFile

let usage = """
    usage: gateway --upstream URL [--port N] [--host ADDRESS] [--classification on|off]
                   [--max-body-bytes N] [--log-level LEVEL] [--attempts N]
                   [--retry-budget on|off] [--circuit-breaker on|off] [--throttle on|off]
                   [--catalog FILE] [--admin-port N]
    """

let configuration: GatewayConfiguration
let logLevel: Logger.Level
let catalog: ReloadableCatalog
do {
    let options = try Options(
        Array(CommandLine.arguments.dropFirst()),
        known: [
            "upstream", "port", "host", "classification", "max-body-bytes", "log-level", "attempts", "retry-budget",
            "circuit-breaker", "throttle", "catalog", "admin-port", "planted-cost-us",
        ])
    let upstream = options.string("upstream", default: "")
    guard upstream.hasPrefix("http://") || upstream.hasPrefix("https://") else {
        throw Options.Problem(description: "--upstream needs an http:// or https:// URL")
    }
    let level = options.string("log-level", default: "notice")
    guard let parsed = Logger.Level(rawValue: level) else {
        throw Options.Problem(description: "--log-level is one of trace, debug, info, notice, warning, error, critical")
    }
    logLevel = parsed
    let catalogFile = options.string("catalog", default: "")
    var adminPort: Int?
    if options.string("admin-port", default: "") != "" {
        adminPort = try options.int("admin-port", default: 0, in: 0...65535)
    }
    var retryPolicy = GatewayConfiguration.retryPolicy
    retryPolicy.maxAttempts = try options.int("attempts", default: retryPolicy.maxAttempts, in: 1...10)
    configuration = GatewayConfiguration(
        host: options.string("host", default: "127.0.0.1"), port: try options.int("port", default: 8080, in: 0...65535),
        upstream: upstream, classification: try options.flag("classification", default: true),
        maxBodyBytes: try options.int("max-body-bytes", default: 1 << 20, in: 1...(1 << 30)),
        retryPolicy: retryPolicy,
        retryBudget: try options.flag("retry-budget", default: true) ? .default : nil,
        circuitBreaker: try options.flag("circuit-breaker", default: true) ? .default : nil,
        throttle: try options.flag("throttle", default: true) ? .default : nil,
        catalogFile: catalogFile.isEmpty ? nil : catalogFile, adminPort: adminPort,
        plantedClassificationCost: .microseconds(try options.int("planted-cost-us", default: 0, in: 0...1_000_000)))
    if catalogFile.isEmpty {
        catalog = ReloadableCatalog(Catalog.builtIn)
    } else {
        do {
            catalog = try ReloadableCatalog(contentsOfFile: catalogFile)
        } catch {
            // Each problem on its own line, located: PATH:LINE:COLUMN: MESSAGE.
            FileHandle.standardError.write(Data("gateway: cannot load the catalog\n\(error)\n".utf8))
            exit(2)
        }
    }
} catch {
    FileHandle.standardError.write(Data("gateway: \(error)\n\(usage)\n".utf8))
    exit(2)
}

var logger = Logger(label: "gateway")
logger.logLevel = logLevel
let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration.httpClientConfiguration)
let gateway = Gateway(configuration: configuration, httpClient: httpClient, catalog: catalog, logger: logger)
let classification = configuration.classification ? "on" : "off"
let application = gateway.application(logger: logger) { channel in
    let port = channel.localAddress?.port ?? configuration.port
    // Written straight to the file descriptor, so the load test sees it at once.
    let line = "gateway listening on \(configuration.host):\(port) classification=\(classification)\n"
    FileHandle.standardOutput.write(Data(line.utf8))
}
var services: [any Service] = [application]
if configuration.catalogFile != nil {
    services.append(gateway.hangupReloads())
}
if configuration.adminPort != nil {
    services.append(
        gateway.adminApplication(logger: logger) { channel in
            let port = channel.localAddress?.port ?? 0
            FileHandle.standardOutput.write(Data("gateway admin listening on \(Gateway.adminHost):\(port)\n".utf8))
        })
}
let snapshot = gateway.catalog.current.snapshot
logger.notice(
    "catalog '\(snapshot.name)' \(snapshot.identity) in use\(configuration.catalogFile.map { ", from \($0)" } ?? " (built-in)")"
)
do {
    try await ServiceGroup(
        configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    ).run()
} catch {
    logger.error("gateway stopped: \(error)")
}
try await shutDown(httpClient)

/// Closes the client's connections. Called from a function, not the top level, so that the async
/// `shutdown()` is chosen over the one that returns a future.
func shutDown(_ client: HTTPClient) async throws {
    try await client.shutdown()
}
