import Foundation
import GatewayKit
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

/// The gateway in front of the canned upstream, both real Hummingbird servers on 127.0.0.1, called
/// over HTTP.
@Suite("Gateway: /api/* proxied and classified, tokenExpire answered 401, /metrics", .timeLimit(.minutes(2)))
struct GatewayTests {
    @Test("a success passes through byte for byte, with the upstream's header fields")
    func success() async throws {
        try await GatewayHarness.run { harness in
            let answer = try await harness.send("/api/mix/0")
            #expect(answer.status == 200)
            #expect(answer.body == Upstream.mix[0].body)
            #expect(answer.header("Content-Type") == "application/json")
        }
    }

    @Test("tokenExpire is answered 401 with the catalog's message, in the client's language")
    func tokenExpire() async throws {
        try await GatewayHarness.run { harness in
            let english = try await harness.send("/api/code/11001")
            #expect(english.status == 401)
            #expect(english.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
            let message = try #require(Catalog.builtIn.entryMessage(at: Self.entry(11001), in: .english))
            #expect(english.body == #"{"ret":11001,"msg":"\#(message)"}"#)
            let chinese = try await harness.send("/api/code/11001", headers: [("Accept-Language", "zh-CN,zh;q=0.9")])
            #expect(chinese.status == 401)
            let chineseMessage = try #require(
                Catalog.builtIn.entryMessage(at: Self.entry(11001), in: .simplifiedChinese))
            #expect(chinese.body == #"{"ret":11001,"msg":"\#(chineseMessage)"}"#)
            // Traditional Chinese never falls back to Simplified: the bodies' other language, English.
            let traditional = try await harness.send("/api/code/11001", headers: [("Accept-Language", "zh-TW")])
            #expect(traditional.body == english.body)
        }
    }

    @Test(
        "every other outcome passes through unchanged: another base code, module codes, an unknown code",
        arguments: [11002, 11004, 11_210_005, 11_219_999, 11_160_003, 99_999_999])
    func otherOutcomes(code: Int) async throws {
        try await GatewayHarness.run { harness in
            let answer = try await harness.send("/api/code/\(code)")
            #expect(answer.status == 200)
            #expect(answer.body == #"{"ret":\#(code),"msg":"code \#(code)","data":null}"#)
        }
    }

    @Test("an upstream status other than 2xx passes through with its Retry-After, unclassified; a 5xx is tried 3 times")
    func upstreamStatus() async throws {
        try await GatewayHarness.run { harness in
            let answer = try await harness.send("/api/status/503")
            #expect(answer.status == 503)
            #expect(answer.header("Retry-After") == "1")
            #expect(answer.body == #"{"ret":-1,"msg":"status 503"}"#)
            let metrics = try await harness.metrics()
            #expect(Self.total(metrics, "swifterr_responses_total") == 0)
            // A 503 is a failure of the upstream: a GET is sent again, twice; every answer is counted.
            #expect(metrics[Self.unclassified(.status5xx)] == 3)
            #expect(Self.total(metrics, "swifterr_retries_total") == 2)
            let notFound = try await harness.send("/api/status/404")
            #expect(notFound.status == 404)
            let after = try await harness.metrics()
            #expect(after[Self.unclassified(.status4xx)] == 1, "a 404 is an answer: sent once")
            #expect(after[Self.unclassified(.status5xx)] == 3)
            #expect(Self.total(after, Gateway.unclassifiedMetricName) == 4)
        }
    }

    @Test("a body that is not an envelope passes through and is counted as such")
    func notAnEnvelope() async throws {
        try await GatewayHarness.run { harness in
            let answer = try await harness.send("/api/html")
            #expect(answer.status == 200)
            #expect(answer.body.contains("maintenance"))
            let metrics = try await harness.metrics()
            #expect(metrics["swifterr_invalid_envelopes_total"] == 1)
        }
    }

    @Test("method, query, Authorization and body reach the upstream")
    func forwarding() async throws {
        try await GatewayHarness.run { harness in
            let answer = try await harness.send(
                "/api/echo?team=T-1", method: .POST, headers: [("Authorization", "Bearer t-9")], body: "hello")
            #expect(answer.status == 200)
            let echo = try #require(
                try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
            let data = try #require(echo["data"] as? [String: Any])
            #expect(data["method"] as? String == "POST")
            #expect(data["uri"] as? String == "/api/echo?team=T-1")
            #expect(data["authorization"] as? String == "Bearer t-9")
            #expect(data["body"] as? String == "hello")
        }
    }

    @Test("/metrics counts every classified answer: 200 requests over the mix, by tier and by code")
    func metricsEqualRequests() async throws {
        try await GatewayHarness.run { harness in
            let count = 200
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for n in 0..<count { group.addTask { try await harness.send("/api/mix/\(n)").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let mix = Upstream.mix
            let expected = (0..<count).map { mix[$0 % mix.count] }
            #expect(statuses.filter { $0 == 401 }.count == expected.filter { $0.code == 11001 }.count)
            #expect(statuses.filter { $0 == 200 }.count == expected.filter { $0.code != 11001 }.count)
            #expect(try await harness.upstreamServed() == count)
            let metrics = try await harness.metrics()
            #expect(Self.total(metrics, "swifterr_responses_total") == Double(count))
            for tier in ["success", "base", "module", "unknown"] {
                let sent = expected.filter { $0.labels.tier == tier }.count
                #expect(metrics["swifterr_responses_total{tier=\"\(tier)\"}"] == Double(sent), "\(tier)")
            }
            #expect(
                metrics[#"swifterr_codes_total{tier="base",module="base",name="tokenExpire"}"#]
                    == Double(expected.filter { $0.code == 11001 }.count))
            #expect(
                metrics[#"swifterr_codes_total{tier="unknown",module="unknown",name="unknown"}"#]
                    == Double(expected.filter { $0.code == 99_999_999 }.count))
            #expect(metrics["swifterr_classification_duration_seconds_count"] == Double(count))
            #expect(Self.total(metrics, Gateway.unclassifiedMetricName) == 0)
            // No series is labelled with a code the catalog does not know.
            #expect(!metrics.keys.contains { $0.contains("99999999") })
        }
    }

    @Test("classification off: everything passes through, tokenExpire stays 200, nothing is counted")
    func classificationOff() async throws {
        try await GatewayHarness.run(classification: false) { harness in
            let answer = try await harness.send("/api/code/11001")
            #expect(answer.status == 200)
            #expect(answer.body == #"{"ret":11001,"msg":"code 11001","data":null}"#)
            let status = try await harness.send("/api/status/503")
            #expect(status.status == 503)
            let metrics = try await harness.metrics()
            #expect(!metrics.keys.contains { $0.hasPrefix("swifterr_") || $0.hasPrefix("gateway_") })
        }
    }

    @Test("an upstream body over the limit is refused with 502; a request body over it with 413")
    func bodyLimits() async throws {
        try await GatewayHarness.run(maxBodyBytes: 4096) { harness in
            let large = try await harness.send("/api/large/100000")
            #expect(large.status == 502)
            #expect(large.body.contains("exceeds the limit of 4096 bytes"))
            let upload = try await harness.send("/api/echo", method: .POST, body: String(repeating: "x", count: 10_000))
            #expect(upload.status == 413)
            let small = try await harness.send("/api/large/100")
            #expect(small.status == 200)
            let metrics = try await harness.metrics()
            #expect(metrics[Self.unclassified(.bodyTooLarge)] == 1)
            #expect(Self.total(metrics, "swifterr_responses_total") == 1)
        }
    }

    @Test("an upstream that cannot be reached is 502, after 3 attempts")
    func upstreamDown() async throws {
        try await GatewayHarness.run(upstreamTimeout: .milliseconds(500), unreachableUpstream: true) { harness in
            let answer = try await harness.send("/api/mix/0")
            #expect(answer.status == 502)
            #expect(answer.body.contains("upstream failed"))
            let metrics = try await harness.metrics()
            #expect(metrics[Self.unclassified(.noAnswer)] == 3)
            #expect(Self.total(metrics, Gateway.unclassifiedMetricName) == 3)
        }
    }

    @Test("/health answers; paths outside /api are not proxied")
    func health() async throws {
        try await GatewayHarness.run { harness in
            let health = try await harness.send("/health")
            #expect(health.status == 200)
            let outside = try await harness.send("/mix")
            #expect(outside.status == 404)
        }
    }

    static func entry(_ code: Int64) throws -> UInt32 {
        try #require(Catalog.builtIn.classify(code).entryIndex)
    }

    /// The series of one reason of `gateway_upstream_unclassified_total`, as Prometheus writes it.
    static func unclassified(_ reason: Gateway.UnclassifiedReason) -> String {
        "\(Gateway.unclassifiedMetricName){reason=\"\(reason.rawValue)\"}"
    }

    static func total(_ metrics: [String: Double], _ name: String) -> Double {
        metrics.filter { $0.key.hasPrefix(name + "{") || $0.key == name }.values.reduce(0, +)
    }
}
