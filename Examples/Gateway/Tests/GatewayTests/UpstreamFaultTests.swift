import Foundation
import GatewayKit
import SwiftErr
import SwiftErrTesting
import Testing

/// The gateway in front of an upstream that misbehaves for real on 127.0.0.1 (`LoopbackHTTPServer`):
/// it refuses connections, resets them part-way through a body, stalls before and during a body.
/// Each answer is checked with the time it took, and normal requests are served meanwhile.
@Suite("Gateway: a misbehaving upstream is answered 502 in time", .timeLimit(.minutes(2)))
struct UpstreamFaultTests {
    /// A body of `count` bytes announced with its `Content-Length`.
    static func body(_ count: Int) -> Data { Data(repeating: UInt8(ascii: "x"), count: count) }

    /// The time `operation` took.
    static func timed<T>(_ operation: () async throws -> T) async rethrows -> (T, Duration) {
        let start = ContinuousClock.now
        let value = try await operation()
        return (value, ContinuousClock.now - start)
    }

    @Test("refused: 502 well under a second, not at the upstream limit (10 s)")
    func refused() async throws {
        let url = try LoopbackHTTPServer.refusingURL()
        try await GatewayHarness.run(
            upstreamTimeout: .seconds(10), upstream: "http://127.0.0.1:\(url.port!)"
        ) { harness in
            for _ in 0..<5 {
                let (answer, elapsed) = try await Self.timed { try await harness.send("/api/mix/0") }
                #expect(answer.status == 502)
                #expect(answer.body.contains("upstream failed"))
                #expect(elapsed < .seconds(2), "answered after \(elapsed)")
            }
        }
    }

    @Test("reset part-way through a body (Content-Length 100000, 1 KB sent): 502 within the upstream limit")
    func resetMidBody() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/reset", [.init(body: Self.body(100_000), ending: .reset(afterBodyBytes: 1000))])
        server.route("/api/ok", [.envelope(0)])
        try await GatewayHarness.run(
            upstreamTimeout: .seconds(3), upstream: "http://127.0.0.1:\(server.port)"
        ) { harness in
            let (answer, elapsed) = try await Self.timed { try await harness.send("/api/reset") }
            #expect(answer.status == 502)
            #expect(elapsed < .milliseconds(3_500), "answered after \(elapsed)")
            let normal = try await harness.send("/api/ok")
            #expect(normal.status == 200)
        }
    }

    @Test(
        "stalled before the head, or part-way through the body: 502 at the upstream limit, normal requests served meanwhile",
        arguments: [
            LoopbackHTTPServer.Reply.hold,
            LoopbackHTTPServer.Reply(
                body: Data(repeating: 120, count: 100_000), ending: .stall(afterBodyBytes: 1000, duration: .seconds(30))
            ),
        ])
    func stalled(reply: LoopbackHTTPServer.Reply) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/api/stall", [reply])
        server.route("/api/ok", [.envelope(0)])
        try await GatewayHarness.run(
            upstreamTimeout: .seconds(2), upstream: "http://127.0.0.1:\(server.port)"
        ) { harness in
            async let stalled = Self.timed { try await harness.send("/api/stall") }
            while server.requests("/api/stall").isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            for _ in 0..<5 {
                let (normal, elapsed) = try await Self.timed { try await harness.send("/api/ok") }
                #expect(normal.status == 200)
                #expect(elapsed < .seconds(1), "a normal request took \(elapsed) beside the stalled one")
            }
            let (answer, elapsed) = try await stalled
            #expect(answer.status == 502)
            #expect(answer.body.contains("deadline of 2.0 seconds"))
            #expect(elapsed >= .milliseconds(1_900) && elapsed < .milliseconds(3_500), "answered after \(elapsed)")
            #expect(server.requests("/api/stall").count == 1, "no retry after the limit")
        }
    }
}
