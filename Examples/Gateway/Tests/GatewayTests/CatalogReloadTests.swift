import AsyncHTTPClient
import Foundation
import GatewayKit
import NIOCore
import SwiftErr
import SwiftErrCatalogFile
import SwiftErrDefaultCatalog
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The gateway's catalog reloaded while it serves: from the admin endpoint and on SIGHUP, the old
/// catalog kept when the new file is bad, the catalog in use shown in /metrics, and the admin
/// listener reachable on 127.0.0.1 only.
@Suite(
    "Gateway: catalog reload (admin endpoint, SIGHUP), bad files kept out, identity in /metrics",
    .timeLimit(.minutes(2)))
struct CatalogReloadTests {
    /// The repository's root (this file is Examples/Gateway/Tests/GatewayTests/CatalogReloadTests.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built-in catalog's tokenExpire message in English.
    static let builtInMessage = "Your session has expired. Please sign in again."

    /// catalog/default.json under another name, with tokenExpire's English message replaced.
    static func catalogFile(name: String, tokenExpire message: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent("catalog/default.json"), encoding: .utf8)
        precondition(text.contains(builtInMessage) && text.contains(#""name": "default""#))
        return text.replacingOccurrences(of: #""name": "default""#, with: #""name": "\#(name)""#)
            .replacingOccurrences(of: builtInMessage, with: message)
    }

    /// A file in a fresh temporary directory, removed when `body` ends.
    static func withCatalogFile(_ text: String, _ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gateway-reload-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("catalog.json")
        try Data(text.utf8).write(to: file)
        try await body(file)
    }

    /// The identity the admin endpoint and /metrics must show for a catalog file.
    static func identity(of file: URL) throws -> String {
        try Catalog(CatalogDefinition(contentsOfFile: file.path)).identity
    }

    /// The `swifterr_catalog_info` series of /metrics.
    static func info(_ metrics: [String: Double]) -> [String: Double] {
        metrics.filter { $0.key.hasPrefix("swifterr_catalog_info{") }
    }

    static func infoSeries(name: String, identity: String) -> String {
        #"swifterr_catalog_info{name="\#(name)",identity="\#(identity)"}"#
    }

    /// The JSON object of an admin answer.
    static func object(_ answer: GatewayHarness.Answer) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
    }

    /// The 401 message the gateway answers tokenExpire with now.
    static func tokenExpireMessage(_ harness: GatewayHarness) async throws -> String? {
        let answer = try await harness.send("/api/code/11001")
        #expect(answer.status == 401)
        return try object(answer)["msg"] as? String
    }

    @Test("POST /admin/reload-catalog swaps the catalog; /metrics and the 401 message follow it")
    func adminReload() async throws {
        try await Self.withCatalogFile(try Self.catalogFile(name: "alpha", tokenExpire: "Alpha: sign in.")) { file in
            let alphaIdentity = try Self.identity(of: file)
            try await GatewayHarness.run(
                catalog: try ReloadableCatalog(contentsOfFile: file.path), catalogFile: file.path, admin: true
            ) { harness in
                #expect(try await Self.tokenExpireMessage(harness) == "Alpha: sign in.")
                let before = try await harness.metrics()
                #expect(Self.info(before) == [Self.infoSeries(name: "alpha", identity: alphaIdentity): 1])
                #expect(before[GatewayCatalog.generationMetricName] == 0)

                try Data(try Self.catalogFile(name: "beta", tokenExpire: "Beta: sign in.").utf8).write(to: file)
                let betaIdentity = try Self.identity(of: file)
                #expect(betaIdentity != alphaIdentity)
                let answer = try await harness.send("/admin/reload-catalog", method: .POST, admin: true)
                #expect(answer.status == 200)
                let reloaded = try Self.object(answer)
                #expect(reloaded["name"] as? String == "beta")
                #expect(reloaded["identity"] as? String == betaIdentity)
                #expect(reloaded["generation"] as? Int == 1)

                #expect(try await Self.tokenExpireMessage(harness) == "Beta: sign in.")
                let after = try await harness.metrics()
                #expect(Self.info(after) == [Self.infoSeries(name: "beta", identity: betaIdentity): 1])
                #expect(after[GatewayCatalog.generationMetricName] == 1)
                #expect(after[#"swifterr_catalog_reloads_total{result="success"}"#] == 1)
                #expect(after[#"swifterr_catalog_reloads_total{result="failure"}"#] == 0)
                let current = try Self.object(try await harness.send("/admin/catalog", admin: true))
                #expect(current["identity"] as? String == betaIdentity)
            }
        }
    }

    @Test("a bad file is refused with its located problems (422), and the catalog in use stays")
    func badFileKeepsOld() async throws {
        try await Self.withCatalogFile(try Self.catalogFile(name: "alpha", tokenExpire: "Alpha: sign in.")) { file in
            let alphaIdentity = try Self.identity(of: file)
            try await GatewayHarness.run(
                catalog: try ReloadableCatalog(contentsOfFile: file.path), catalogFile: file.path, admin: true
            ) { harness in
                // tokenExpire given the code of verifyCodeExpire: a duplicate code, reported on one
                // of the two lines that hold it.
                let good = try Self.catalogFile(name: "beta", tokenExpire: "Beta: sign in.")
                let broken = good.replacingOccurrences(of: #""code": 11001"#, with: #""code": 11002"#)
                let lines = broken.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                    .filter { $0.element.contains(#""code": 11002"#) }.map { $0.offset + 1 }
                #expect(lines.count == 2)
                try Data(broken.utf8).write(to: file)
                let answer = try await harness.send("/admin/reload-catalog", method: .POST, admin: true)
                #expect(answer.status == 422)
                let refusal = try Self.object(answer)
                let problems = try #require(refusal["problems"] as? [String])
                #expect(!problems.isEmpty)
                #expect(problems.allSatisfy { $0.hasPrefix("\(file.path):") })
                #expect(
                    problems.contains { problem in
                        problem.contains("11002") && lines.contains { problem.hasPrefix("\(file.path):\($0):") }
                    }, "\(problems)")
                let kept = try #require(refusal["kept"] as? [String: Any])
                #expect(kept["identity"] as? String == alphaIdentity)

                // Not JSON at all.
                try Data("{\"format\":".utf8).write(to: file)
                let truncated = try await harness.send("/admin/reload-catalog", method: .POST, admin: true)
                #expect(truncated.status == 422)
                let truncatedProblems = try #require(try Self.object(truncated)["problems"] as? [String])
                #expect(truncatedProblems.count == 1)
                #expect(truncatedProblems.first?.hasPrefix("\(file.path):1:") == true)

                // A file that is gone.
                try FileManager.default.removeItem(at: file)
                let missing = try await harness.send("/admin/reload-catalog", method: .POST, admin: true)
                #expect(missing.status == 422)
                #expect(missing.body.contains("No such file or directory"))

                #expect(try await Self.tokenExpireMessage(harness) == "Alpha: sign in.")
                let metrics = try await harness.metrics()
                #expect(Self.info(metrics) == [Self.infoSeries(name: "alpha", identity: alphaIdentity): 1])
                #expect(metrics[#"swifterr_catalog_reloads_total{result="failure"}"#] == 3)
                #expect(metrics[#"swifterr_catalog_reloads_total{result="success"}"#] == 0)
                #expect(metrics[GatewayCatalog.generationMetricName] == 0)
            }
        }
    }

    @Test("without a catalog file the gateway runs on the built-in catalog, and a reload is 409")
    func noFile() async throws {
        try await GatewayHarness.run(admin: true) { harness in
            let metrics = try await harness.metrics()
            #expect(
                Self.info(metrics) == [Self.infoSeries(name: "default", identity: Catalog.builtIn.identity): 1])
            #expect(try await Self.tokenExpireMessage(harness) == Self.builtInMessage)
            let answer = try await harness.send("/admin/reload-catalog", method: .POST, admin: true)
            #expect(answer.status == 409)
            #expect(answer.body.contains("--catalog"))
        }
    }

    @Test("SIGHUP reloads the catalog file")
    func hangup() async throws {
        // SIGHUP ends a process by default: ignored here before anything is sent, so a signal that
        // arrives before the gateway's handler is in place is lost, not fatal (the loop sends again).
        signal(SIGHUP, SIG_IGN)
        try await Self.withCatalogFile(try Self.catalogFile(name: "alpha", tokenExpire: "Alpha: sign in.")) { file in
            try await GatewayHarness.run(
                catalog: try ReloadableCatalog(contentsOfFile: file.path), catalogFile: file.path, hangup: true
            ) { harness in
                try Data(try Self.catalogFile(name: "beta", tokenExpire: "Beta: sign in.").utf8).write(to: file)
                let betaIdentity = try Self.identity(of: file)
                var generation: UInt64 = 0
                for _ in 0..<100 where generation == 0 {
                    kill(getpid(), SIGHUP)
                    try await Task.sleep(for: .milliseconds(50))
                    generation = harness.gateway.catalog.current.snapshot.generation
                }
                #expect(generation >= 1)
                #expect(harness.gateway.catalog.current.snapshot.identity == betaIdentity)
                #expect(try await Self.tokenExpireMessage(harness) == "Beta: sign in.")
                let metrics = try await harness.metrics()
                #expect(Self.info(metrics) == [Self.infoSeries(name: "beta", identity: betaIdentity): 1])
            }
        }
    }

    /// An IPv4 address of this machine that is not a loopback address, if it has one.
    static let externalAddress: String? = {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else {
                continue
            }
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            var copy = ipv4
            guard inet_ntop(AF_INET, &copy, &text, socklen_t(text.count)) != nil else { continue }
            let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !string.hasPrefix("127.") { return string }
        }
        return nil
    }()

    /// Connects a TCP socket to `address:port` and closes it: `0` when the connection was made,
    /// otherwise the `errno` of `connect`.
    static func tcpConnect(to address: String, port: Int) -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else { return EINVAL }
        let status = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return status == 0 ? 0 : errno
    }

    @Test(
        "the admin listener is bound to 127.0.0.1: not reachable on another address of the machine, where the gateway is",
        .enabled(if: externalAddress != nil, "the machine has no IPv4 address but loopback"))
    func adminIsLoopbackOnly() async throws {
        let address = try #require(Self.externalAddress)
        let everyAddress: (inout GatewayConfiguration) -> Void = { $0.host = "0.0.0.0" }
        try await GatewayHarness.run(admin: true, configure: everyAddress) { harness in
            let adminPort = try #require(harness.adminPort)
            // The gateway itself listens on every address: the external address does reach it.
            let health = try await harness.client.execute(
                HTTPClientRequest(url: "http://\(address):\(harness.gatewayPort)/health"), timeout: .seconds(5))
            #expect(health.status.code == 200)
            // The admin port there refuses the connection (the kernel's answer, at once: nothing
            // listens on that address and port), where the gateway's port accepts one.
            #expect(Self.tcpConnect(to: address, port: harness.gatewayPort) == 0)
            #expect(Self.tcpConnect(to: address, port: adminPort) == ECONNREFUSED)
            // On 127.0.0.1 it answers.
            let local = try await harness.send("/admin/catalog", admin: true)
            #expect(local.status == 200)
        }
    }
}
