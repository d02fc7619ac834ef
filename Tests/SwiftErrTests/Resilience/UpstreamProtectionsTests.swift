import Foundation
import SwiftErrTesting
import Testing

@testable import SwiftErr

/// The registry of protections per upstream: how upstreams are told apart, the function that makes
/// their protections, the bound on how many it keeps and what it forgets, and many threads at once.
@Suite("UpstreamProtections: one protection per host and port, bounded", .timeLimit(.minutes(1)))
struct UpstreamProtectionsTests {
    /// A breaker that opens on the first failure (1 outcome, ratio 0.5), a 5 s break.
    static func touchyBreaker() throws -> CircuitBreaker {
        try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 1, breakDuration: .seconds(5))
    }

    /// A request to an upstream known by its host and port.
    static func request(_ upstream: Upstream) -> TransportRequest {
        TransportRequest(url: URL(string: "http://\(upstream.host):\(upstream.port ?? 80)/")!)
    }

    /// The protection a request to `upstream` is sent with, made on first use.
    static func sending(_ protections: UpstreamProtections, _ upstream: Upstream) -> UpstreamProtection? {
        protections.protection(forSending: request(upstream))
    }

    /// Fails one attempt through `protection`.
    static func fail(_ protection: UpstreamProtection?) throws {
        let protection = try #require(protection)
        protection.record(.failure(.transport), for: try protection.admit())
    }

    @Test(
        "an upstream is a host and a port: case, default ports and paths play no part",
        arguments: [
            ("https://API.example.com/v1/classes?x=1", "api.example.com", 443),
            ("https://api.example.com:443/login", "api.example.com", 443),
            ("http://api.example.com", "api.example.com", 80),
            ("https://api.example.com:8443/", "api.example.com", 8443),
            ("ws://chat.example.com/socket", "chat.example.com", 80),
            ("wss://chat.example.com/socket", "chat.example.com", 443),
            ("http://127.0.0.1:8080/class", "127.0.0.1", 8080),
        ])
    func keys(url: String, host: String, port: Int) throws {
        let upstream = try #require(Upstream(url: URL(string: url)!))
        #expect(upstream == Upstream(host: host, port: port))
        #expect(upstream.description == "\(host):\(port)")
    }

    @Test("a URL without a host has no upstream, and is not protected; an unknown scheme has no default port")
    func hostless() throws {
        let protections = try UpstreamProtections()
        #expect(Upstream(url: URL(fileURLWithPath: "/tmp/x")) == nil)
        #expect(protections.protection(forSending: TransportRequest(url: URL(fileURLWithPath: "/tmp/x"))) == nil)
        #expect(protections.protection(for: URL(fileURLWithPath: "/tmp/x")) == nil)
        #expect(protections.upstreams.isEmpty)
        let ftp = try #require(Upstream(url: URL(string: "ftp://files.example.com/a")!))
        #expect(ftp.port == nil && ftp.description == "files.example.com")
        #expect(Upstream(host: "Files.Example.COM", port: nil) == ftp)
    }

    @Test("the same upstream gets the same protection, another host or port another one")
    func samePerUpstream() throws {
        let protections = try UpstreamProtections()
        func sending(_ url: String) -> UpstreamProtection? {
            protections.protection(forSending: TransportRequest(url: URL(string: url)!))
        }
        let a = try #require(sending("http://127.0.0.1:8080/a"))
        let b = try #require(sending("http://127.0.0.1:8080/b?q"))
        let other = try #require(sending("http://127.0.0.1:8081/a"))
        #expect(a === b)
        #expect(a !== other)
        #expect(
            Set(protections.upstreams) == [
                Upstream(host: "127.0.0.1", port: 8080), Upstream(host: "127.0.0.1", port: 8081),
            ])
        // Each has the parts asked for.
        #expect(a.retryBudget != nil && a.circuitBreaker != nil && a.throttle != nil)
        let breakerOnly = try UpstreamProtections(retryBudget: nil, throttle: nil)
        let protection = try #require(Self.sending(breakerOnly, Upstream(host: "h", port: 1)))
        #expect(protection.retryBudget == nil && protection.circuitBreaker != nil && protection.throttle == nil)
    }

    @Test(
        "the function makes each upstream's protection once; nil leaves it unprotected; a shared protection stays shared"
    )
    func factory() throws {
        let calls = Locked<[Upstream]>([])
        let shared = UpstreamProtection(retryBudget: nil, throttle: nil)
        let protections = try UpstreamProtections { upstream in
            calls.withLock { $0.append(upstream) }
            switch upstream.host {
            case "search.example.com": return shared
            case "cdn.example.com": return nil
            default: return UpstreamProtection()
            }
        }
        let search = Upstream(host: "search.example.com", port: 443)
        let cdn = Upstream(host: "cdn.example.com", port: 443)
        func sending(_ upstream: Upstream) -> UpstreamProtection? {
            protections.protection(forSending: TransportRequest(url: URL(string: "https://\(upstream.host)/a")!))
        }
        #expect(sending(search) === shared)
        #expect(sending(search) === shared)
        #expect(sending(cdn) == nil)
        #expect(sending(cdn) == nil)
        #expect(sending(Upstream(host: "api.example.com", port: 443)) !== shared)
        #expect(calls.withLock { $0 } == [search, cdn, Upstream(host: "api.example.com", port: 443)])
        #expect(protections.protection(for: search) === shared, "a read finds what the send made")
        #expect(Set(protections.upstreams) == [search, cdn, Upstream(host: "api.example.com", port: 443)])
    }

    @Test("reading makes nothing: before the first send every lookup is nil and the function is not called")
    func readsMakeNothing() throws {
        let calls = Locked(0)
        let protections = try UpstreamProtections { _ in
            calls.withLock { $0 += 1 }
            return UpstreamProtection()
        }
        let url = URL(string: "https://api.example.com/v1/classes")!
        let upstream = Upstream(host: "api.example.com", port: 443)
        #expect(protections.protection(for: TransportRequest(url: url)) == nil)
        #expect(protections.protection(for: url) == nil)
        #expect(protections.protection(for: upstream) == nil)
        #expect(protections.upstreams.isEmpty)
        #expect(calls.withLock { $0 } == 0)
        let made = try #require(protections.protection(forSending: TransportRequest(url: url, method: "POST")))
        #expect(calls.withLock { $0 } == 1)
        #expect(protections.protection(for: TransportRequest(url: url)) === made)
        #expect(protections.protection(for: URL(string: "https://API.example.com/login")!) === made)
        #expect(protections.protection(for: upstream) === made)
        #expect(protections.protection(for: URL(string: "https://api.example.com:8443/")!) == nil, "another port")
        #expect(calls.withLock { $0 } == 1)
        #expect(protections.upstreams == [upstream])
    }

    @Test(
        "reading is not a use: a full registry forgets the upstream sent to least recently, however often it was read")
    func readsKeepTheOrderOfUse() throws {
        let protections = try UpstreamProtections(capacity: 2, clock: ManualClock())
        let (old, recent, new) = (
            Upstream(host: "h1", port: 80), Upstream(host: "h2", port: 80), Upstream(host: "h3", port: 80)
        )
        let first = try #require(Self.sending(protections, old))
        _ = Self.sending(protections, recent)
        for _ in 0..<10 { #expect(protections.protection(for: old) === first) }
        _ = Self.sending(protections, new)
        #expect(Set(protections.upstreams) == [recent, new], "reading h1 did not make it recent")
        #expect(protections.protection(for: old) == nil)
        #expect(Self.sending(protections, old) !== first, "sent to again: a new protection")
    }

    @Test("a capacity below 1 is a configuration error naming the setting")
    func badCapacity() {
        #expect(
            throws: ResilienceConfigurationError(
                setting: "UpstreamProtections.capacity", value: "0", requirement: "at least 1")
        ) { try UpstreamProtections(capacity: 0) }
        #expect(throws: ResilienceConfigurationError.self) { try UpstreamProtections(capacity: -5) { _ in nil } }
    }

    @Test("full: a new upstream takes the place of the least recently used one that holds nothing back")
    func evictsLeastRecentlyUsed() throws {
        let protections = try UpstreamProtections(capacity: 3, clock: ManualClock())
        let hosts = (1...4).map { Upstream(host: "h\($0)", port: 80) }
        let first = try #require(Self.sending(protections, hosts[0]))
        _ = Self.sending(protections, hosts[1])
        _ = Self.sending(protections, hosts[2])
        #expect(Self.sending(protections, hosts[0]) === first, "h1 used again: h2 is now the least recent")
        _ = Self.sending(protections, hosts[3])
        #expect(Set(protections.upstreams) == [hosts[0], hosts[2], hosts[3]])
        #expect(protections.protection(for: hosts[0]) === first)
    }

    @Test("an open circuit is never forgotten; once every upstream holds something back, a new one is unprotected")
    func keepsWhatHoldsBack() throws {
        let clock = ManualClock()
        let protections = try UpstreamProtections(
            retryBudget: nil, circuitBreaker: try Self.touchyBreaker(), throttle: nil, capacity: 2, clock: clock)
        let down = Upstream(host: "down", port: 80)
        let alsoDown = Upstream(host: "also-down", port: 80)
        try Self.fail(Self.sending(protections, down))
        try Self.fail(Self.sending(protections, alsoDown))
        #expect(protections.protection(for: down)?.circuitState == .open)
        // A flood of new hosts cannot push out the open circuits.
        for index in 0..<100 {
            #expect(Self.sending(protections, Upstream(host: "new-\(index)", port: 80)) == nil)
        }
        #expect(Set(protections.upstreams) == [down, alsoDown])
        #expect(throws: UpstreamRefusal.self) { try Self.sending(protections, down)?.admit() }
        // Once the break is over, the next request would be a probe: nothing is held back any more,
        // so the least recently used of the two makes room.
        clock.advance(by: .seconds(5))
        let fresh = try #require(Self.sending(protections, Upstream(host: "fresh", port: 80)))
        #expect(fresh.circuitState == .closed)
        #expect(
            Set(protections.upstreams) == [down, Upstream(host: "fresh", port: 80)], "also-down was used least recently"
        )
    }

    @Test("an isolated circuit, a shedding throttle or a spent retry budget hold back too")
    func otherPartsHoldBack() throws {
        let clock = ManualClock()
        let isolated = UpstreamProtection(clock: clock)
        isolated.isolate()
        #expect(isolated.isHoldingBack)
        let spent = UpstreamProtection(
            retryBudget: try RetryBudget(maxTokens: 2), circuitBreaker: nil, throttle: nil, clock: clock)
        #expect(!spent.isHoldingBack)
        spent.record(.failure(.transport), for: try spent.admit())
        #expect(spent.isHoldingBack, "1 token of 2 left: retries refused")
        let shedding = UpstreamProtection(
            retryBudget: nil, circuitBreaker: nil, throttle: try AdaptiveThrottle(minimumRequests: 1), clock: clock)
        shedding.record(.failure(.serverError), for: try shedding.admit())
        #expect(shedding.isHoldingBack, "one failed request of one: probability ½")
        #expect(!UpstreamProtection(clock: clock).isHoldingBack)
    }

    @Test("mayRetry: the budget must permit a retry and the circuit must not be refusing everything by then")
    func mayRetry() throws {
        let clock = ManualClock()
        let protection = UpstreamProtection(
            retryBudget: try RetryBudget(maxTokens: 4), circuitBreaker: try Self.touchyBreaker(), throttle: nil,
            clock: clock)
        #expect(protection.mayRetry(after: .milliseconds(20)))
        protection.record(.failure(.transport), for: try protection.admit())
        #expect(protection.circuitState == .open)
        #expect(!protection.mayRetry(after: .seconds(1)), "still open in 1 s")
        #expect(protection.mayRetry(after: .seconds(5)), "the break is over by then: a probe would pass")
        let spent = UpstreamProtection(
            retryBudget: try RetryBudget(maxTokens: 4), circuitBreaker: nil, throttle: nil, clock: clock)
        for _ in 0..<2 { spent.record(.failure(.transport), for: try spent.admit()) }
        #expect(spent.retryBudget?.tokens == 2)
        #expect(!spent.mayRetry(after: .zero), "2 tokens of 4: half or fewer left")
        let isolated = UpstreamProtection(clock: clock)
        isolated.isolate()
        #expect(!isolated.mayRetry(after: .seconds(86_400 * 365)), "isolated until reset, however long the wait")
        #expect(UpstreamProtection(retryBudget: nil, circuitBreaker: nil, throttle: nil).mayRetry(after: .zero))
    }

    @Test("many tasks asking for the same upstreams at once share one protection each")
    func concurrent() async throws {
        let made = Locked(0)
        let protections = try UpstreamProtections { _ in
            made.withLock { $0 += 1 }
            return UpstreamProtection()
        }
        let upstreams = (0..<4).map { Upstream(host: "h\($0)", port: 80) }
        let seen = await withTaskGroup(of: (Int, ObjectIdentifier?).self) { group in
            for index in 0..<400 {
                group.addTask {
                    let slot = index % 4
                    return (slot, Self.sending(protections, upstreams[slot]).map(ObjectIdentifier.init))
                }
            }
            return await group.reduce(into: [Int: Set<ObjectIdentifier?>]()) { $0[$1.0, default: []].insert($1.1) }
        }
        #expect(seen.count == 4)
        #expect(seen.values.allSatisfy { $0.count == 1 && $0.first! != nil })
        #expect(protections.upstreams.count == 4)
        #expect(made.withLock { $0 } >= 4)
    }
}
