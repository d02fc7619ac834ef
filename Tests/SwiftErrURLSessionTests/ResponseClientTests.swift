import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import SwiftErrURLSession
import Testing

/// The one-call request on URLSession against a real HTTP server on 127.0.0.1 that each test
/// starts (``LoopbackHTTPServer``): no mock transport. Backoffs are a few milliseconds, and the
/// only real waits are the server's `Retry-After: 1`.
///
/// Timing bounds leave room for a busy machine: the whole test run shares two cores, and
/// synchronous suites can hold the concurrency pool for seconds. A limit under test is short
/// (300 ms) and what it cuts off is long (a 20 s server delay, a 30 s `Retry-After`), so "cut off"
/// and "not cut off" stay apart however late a task is scheduled.
@Suite("ResponseClient: one call for a whole request, against a loopback server", .timeLimit(.minutes(1)))
struct ResponseClientTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    /// Three attempts, a 20 ms first backoff.
    static let fast = RetryPolicy(
        maxAttempts: 3, initialBackoff: .milliseconds(20), multiplier: 2, maxBackoff: .milliseconds(100))

    static let joined = #"{"ret":0,"msg":"ok","data":{"classId":"c-1","name":"Class 3-2"}}"#

    /// A server, and a client on its own ephemeral session whose base handler counts its calls.
    struct Setup {
        let server: LoopbackHTTPServer
        let client: ResponseClient
        let baseEvents = Locked<[BaseCodeEvent]>([])

        init(policy: RetryPolicy = ResponseClientTests.fast, timeouts: ResponseClient.Timeouts = .none) throws {
            server = try LoopbackHTTPServer()
            let events = baseEvents
            let decoder = ResponseDecoder(
                baseHandler: BaseCodeHandler { event in events.withLock { $0.append(event) } })
            client = ResponseClient(
                session: URLSession(configuration: .ephemeral), decoder: decoder, policy: policy, timeouts: timeouts)
        }

        func request(_ path: String, method: String = "GET", headers: [String: String] = [:]) -> URLRequest {
            var request = URLRequest(url: server.url(path))
            request.httpMethod = method
            if method == "POST" { request.httpBody = Data(#"{"name":"Class 3-2"}"#.utf8) }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            return request
        }

        /// The outcome of one GET (or another method) for the study-group module.
        func result(
            _ path: String, method: String = "GET", headers: [String: String] = [:],
            repeatability: ResponseClient.Repeatability = .byMethod
        ) async -> Result<ClassItemModel, Failure> {
            await client.result(
                request(path, method: method, headers: headers), returning: ClassItemModel.self,
                module: StudyGroupCode.self, repeatability: repeatability)
        }

        var baseHandlerCalls: Int { baseEvents.withLock { $0.count } }
    }

    /// The failure of a result, recording an issue when it succeeded.
    static func failure<Model>(_ result: Result<Model, Failure>) -> Failure? {
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return nil
        }
        return error
    }

    /// The time between two recorded requests.
    static func gap(_ requests: [LoopbackHTTPServer.Request], _ first: Int, _ second: Int) -> Duration {
        requests[second].receivedAt - requests[first].receivedAt
    }

    // MARK: - One response, one outcome

    @Test("success: the payload is decoded, in all three forms")
    func success() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.json(Self.joined)])
        let item = try await setup.client.send(
            setup.request("/class"), returning: ClassItemModel.self, module: StudyGroupCode.self)
        #expect(item == ClassItemModel(classId: "c-1", name: "Class 3-2"))
        #expect(try await setup.result("/class").get() == item)
        let handled: Result<ClassItemModel, Failure> = await withCheckedContinuation { continuation in
            setup.client.send(setup.request("/class")) { (result: Result<ClassItemModel, Failure>) in
                continuation.resume(returning: result)
            }
        }
        #expect(try handled.get() == item)
        #expect(setup.server.requests("/class").count == 3)
        #expect(setup.baseHandlerCalls == 0)
    }

    @Test("a module code is the module's case, sent once")
    func moduleCode() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.json(#"{"ret":11210005,"msg":"班级码错误","data":null}"#)])
        do {
            _ = try await setup.client.send(
                setup.request("/class"), returning: ClassItemModel.self, module: StudyGroupCode.self)
            Issue.record("expected a failure")
        } catch .module(.wrongTeamCode) {
            #expect(setup.server.requests("/class").count == 1)
        } catch {
            Issue.record("expected .module(.wrongTeamCode), got \(error)")
        }
    }

    @Test("a base code runs the base handler exactly once and is not retried")
    func baseCode() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.json(#"{"ret":11001,"msg":"token expire"}"#)])
        let error = Self.failure(await setup.result("/class"))
        #expect(error?.baseCode == .tokenExpire)
        #expect(setup.baseHandlerCalls == 1)
        #expect(setup.baseEvents.withLock { $0.first?.serverMessage } == "token expire")
        #expect(setup.server.requests("/class").count == 1)
    }

    @Test("40 concurrent requests answered with a base code: the handler runs once per response")
    func baseCodeConcurrently() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.json(#"{"ret":11001,"msg":"token expire"}"#)])
        let outcomes = await withTaskGroup(of: BaseCode?.self) { group in
            for _ in 0..<40 { group.addTask { Self.failure(await setup.result("/class"))?.baseCode } }
            return await group.reduce(into: [BaseCode?]()) { $0.append($1) }
        }
        #expect(outcomes.count == 40)
        #expect(outcomes.allSatisfy { $0 == .tokenExpire })
        #expect(setup.server.requests("/class").count == 40)
        #expect(setup.baseHandlerCalls == 40)
    }

    @Test("another module's code is an unexpected code keeping its number, sent once")
    func anotherModulesCode() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.json(#"{"ret":11160003,"msg":"tag exists"}"#)])
        let error = Self.failure(await setup.result("/class"))
        #expect(error?.isUnexpectedCode == true)
        #expect(error?.rawCode == 11_160_003)
        #expect(error?.description.contains("owned by module 'tag'") == true)
        #expect(setup.server.requests("/class").count == 1)
        #expect(setup.baseHandlerCalls == 0)
    }

    @Test("a malformed body is an invalid envelope, sent once")
    func malformedBody() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [LoopbackHTTPServer.Reply(body: Data("<html>502 Bad Gateway</html>".utf8))])
        let error = Self.failure(await setup.result("/class"))
        #expect(error?.isInvalidEnvelope == true)
        #expect(setup.server.requests("/class").count == 1)
    }

    @Test(#"{"ret":"11001"} is an invalid envelope (a string code), and no base handler runs"#)
    func stringCode() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.json(#"{"ret":"11001"}"#)])
        let error = Self.failure(await setup.result("/class"))
        #expect(error?.envelopeError?.reason == .codeNotInteger(found: .string, literal: #""11001""#))
        #expect(setup.baseHandlerCalls == 0)
        #expect(setup.server.requests("/class").count == 1)
    }

    @Test("404 is an unacceptable status, final, sent once")
    func notFound() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.status(404)])
        let error = Self.failure(await setup.result("/class"))
        #expect(error?.statusCode == 404)
        #expect(error?.isRetryable == false)
        #expect(setup.server.requests("/class").count == 1)
    }

    // MARK: - Retries

    @Test("500 is retried with backoff until the attempts run out")
    func serverError() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.status(500)])
        let error = Self.failure(await setup.result("/class"))
        #expect(error?.statusCode == 500)
        let requests = setup.server.requests("/class")
        #expect(requests.count == 3)
        // Equal jitter: at least half of 20 ms, then of 40 ms.
        #expect(Self.gap(requests, 0, 1) >= .milliseconds(10))
        #expect(Self.gap(requests, 1, 2) >= .milliseconds(20))
    }

    @Test("503 then success: Retry-After in seconds is honoured")
    func retryAfterSeconds() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.status(503, headers: ["Retry-After": "1"]), .json(Self.joined)])
        let item = try await setup.result("/class").get()
        #expect(item.name == "Class 3-2")
        let requests = setup.server.requests("/class")
        #expect(requests.count == 2)
        #expect(Self.gap(requests, 0, 1) >= .seconds(1), "waited \(Self.gap(requests, 0, 1)), the server asked 1 s")
    }

    @Test("503 then success: Retry-After as an HTTP-date is honoured")
    func retryAfterDate() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let asked = Locked<Date?>(nil)
        setup.server.route("/class") { request in
            guard request.index == 0 else { return .json(Self.joined) }
            // An HTTP-date has whole seconds: the next whole second, plus one.
            let date = Date(timeIntervalSince1970: (request.receivedDate.timeIntervalSince1970 + 1).rounded(.up))
            asked.withLock { $0 = date }
            return .status(503, headers: ["Retry-After": HTTPDate.format(date)])
        }
        let item = try await setup.result("/class").get()
        #expect(item.classId == "c-1")
        let requests = setup.server.requests("/class")
        #expect(requests.count == 2)
        let date = try #require(asked.withLock { $0 })
        #expect(requests[1].receivedDate >= date, "retried at \(requests[1].receivedDate), the server asked \(date)")
    }

    @Test("always 503: sent maxAttempts times, then the status with its Retry-After is thrown")
    func alwaysUnavailable() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.status(503, headers: ["Retry-After": "0"])])
        let error = Self.failure(await setup.result("/class"))
        #expect(error?.statusCode == 503)
        #expect(error?.retryAfter == .seconds(0))
        #expect(setup.server.requests("/class").count == 3)
    }

    @Test("a connection closed without a response is a retryable transport failure")
    func closedWithoutResponse() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.close])
        let error = Self.failure(await setup.result("/class"))
        #expect((error?.underlyingError as? URLError)?.code == .badServerResponse)
        #expect(error?.isRetryable == true)
        #expect(setup.server.requests("/class").count == 3)
        setup.server.route("/once", [.close, .json(Self.joined)])
        #expect(try await setup.result("/once").get().classId == "c-1")
    }

    @Test("the decision hook is asked before each retry; stop ends the request with its own message")
    func decisionHook() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.status(500)])
        let asked = Locked<[Int]>([])
        let result = await setup.client.result(
            setup.request("/class"), returning: ClassItemModel.self, module: StudyGroupCode.self
        ) { context in
            asked.withLock { $0.append(context.attempt) }
            return context.attempt < 2 ? .retry : .stop
        }
        let error = Self.failure(result)
        #expect(error?.userStop?.attempts == 2)
        #expect(error?.errorDescription(in: .english) == "You cancelled the operation.")
        #expect(asked.withLock { $0 } == [1, 2])
        #expect(setup.server.requests("/class").count == 2)
    }

    // MARK: - Time and cancellation

    @Test("cancellation in the middle of a backoff ends the request at once as .cancelled")
    func cancelMidBackoff() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.status(503, headers: ["Retry-After": "30"])])
        let started = ContinuousClock.now
        let task = Task { await setup.result("/class") }
        while setup.server.requests("/class").isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let error = Self.failure(await task.value)
        #expect(error?.isCancelled == true)
        #expect(ContinuousClock.now - started < .seconds(20), "the request waited for Retry-After")
        #expect(setup.server.requests("/class").count == 1)
    }

    @Test("the deadline reached during an attempt cancels it: a deadline timeout, not retried")
    func deadlineDuringAttempt() async throws {
        let setup = try Setup(timeouts: .init(overall: .milliseconds(300)))
        defer { setup.server.stop() }
        // The answer comes after 10 minutes: a request that waited for it would take that long,
        // far beyond what even a loaded machine adds to a 300 ms deadline.
        setup.server.route("/class", [.json(Self.joined, delay: .seconds(600))])
        let started = ContinuousClock.now
        let error = Self.failure(await setup.result("/class"))
        let timeout = try #require(error?.underlyingError as? RequestTimeoutError)
        #expect(timeout.limit == .deadline)
        #expect(error?.isRetryable == false)
        #expect(ContinuousClock.now - started < .seconds(300))
        #expect(setup.server.requests("/class").count == 1)
    }

    @Test("a deadline that the next wait would pass ends the request with the last failure")
    func deadlineBeforeWait() async throws {
        // Waits of 50 ms, then 60 s: the second would end long after the 20 s deadline.
        let policy = RetryPolicy(
            maxAttempts: 5, initialBackoff: .milliseconds(50), multiplier: 1_200, maxBackoff: .seconds(120),
            jitter: .none)
        let setup = try Setup(policy: policy, timeouts: .init(overall: .seconds(20)))
        defer { setup.server.stop() }
        setup.server.route("/class", [.status(500)])
        let started = ContinuousClock.now
        let error = Self.failure(await setup.result("/class"))
        #expect(error?.statusCode == 500)
        #expect(setup.server.requests("/class").count == 2)
        #expect(ContinuousClock.now - started < .seconds(45), "the request waited instead of ending")
    }

    @Test("an attempt that runs out of time is cancelled and retried")
    func attemptTimeout() async throws {
        let setup = try Setup(timeouts: .init(attempt: .milliseconds(500)))
        defer { setup.server.stop() }
        // The first answer comes after 10 minutes: a request that waited for it would take that
        // long, far beyond what even a loaded machine adds to a 500 ms attempt.
        setup.server.route("/class", [.json(Self.joined, delay: .seconds(600)), .json(Self.joined)])
        let started = ContinuousClock.now
        let item = try await setup.result("/class").get()
        #expect(item.classId == "c-1")
        #expect(ContinuousClock.now - started < .seconds(300))
        // At least the attempt that timed out and the one answered; on a machine so loaded that
        // the quick answer too missed the 500 ms, a third.
        #expect(setup.server.requests("/class").count >= 2)
        setup.server.route("/slow", [.json(Self.joined, delay: .seconds(600))])
        let error = Self.failure(await setup.result("/slow", repeatability: .once))
        #expect((error?.underlyingError as? RequestTimeoutError)?.limit == .attempt)
    }

    // MARK: - Idempotency

    @Test("a POST answered 503 is sent once")
    func postSentOnce() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.status(503), .json(Self.joined)])
        let error = Self.failure(await setup.result("/class", method: "POST"))
        #expect(error?.statusCode == 503)
        let requests = setup.server.requests("/class")
        #expect(requests.map(\.method) == ["POST"])
        #expect(requests.first?.body == Data(#"{"name":"Class 3-2"}"#.utf8))
    }

    @Test("a POST marked safe to repeat, or carrying an Idempotency-Key, is retried")
    func postRetriedWhenMarked() async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/marked", [.status(503), .json(Self.joined)])
        #expect(try await setup.result("/marked", method: "POST", repeatability: .safeToRepeat).get().classId == "c-1")
        #expect(setup.server.requests("/marked").map(\.method) == ["POST", "POST"])
        setup.server.route("/keyed", [.status(503), .json(Self.joined)])
        let keyed = await setup.result("/keyed", method: "POST", headers: ["Idempotency-Key": "8e03978e"])
        #expect(try keyed.get().classId == "c-1")
        #expect(setup.server.requests("/keyed").map { $0.headers["idempotency-key"] } == ["8e03978e", "8e03978e"])
    }

    @Test(
        "idempotent methods are retried by default; .once sends any method once",
        arguments: ["GET", "PUT", "DELETE", "OPTIONS"])
    func idempotentMethods(method: String) async throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        setup.server.route("/class", [.status(502), .json(Self.joined)])
        #expect(try await setup.result("/class", method: method).get().classId == "c-1")
        #expect(setup.server.requests("/class").count == 2)
        setup.server.route("/once", [.status(502), .json(Self.joined)])
        #expect(Self.failure(await setup.result("/once", method: method, repeatability: .once))?.statusCode == 502)
        #expect(setup.server.requests("/once").count == 1)
    }
}
