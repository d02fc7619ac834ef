import AsyncHTTPClient
import Foundation
import GatewayKit
import Hummingbird
import NIOCore
import NIOHTTP1
import SwiftErr

/// The upstream and a gateway in front of it, both running on free ports of 127.0.0.1, and an
/// HTTP client to call the gateway with.
struct GatewayHarness {
    let gatewayPort: Int
    let upstreamPort: Int
    /// The admin listener's port, or `nil` when the test runs none.
    let adminPort: Int?
    let client: HTTPClient
    let gateway: Gateway

    /// A response as the test sees it.
    struct Answer {
        let status: Int
        let headers: [(String, String)]
        let body: String

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    /// Starts the upstream and a gateway in front of it (or in front of a closed port when
    /// `unreachableUpstream`), runs `body`, then shuts every client down and stops both, whether
    /// `body` threw or not.
    /// `upstream` replaces the canned upstream's URL (a `LoopbackHTTPServer`, a refusing port) and
    /// `configure` changes the gateway's settings. `catalog` is the catalog the gateway starts with,
    /// and `catalogFile` the file it reloads (none by default);
    /// `admin` runs the admin listener too (on the configured admin port, a free one by default),
    /// and `hangup` the service that reloads the catalog on `SIGHUP`.
    static func run(
        classification: Bool = true, maxBodyBytes: Int = 1 << 20, upstreamTimeout: Duration = .seconds(5),
        unreachableUpstream: Bool = false, upstream upstreamURL: String? = nil,
        catalog: ReloadableCatalog = ReloadableCatalog(Catalog.builtIn), catalogFile: String? = nil,
        admin: Bool = false, hangup: Bool = false,
        configure: (inout GatewayConfiguration) throws -> Void = { _ in },
        _ body: (GatewayHarness) async throws -> Void
    ) async throws {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let probe = GatewayConfiguration(upstream: "http://127.0.0.1")
        let upstreamClient = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: probe.httpClientConfiguration)
        var clientsShutDown = false
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                let upstream = Upstream.application(port: 0) { channel in
                    portContinuation.yield(channel.localAddress?.port ?? 0)
                }
                group.addTask { try await upstream.runService(gracefulShutdownSignals: []) }
                var iterator = ports.makeAsyncIterator()
                let upstreamPort = await iterator.next() ?? 0
                // Port 9 (discard) is closed on a test machine: connecting to it is refused.
                var configuration = GatewayConfiguration(
                    port: 0, upstream: upstreamURL ?? "http://127.0.0.1:\(unreachableUpstream ? 9 : upstreamPort)",
                    classification: classification, maxBodyBytes: maxBodyBytes, upstreamTimeout: upstreamTimeout)
                configuration.catalogFile = catalogFile
                try configure(&configuration)
                let gateway = Gateway(configuration: configuration, httpClient: upstreamClient, catalog: catalog)
                let application = gateway.application { channel in
                    portContinuation.yield(channel.localAddress?.port ?? 0)
                }
                group.addTask { try await application.runService(gracefulShutdownSignals: []) }
                let gatewayPort = await iterator.next() ?? 0
                var adminPort: Int?
                if admin {
                    let adminApplication = gateway.adminApplication { channel in
                        portContinuation.yield(channel.localAddress?.port ?? 0)
                    }
                    group.addTask { try await adminApplication.runService(gracefulShutdownSignals: []) }
                    adminPort = await iterator.next() ?? 0
                }
                if hangup {
                    let reloads = gateway.hangupReloads()
                    group.addTask { try await reloads.run() }
                }
                defer { group.cancelAll() }
                var failure: (any Error)? = nil
                do {
                    try await body(
                        GatewayHarness(
                            gatewayPort: gatewayPort, upstreamPort: upstreamPort, adminPort: adminPort, client: client,
                            gateway: gateway))
                } catch {
                    failure = error
                }
                // The clients go first, so that no connection is being accepted when the servers'
                // tasks are cancelled: cancelling a server while it activates an accepted connection
                // trips swift-nio's NIOAsyncWriter precondition (apple/swift-nio#2813).
                clientsShutDown = true
                try await client.shutdown()
                try await upstreamClient.shutdown()
                if let failure { throw failure }
            }
        } catch {
            if !clientsShutDown {
                try await client.shutdown()
                try await upstreamClient.shutdown()
            }
            throw error
        }
    }

    /// Sends a request to the gateway (to its admin listener when `admin`).
    func send(
        _ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil,
        admin: Bool = false
    ) async throws -> Answer {
        let port = admin ? (adminPort ?? 0) : gatewayPort
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(20))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return Answer(
            status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
            body: String(buffer: bytes))
    }

    /// How many `/api/mix` requests the upstream has answered.
    func upstreamServed() async throws -> Int {
        let request = HTTPClientRequest(url: "http://127.0.0.1:\(upstreamPort)/served")
        let response = try await client.execute(request, timeout: .seconds(20))
        return Int(String(buffer: try await response.body.collect(upTo: 1024))) ?? -1
    }

    /// The gateway's `/metrics` as `series → value`, the series written as Prometheus writes it
    /// (`swifterr_responses_total{tier="base"}`).
    func metrics() async throws -> [String: Double] {
        let answer = try await send("/metrics")
        var values: [String: Double] = [:]
        for line in answer.body.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            values[String(line[..<space])] = value
        }
        return values
    }
}
