import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@testable import SwiftErr

/// How ``UpstreamProtections`` tells requests apart into upstreams (``UpstreamKeying``): by host and
/// port, by a path prefix, or by a name of the caller's; and what that means for a circuit.
@Suite("UpstreamKeying: which requests share a protection", .timeLimit(.minutes(1)))
struct UpstreamKeyingTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    static func request(_ url: String) -> TransportRequest {
        TransportRequest(url: URL(string: url)!)
    }

    @Test("by host, the default: the host and port; path, query and method play no part")
    func byHost() throws {
        let byDefault = try UpstreamProtections().keying.upstream(Self.request("https://a.example.com/x/y"))
        #expect(byDefault == Upstream(host: "a.example.com", port: 443))
        let keying = UpstreamKeying.host
        let upstream = try #require(keying.upstream(Self.request("https://API.example.com/search/q?x=1")))
        #expect(upstream == Upstream(host: "api.example.com", port: 443))
        #expect(upstream.pathPrefix == nil && upstream.name == nil)
        let post = TransportRequest(url: URL(string: "https://api.example.com:443/orders")!, method: "POST")
        #expect(keying.upstream(post) == upstream)
        #expect(keying.upstream(TransportRequest(url: URL(fileURLWithPath: "/tmp/x"))) == nil)
    }

    @Test(
        "by path prefix: the host, the port and the first segments of the path",
        arguments: [
            (1, "https://api.example.com/search/q?x=1", "api.example.com:443/search"),
            (1, "https://api.example.com/search", "api.example.com:443/search"),
            (1, "http://API.example.com:8080//search//q", "api.example.com:8080/search"),
            (2, "https://api.example.com/v1/orders/7", "api.example.com:443/v1/orders"),
            (2, "https://api.example.com/v1", "api.example.com:443/v1"),
            (1, "https://api.example.com/", "api.example.com:443"),
            (1, "https://api.example.com", "api.example.com:443"),
            (0, "https://api.example.com/v1/orders", "api.example.com:443"),
            (-3, "https://api.example.com/v1/orders", "api.example.com:443"),
        ])
    func byPathPrefix(segments: Int, url: String, described: String) throws {
        let upstream = try #require(UpstreamKeying.pathPrefix(segments: segments).upstream(Self.request(url)))
        #expect(upstream.description == described)
        let host = try #require(Upstream(url: URL(string: url)!))
        #expect(upstream.host == host.host && upstream.port == host.port)
        let prefix = described.firstIndex(of: "/").map { String(described[$0...]) }
        #expect(upstream == Upstream(host: host.host, port: host.port, pathPrefix: prefix))
    }

    @Test("a path prefix with no host is no upstream; the prefix tells upstreams of one host apart")
    func pathPrefixUpstreams() {
        let keying = UpstreamKeying.pathPrefix(segments: 1)
        #expect(keying.upstream(TransportRequest(url: URL(fileURLWithPath: "/search/x"))) == nil)
        let search = keying.upstream(Self.request("https://api.example.com/search/a"))
        #expect(search == keying.upstream(Self.request("https://api.example.com/search/b?q")))
        #expect(search != keying.upstream(Self.request("https://api.example.com/orders/a")))
        #expect(search != keying.upstream(Self.request("https://api.example.com:8443/search/a")))
        #expect(search != UpstreamKeying.host.upstream(Self.request("https://api.example.com/search/a")))
    }

    @Test("custom: requests the rule names alike share one protection; nil sends a request unprotected")
    func custom() throws {
        let protections = try UpstreamProtections(
            keying: .custom { request in
                guard let host = request.url.host, host != "cdn.example.com" else { return nil }
                return host.hasSuffix(".payments.example.com") ? Upstream(name: "payments") : Upstream(url: request.url)
            }, clock: ManualClock())
        let eu = try #require(protections.protection(forSending: Self.request("https://eu.payments.example.com/pay")))
        let us = protections.protection(forSending: Self.request("https://us.payments.example.com:8443/refund"))
        #expect(eu === us)
        #expect(protections.protection(forSending: Self.request("https://api.example.com/")) !== eu)
        #expect(protections.protection(forSending: Self.request("https://cdn.example.com/a.png")) == nil)
        #expect(protections.protection(for: Self.request("https://cdn.example.com/a.png")) == nil)
        #expect(
            Set(protections.upstreams) == [Upstream(name: "payments"), Upstream(host: "api.example.com", port: 443)])
        #expect(protections.protection(for: Upstream(name: "payments")) === eu)
    }

    @Test("a named upstream is its name: described by it, equal only to the same name")
    func named() {
        let payments = Upstream(name: "payments")
        #expect(payments.description == "payments")
        #expect(
            payments.name == "payments" && payments.host.isEmpty && payments.port == nil && payments.pathPrefix == nil)
        #expect(payments == Upstream(name: "payments"))
        #expect(payments != Upstream(name: "Payments"), "names compare exactly")
        #expect(payments != Upstream(host: "payments", port: nil))
        #expect(payments != Upstream(host: "", port: nil))
    }

    @Test(
        "one failing path opens its circuit: under .pathPrefix another path's requests are still sent, under .host they are refused",
        arguments: [true, false])
    func failingPathAndItsNeighbour(byPath: Bool) async throws {
        // /search is down; /class answers.
        let server = SessionServer { _, request, _ in
            request.url.path.hasPrefix("/search") ? SessionServer.status(503) : SessionServer.joined
        }
        let protections = try UpstreamProtections(
            retryBudget: nil,
            circuitBreaker: try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 4, breakDuration: .seconds(5)),
            throttle: nil, keying: byPath ? .pathPrefix(segments: 1) : .host, clock: ManualClock())
        let client = ResponseClient(transport: server, policy: .never, protections: protections)
        func result(_ path: String) async -> Result<ClassItemModel, Failure> {
            await client.result(
                Self.request("http://api.test:8080\(path)"), returning: ClassItemModel.self, module: StudyGroupCode.self
            )
        }
        for _ in 0..<4 {
            guard case .failure(let error) = await result("/search/q") else {
                Issue.record("/search answered")
                return
            }
            #expect(error.statusCode == 503)
        }
        let search = try #require(protections.protection(for: Self.request("http://api.test:8080/search/q")))
        #expect(search.circuitState == .open)
        let neighbour = await result("/class/7")
        if byPath {
            #expect(try neighbour.get().classId == "c-1")
            #expect(server.requests.count == 5)
            #expect(protections.protection(for: Self.request("http://api.test:8080/class"))?.circuitState == .closed)
            #expect(
                Set(protections.upstreams.map(\.description)) == ["api.test:8080/search", "api.test:8080/class"])
        } else {
            guard case .failure(let error) = neighbour else {
                Issue.record("/class was sent through an open circuit")
                return
            }
            #expect(error.refusal?.reason == .circuitOpen)
            #expect(server.requests.count == 4, "refused before it was sent")
            #expect(protections.upstreams.map(\.description) == ["api.test:8080"])
        }
    }
}
