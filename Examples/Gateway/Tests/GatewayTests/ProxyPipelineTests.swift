import Foundation
import GatewayKit
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Synchronization
import Testing

/// The gateway's real proxy code with a scripted upstream exchange, through Hummingbird's router
/// without sockets: what the one request pipeline decides for it (attempts, retries, the
/// protection's admissions and what it learns) and what the client is answered.
@Suite("Gateway: the proxy on the request pipeline, with an injected upstream exchange", .timeLimit(.minutes(1)))
struct ProxyPipelineTests {
    /// An upstream played by a function of the attempt's index; records every request it gets.
    final class Scripted: Sendable {
        private let answer: @Sendable (Int, UpstreamRequest) throws -> UpstreamResponse
        private let received = Mutex<[UpstreamRequest]>([])

        init(_ answer: @escaping @Sendable (Int, UpstreamRequest) throws -> UpstreamResponse) {
            self.answer = answer
        }

        var requests: [UpstreamRequest] { received.withLock { $0 } }

        var exchange: UpstreamExchange {
            UpstreamExchange { request in
                let index = self.received.withLock { received in
                    received.append(request)
                    return received.count - 1
                }
                return try self.answer(index, request)
            }
        }
    }

    static let upstream = "http://upstream.test:8081"

    static func envelope(_ code: Int64, status: Int = 200, headers: HTTPHeaders = [:]) -> UpstreamResponse {
        var headers = headers
        headers.add(name: "Content-Type", value: "application/json")
        return UpstreamResponse(
            status: status, headers: headers, body: ByteBuffer(string: #"{"ret":\#(code),"msg":"code \#(code)"}"#))
    }

    static let ok = envelope(0)

    /// A configuration with quick retries and the given protection parts.
    static func configuration(
        budget: RetryBudget? = nil, breaker: CircuitBreaker? = nil, throttle: AdaptiveThrottle? = nil
    ) -> GatewayConfiguration {
        var configuration = GatewayConfiguration(upstream: upstream, upstreamTimeout: .seconds(5))
        configuration.retryPolicy.initialBackoff = .milliseconds(1)
        configuration.retryPolicy.maxBackoff = .milliseconds(2)
        configuration.retryBudget = budget
        configuration.circuitBreaker = breaker
        configuration.throttle = throttle
        return configuration
    }

    struct Answer {
        let status: Int
        let headers: HTTPFields
        let body: String
    }

    /// Sends requests through the gateway's router, as a client would through its listener.
    struct Client {
        let client: any TestClientProtocol

        func send(
            _ path: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: String? = nil
        ) async throws -> Answer {
            let response = try await client.executeRequest(
                uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
            return Answer(
                status: Int(response.status.code), headers: response.headers, body: String(buffer: response.body))
        }

        /// The gateway's `/metrics` as `series → value`.
        func metrics() async throws -> [String: Double] {
            var values: [String: Double] = [:]
            for line in try await send("/metrics").body.split(separator: "\n") where !line.hasPrefix("#") {
                guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...])
                else { continue }
                values[String(line[..<space])] = value
            }
            return values
        }
    }

    static func run(_ gateway: Gateway, _ body: @Sendable (Client) async throws -> Void) async throws {
        try await gateway.application().test(.router) { client in try await body(Client(client: client)) }
    }

    @Test("a GET answered 503 is sent 3 times, the last 503 passed on with its Retry-After; a POST once")
    func serverErrors() async throws {
        let upstream = Scripted { _, _ in Self.envelope(-1, status: 503, headers: ["Retry-After": "7"]) }
        let gateway = Gateway(configuration: Self.configuration(), exchange: upstream.exchange)
        try await Self.run(gateway) { client in
            let answer = try await client.send("/api/item")
            #expect(answer.status == 503)
            #expect(answer.headers[.retryAfter] == "7")
            #expect(upstream.requests.count == 3)
            _ = try await client.send("/api/item", method: .post, body: "x")
            #expect(upstream.requests.count == 4, "a POST is not repeated")
            _ = try await client.send("/api/item", method: .post, headers: [HTTPField.Name("Idempotency-Key")!: "k"])
            #expect(upstream.requests.count == 7, "unless it carries an Idempotency-Key")
        }
    }

    @Test("the policy's statuses decide: 501 and 404 are passed on after one attempt, 429 is retried")
    func policyStatuses() async throws {
        for (status, attempts) in [(501, 1), (404, 1), (429, 3)] {
            let upstream = Scripted { _, _ in Self.envelope(-1, status: status) }
            let gateway = Gateway(configuration: Self.configuration(), exchange: upstream.exchange)
            try await Self.run(gateway) { (client: Client) async throws -> Void in
                let answer = try await client.send("/api/item")
                #expect(answer.status == status)
                #expect(upstream.requests.count == attempts, "\(status)")
            }
        }
    }

    @Test("no answer: 502 after 3 attempts, counted as such; a body over the limit: 502 at once")
    func noAnswer() async throws {
        let refused = Scripted { _, _ in throw POSIXError(.ECONNREFUSED) }
        try await Self.run(Gateway(configuration: Self.configuration(), exchange: refused.exchange)) { client in
            let answer = try await client.send("/api/item")
            #expect(answer.status == 502)
            #expect(answer.body.contains("upstream failed"))
            #expect(refused.requests.count == 3)
            let metrics = try await client.metrics()
            #expect(metrics[#"gateway_upstream_unclassified_total{reason="no_answer"}"#] == 3)
        }
        let large = Scripted { _, _ in throw ResponseBodyTooLargeError(limit: 10, contentLength: 20) }
        try await Self.run(Gateway(configuration: Self.configuration(), exchange: large.exchange)) { client in
            let answer = try await client.send("/api/item")
            #expect(answer.status == 502)
            #expect(answer.body.contains("exceeds the limit of 10 bytes"))
            #expect(large.requests.count == 1)
        }
    }

    @Test("a failure, then the success: the success is passed on; the upstream got the same request twice")
    func retriedIntoSuccess() async throws {
        let upstream = Scripted { index, _ in
            if index == 0 { throw URLError(.networkConnectionLost) }
            return Self.ok
        }
        try await Self.run(Gateway(configuration: Self.configuration(), exchange: upstream.exchange)) { client in
            let answer = try await client.send("/api/item?q=1", headers: [.authorization: "Bearer t"])
            #expect(answer.status == 200)
            let requests = upstream.requests
            #expect(requests.count == 2)
            #expect(requests.allSatisfy { $0.url == Self.upstream + "/api/item?q=1" })
            #expect(requests.allSatisfy { $0.headers.first(name: "Authorization") == "Bearer t" })
            let metrics = try await client.metrics()
            #expect(metrics[#"swifterr_responses_total{tier="success"}"#] == 1)
        }
    }

    @Test("a code the request's catalog flags retryable is sent again; tokenExpire is answered 401 and not")
    func retryableCode() async throws {
        // The built-in catalog with verifyCodeExpire (11002) flagged retryable.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: root.appendingPathComponent("catalog/default.json")))
                as? [String: Any])
        var base = try #require(json["base"] as? [[String: Any]])
        let index = try #require(base.firstIndex { $0["code"] as? Int == 11002 })
        base[index]["flags"] = ["showUser", "retryable"]
        json["base"] = base
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-retryable-\(UUID()).json")
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let catalog = try ReloadableCatalog(contentsOfFile: file.path)
        let upstream = Scripted { _, request in Self.envelope(request.url.hasSuffix("/busy") ? 11002 : 11001) }
        let gateway = Gateway(configuration: Self.configuration(), exchange: upstream.exchange, catalog: catalog)
        try await Self.run(gateway) { client in
            let busy = try await client.send("/api/busy")
            #expect(busy.status == 200)
            #expect(busy.body.contains("11002"))
            #expect(upstream.requests.count == 3)
            #expect(try await client.send("/api/expired").status == 401)
            #expect(upstream.requests.count == 4)
        }
    }

