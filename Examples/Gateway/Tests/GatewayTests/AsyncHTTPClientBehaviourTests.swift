import AsyncHTTPClient
import Foundation
import GatewayKit
import NIOCore
import SwiftErrAsyncHTTPClient
import SwiftErrTesting
import Testing

/// What async-http-client does on its own with a misbehaving upstream, the root causes of the two
/// wrong answers the gateway gave: its pool retries refused connections until the deadline, and
/// its deadline does not cover the body.
@Suite("async-http-client alone against a misbehaving upstream", .timeLimit(.minutes(1)))
struct AsyncHTTPClientBehaviourTests {
    static func timed<T>(_ operation: () async throws -> T) async -> (Result<T, any Error>, Duration) {
        let start = ContinuousClock.now
        let result: Result<T, any Error>
        do { result = .success(try await operation()) } catch { result = .failure(error) }
        return (result, ContinuousClock.now - start)
    }

    /// Executes a GET by `deadline` and collects the body, as the gateway did before.
    static func fetch(_ client: HTTPClient, _ url: URL, deadline: TimeAmount) async throws -> Int {
        let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), deadline: .now() + deadline)
        return try await response.collectBody(limit: 1 << 20).readableBytes
    }

    @Test(
        "a refused connection: with the pool's retries (the default) it waits for the deadline; without, it fails at once"
    )
    func refused() async throws {
        let url = try LoopbackHTTPServer.refusingURL("/x")
        let retrying = HTTPClient(eventLoopGroupProvider: .singleton)
        let (first, waited) = await Self.timed { try await Self.fetch(retrying, url, deadline: .seconds(2)) }
        try await retrying.shutdown()
        #expect(throws: (any Error).self) { try first.get() }
        #expect(waited >= .milliseconds(1_800), "failed after \(waited)")
        let gatewayClient = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: GatewayConfiguration(upstream: "http://127.0.0.1").httpClientConfiguration)
        let (second, took) = await Self.timed { try await Self.fetch(gatewayClient, url, deadline: .seconds(2)) }
        try await gatewayClient.shutdown()
        #expect(throws: (any Error).self) { try second.get() }
        #expect(took < .milliseconds(500), "failed after \(took)")
    }

    @Test("the deadline covers the head only: a body stalled past it is still read to the end")
    func deadlineCoversTheHeadOnly() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route(
            "/stall",
            [
                .init(
                    body: Data(repeating: 120, count: 10_000),
                    ending: .stall(afterBodyBytes: 1000, duration: .seconds(2)))
            ])
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let (result, took) = await Self.timed {
            try await Self.fetch(client, server.url("/stall"), deadline: .milliseconds(500))
        }
        try await client.shutdown()
        #expect(try result.get() == 10_000)
        #expect(took >= .milliseconds(1_900), "the body came after \(took), past the 0.5 s deadline")
    }

    @Test("a reset that reaches the client fails the body's read at once: what hangs is a body that merely stops")
    func resetMidBody() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route(
            "/reset", [.init(body: Data(repeating: 120, count: 100_000), ending: .reset(afterBodyBytes: 1000))])
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let (result, took) = await Self.timed {
            try await Self.fetch(client, server.url("/reset"), deadline: .seconds(5))
        }
        try await client.shutdown()
        #expect(throws: (any Error).self) { try result.get() }
        #expect(took < .seconds(1), "failed after \(took)")
    }
}
