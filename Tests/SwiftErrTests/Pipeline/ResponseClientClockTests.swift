import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@testable import SwiftErr

/// A ``ResponseClient`` given a ``PipelineClock`` over a `ManualClock`: its retry waits, its
/// attempt limit and deadline, the `Retry-After` date it reads against the wall clock it was given,
/// the jitter's random numbers and its wait for a session's refresh all run on that clock, so
/// nothing happens until the test moves it, and minutes pass without waiting for them.
@Suite("ResponseClient on a PipelineClock: waits and limits in simulated time", .timeLimit(.minutes(1)))
struct ResponseClientClockTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    /// Answers each send by its 0-based number; counts the sends.
    final class Scripted: HTTPTransport {
        let answer: @Sendable (Int) async throws -> TransportResponse
        private let sends = Locked(0)

        init(_ answer: @escaping @Sendable (Int) async throws -> TransportResponse) {
            self.answer = answer
        }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let index = sends.withLock { sends in
                defer { sends += 1 }
                return sends
            }
            return try await answer(index)
        }

        var count: Int { sends.withLock { $0 } }
    }

    static let joined = SessionServer.joined
    static let url = URL(string: "http://in-process/class")!
    /// Sun, 06 Nov 1994 08:49:37 GMT, the example date of RFC 9110.
    static let rfcDate = Date(timeIntervalSince1970: 784_111_777)

    /// The manual clock, with a wall clock 7 s before ``rfcDate`` and random numbers of ¼.
    static func time(_ clock: ManualClock) -> PipelineClock {
        PipelineClock(clock, wallClock: { rfcDate.addingTimeInterval(-7) }, random: { 0.25 })
    }

    static func request(_ client: ResponseClient) -> Task<Result<ClassItemModel, Failure>, Never> {
        Task {
            await client.result(TransportRequest(url: url), returning: ClassItemModel.self, module: StudyGroupCode.self)
        }
    }

    @Test("retry waits are the policy's jittered backoffs on the client's clock: nothing is sent again until it moves")
    func retryWaits() async throws {
        let upstream = Scripted { index in index < 2 ? SessionServer.status(503) : Self.joined }
        let clock = ManualClock()
        var client = ResponseClient(
            transport: upstream,
            policy: RetryPolicy(maxAttempts: 3, initialBackoff: .seconds(10), maxBackoff: .seconds(60), jitter: .full))
        client.clock = Self.time(clock)
        let request = Self.request(client)
        await clock.waitForSleepers(1)
        #expect(upstream.count == 1)
        #expect(clock.sleepRequests == [.milliseconds(2500)], "10 s, jittered by the clock's random ¼")
        clock.advance(by: .milliseconds(2500) - .nanoseconds(1))
        #expect(clock.sleeperCount == 1)
        #expect(upstream.count == 1)
        clock.advance(by: .nanoseconds(1))
        await clock.waitForSleepers(1)
        #expect(upstream.count == 2)
        #expect(clock.sleepRequests == [.milliseconds(2500), .seconds(5)], "20 s, jittered")
        clock.advance(by: .seconds(5))
        let result = try #require(await request.value(by: .now + .seconds(60)))
        #expect(try result.get().classId == "c-1")
        #expect(upstream.count == 3)
        #expect(clock.now.offset == .milliseconds(7500))
    }

    @Test("the attempt limit and the request's deadline run on the client's clock")
    func limits() async throws {
        let clock = ManualClock()
        // Never answers: each send ends by its limit.
        let upstream = Scripted { _ in
            try await clock.sleep(for: .seconds(3600))
            return Self.joined
        }
        var client = ResponseClient(
            transport: upstream,
            policy: RetryPolicy(maxAttempts: 3, initialBackoff: .seconds(10), maxBackoff: .seconds(10), jitter: .none),
            timeouts: .init(attempt: .seconds(30), overall: .seconds(45)))
        client.clock = Self.time(clock)
        let request = Self.request(client)
        // The first send and its 30 s limit.
        #expect(await eventually { clock.sleepRequests.count == 2 })
        #expect(Set(clock.sleepRequests) == [.seconds(3600), .seconds(30)])
        clock.advance(by: .seconds(30))
        // The attempt ran out and is retried after 10 s: 40 s, within the deadline.
        #expect(await eventually { clock.sleepRequests.count == 3 })
        #expect(clock.sleepRequests[2] == .seconds(10))
        #expect(upstream.count == 1)
        clock.advance(by: .seconds(10))
        // The second send, cut at the deadline, 5 s later.
        #expect(await eventually { clock.sleepRequests.count == 5 })
        #expect(Set(clock.sleepRequests[3...]) == [.seconds(3600), .seconds(5)])
        clock.advance(by: .seconds(5))
        let result = try #require(await request.value(by: .now + .seconds(60)))
        guard case .failure(let error) = result else {
            Issue.record("expected the deadline, got \(result)")
            return
        }
        let timeout = try #require(error.underlyingError as? RequestTimeoutError)
        #expect(timeout.limit == .deadline)
        #expect(timeout.attempt == 2)
        #expect(timeout.duration == .seconds(45))
        #expect(upstream.count == 2)
        #expect(clock.now.offset == .seconds(45))
    }

    @Test("a Retry-After date is read against the client's wall clock, and waited for on its clock")
    func retryAfterDate() async throws {
        let upstream = Scripted { index in
            index == 0
                ? TransportResponse(
                    statusCode: 503, headerFields: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"], body: Data())
                : Self.joined
        }
        let clock = ManualClock()
        var client = ResponseClient(transport: upstream, policy: RetryPolicy(maxAttempts: 2))
        client.clock = Self.time(clock)
        let request = Self.request(client)
        await clock.waitForSleepers(1)
        #expect(clock.sleepRequests == [.seconds(7)], "the date is 7 s after the wall clock's now")
        clock.advance(by: .seconds(7))
        let result = try #require(await request.value(by: .now + .seconds(60)))
        #expect(try result.get().classId == "c-1")
        #expect(upstream.count == 2)
    }

    @Test("a request waiting for a session's refresh ends at its deadline on the client's clock")
    func sessionWaitDeadline() async throws {
        let gate = AsyncGate()
        let server = SessionServer()
        let session = AuthenticationSession(
            authenticator: BearerTokenAuthenticator(server: server, gate: gate), credential: "t-0", clock: ManualClock()
        )
        let clock = ManualClock()
        var client = ResponseClient(
            transport: server, policy: .never, timeouts: .init(overall: .seconds(20)), authentication: session)
        client.clock = Self.time(clock)
        server.expire()
        let request = Self.request(client)
        #expect(await gate.waitForArrivals(1), "the refresh runs, held")
        // The send's limit, then the wait for the refresh, both until the deadline.
        #expect(await eventually { clock.sleepRequests.count == 2 })
        #expect(clock.sleepRequests == [.seconds(20), .seconds(20)])
        #expect(session.isRefreshing)
        clock.advance(by: .seconds(20))
        let result = try #require(await request.value(by: .now + .seconds(60)))
        guard case .failure(let error) = result else {
            Issue.record("expected the deadline, got \(result)")
            return
        }
        #expect((error.underlyingError as? RequestTimeoutError)?.limit == .deadline)
        #expect(session.isRefreshing, "the refresh goes on")
        gate.open()
        #expect(await eventually { !session.isRefreshing })
        #expect(session.credential == "t-1")
    }
}