    @Test("a refused request is 503 with Retry-After and never reaches the upstream; /metrics labels it by Upstream")
    func refused() async throws {
        let upstream = Scripted { _, _ in Self.ok }
        let breaker = try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 2, breakDuration: .seconds(30))
        let gateway = Gateway(configuration: Self.configuration(breaker: breaker), exchange: upstream.exchange)
        try await Self.run(gateway) { client in
            // The series of the configured upstream are there from the start, its circuit closed.
            let configured: SwiftErr.Upstream? = .init(url: URL(string: Self.upstream)!)
            let label = try #require(configured).description
            #expect(label == "upstream.test:8081")
            let before = try await client.metrics()
            #expect(
                ProtectionTests.value(before, "swifterr_circuit_state", ["upstream": label, "state": "closed"]) == 1)
            #expect(try await client.send("/api/item").status == 200)
            gateway.protection?.isolate()
            let shed = try await client.send("/api/item")
            #expect(shed.status == 503)
            #expect(shed.body.contains("circuit_isolated"))
            #expect(upstream.requests.count == 1)
            let after = try await client.metrics()
            #expect(
                ProtectionTests.value(
                    after, "swifterr_shed_requests_total", ["upstream": label, "reason": "circuit_isolated"]) == 1)
        }
    }

    @Test("the retry budget: a retry it would refuse is not waited for, and counted")
    func budgetExhausted() async throws {
        let upstream = Scripted { _, _ in throw URLError(.networkConnectionLost) }
        let gateway = Gateway(configuration: Self.configuration(budget: .default), exchange: upstream.exchange)
        try await Self.run(gateway) { client in
            for _ in 0..<4 { #expect(try await client.send("/api/item").status == 502) }
            // 10 tokens, one per failure, retries while more than 5 are left: 3 + 2 + 1 + 1 sends, and
            // the retries after the 5th, 6th and 7th sends refused before their wait.
            #expect(upstream.requests.count == 7)
            let metrics = try await client.metrics()
            #expect(GatewayTests.total(metrics, "swifterr_retry_budget_exhausted_total") == 3)
            #expect(GatewayTests.total(metrics, "swifterr_retries_total") == 3)
        }
    }

    @Test(
        "on a manual clock: the breaker opens, sheds without touching the upstream, and a probe after the break closes it"
    )
    func manualClock() async throws {
        let clock = ManualClock()
        let down = Flag(true)
        let upstream = Scripted { _, _ in down.isSet ? Self.envelope(-1, status: 500) : Self.ok }
        var configuration = Self.configuration(
            breaker: try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 4, breakDuration: .seconds(5)))
        configuration.retryPolicy = .never
        let gateway = Gateway(configuration: configuration, exchange: upstream.exchange, clock: clock)
        try await Self.run(gateway) { client in
            for _ in 0..<4 { #expect(try await client.send("/api/item").status == 500) }
            #expect(gateway.protection?.circuitState == .open)
            let shed = try await client.send("/api/item")
            #expect(shed.status == 503)
            #expect(shed.headers[.retryAfter] == "5")
            #expect(upstream.requests.count == 4)
            down.set(false)
            clock.advance(by: .seconds(4))
            #expect(try await client.send("/api/item").status == 503, "the break is not over")
            clock.advance(by: .seconds(1))
            #expect(try await client.send("/api/item").status == 200)
            #expect(gateway.protection?.circuitState == .closed)
            let metrics = try await client.metrics()
            #expect(GatewayTests.total(metrics, "swifterr_circuit_transitions_total") == 3)
        }
    }
}
