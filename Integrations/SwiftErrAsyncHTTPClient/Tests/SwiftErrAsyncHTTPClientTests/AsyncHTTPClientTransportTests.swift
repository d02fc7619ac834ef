import AsyncHTTPClient
import Foundation
import NIOCore
import SwiftErr
import SwiftErrAsyncHTTPClient
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Synchronization
import Testing

/// ResponseClient's one-call request sent through `HTTPClient` to a real HTTP/1.1 server on
/// 127.0.0.1 that each test starts (`LoopbackHTTPServer`): no mock transport.
///
/// Limits under test are short and what they cut off is long (a server that never answers), so a
/// busy machine cannot blur "cut off" and "not cut off".
@Suite(
    "AsyncHTTPClientTransport: the one-call request on HTTPClient, against a loopback server", .timeLimit(.minutes(1)))
struct AsyncHTTPClientTransportTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    struct ClassItem: Decodable, Equatable, Sendable {
        let classId: String
        let name: String
    }

    static let joined = #"{"ret":0,"msg":"ok","data":{"classId":"c-1","name":"Class 3-2"}}"#

    /// Three attempts, a 20 ms first backoff.
    static let fast = RetryPolicy(
        maxAttempts: 3, initialBackoff: .milliseconds(20), multiplier: 2, maxBackoff: .milliseconds(100))

    /// What the base handler was called with.
    final class Events: Sendable {
        let list = Mutex<[BaseCodeEvent]>([])
        var count: Int { list.withLock { $0.count } }
    }

    /// A server, an HTTP client of the test's own, and a ResponseClient over it whose base handler
    /// records its calls.
    struct Setup {
        let server: LoopbackHTTPServer
        let httpClient: HTTPClient
        let client: ResponseClient
        let events = Events()

        init(
            maxBodyBytes: Int = AsyncHTTPClientTransport.defaultMaxBodyBytes,
            policy: RetryPolicy = AsyncHTTPClientTransportTests.fast, timeouts: ResponseClient.Timeouts = .none
        ) async throws {
            server = try LoopbackHTTPServer()
            httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
            let events = self.events
            client = ResponseClient(
                transport: AsyncHTTPClientTransport(client: httpClient, maxBodyBytes: maxBodyBytes),
                decoder: ResponseDecoder(
                    baseHandler: BaseCodeHandler { event in events.list.withLock { $0.append(event) } }),
                policy: policy, timeouts: timeouts)
        }

        func request(_ path: String, method: String = "GET") -> TransportRequest {
            TransportRequest(url: server.url(path), method: method)
        }

        func result(_ path: String) async -> Result<ClassItem, Failure> {
            await client.result(request(path), returning: ClassItem.self, module: StudyGroupCode.self)
        }

        func tearDown() async throws {
            try await httpClient.shutdown()
            server.stop()
        }
    }

    /// Runs `body` with a new setup and always shuts its client and server down (an `HTTPClient`
    /// must be shut down before it is released).
    static func withSetup(
        maxBodyBytes: Int = AsyncHTTPClientTransport.defaultMaxBodyBytes, policy: RetryPolicy = fast,
        timeouts: ResponseClient.Timeouts = .none, _ body: (Setup) async throws -> Void
    ) async throws {
        let setup = try await Setup(maxBodyBytes: maxBodyBytes, policy: policy, timeouts: timeouts)
        do {
            try await body(setup)
        } catch {
            try await setup.tearDown()
            throw error
        }
        try await setup.tearDown()
    }

    static func failure<Model>(_ result: Result<Model, Failure>) -> Failure? {
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return nil
        }
        return error
    }

    // MARK: - One response, one outcome

    @Test("success: the payload is decoded; method, header fields and body reach the server")
    func success() async throws {
        try await Self.withSetup { setup in
            setup.server.route("/class", [.json(Self.joined)])
            var request = setup.request("/class", method: "PUT")
            request.setValue("Bearer t-1", forHeader: "Authorization")
            request.body = Data(#"{"name":"Class 3-2"}"#.utf8)
            let item = try await setup.client.send(request, returning: ClassItem.self, module: StudyGroupCode.self)
            #expect(item == ClassItem(classId: "c-1", name: "Class 3-2"))
            #expect(try await setup.result("/class").get() == item)
            let received = setup.server.requests("/class")
            #expect(received.count == 2)
            #expect(received.first?.method == "PUT")
            #expect(received.first?.header("Authorization") == "Bearer t-1")
            #expect(received.first.map { String(decoding: $0.body, as: UTF8.self) } == #"{"name":"Class 3-2"}"#)
            #expect(received.last?.method == "GET")
            #expect(setup.events.count == 0)
        }
    }

    @Test("a module code is the module's case, sent once")
    func moduleCode() async throws {
        try await Self.withSetup { setup in
            setup.server.route("/class", [.json(#"{"ret":11210005,"msg":"班级码错误","data":null}"#)])
            let error = Self.failure(await setup.result("/class"))
            #expect(error?.moduleCode == .wrongTeamCode)
            #expect(setup.server.requests("/class").count == 1)
            #expect(setup.events.count == 0)
        }
    }

    @Test("a base code runs the base handler exactly once and is not retried")
    func baseCode() async throws {
        try await Self.withSetup { setup in
            setup.server.route("/class", [.json(#"{"ret":11001,"msg":"token expire"}"#)])
            let error = Self.failure(await setup.result("/class"))
            #expect(error?.baseCode == .tokenExpire)
            #expect(setup.events.count == 1)
            #expect(setup.events.list.withLock { $0.first?.serverMessage } == "token expire")
            #expect(setup.events.list.withLock { $0.first?.requiresReauthentication } == true)
            #expect(setup.server.requests("/class").count == 1)
        }
    }

    // MARK: - Status and retries

    @Test("503 with Retry-After: 1, then success: the wait is the server's, then the payload")
    func retryAfterThenSuccess() async throws {
        try await Self.withSetup { setup in
            setup.server.route("/class", [.status(503, headers: ["Retry-After": "1"]), .json(Self.joined)])
            let item = try await setup.result("/class").get()
            #expect(item.classId == "c-1")
            let requests = setup.server.requests("/class")
            #expect(requests.count == 2)
            if requests.count == 2 {
                let gap = requests[1].receivedAt - requests[0].receivedAt
                #expect(gap >= .seconds(1), "waited \(gap), the server asked 1 s")
            }
        }
    }

    @Test("always 503: sent maxAttempts times, then the status with its Retry-After")
    func alwaysUnavailable() async throws {
        try await Self.withSetup { setup in
            setup.server.route("/class", [.status(503, headers: ["Retry-After": "0"])])
            let error = Self.failure(await setup.result("/class"))
            #expect(error?.statusCode == 503)
            #expect(error?.retryAfter == .seconds(0))
            #expect(setup.server.requests("/class").count == 3)
        }
    }

    // MARK: - Body size limit

    @Test("a Content-Length over the limit is refused before the body is read, and not retried")
    func contentLengthOverLimit() async throws {
        try await Self.withSetup(maxBodyBytes: 1024) { setup in
            let big = #"{"ret":0,"msg":""# + String(repeating: "x", count: 4096) + #""}"#
            setup.server.route("/class", [.json(big)])
            let error = Self.failure(await setup.result("/class"))
            let tooLarge = try #require(error?.underlyingError as? ResponseBodyTooLargeError)
            #expect(
                tooLarge == ResponseBodyTooLargeError(limit: 1024, contentLength: Int64(big.utf8.count), received: 0))
            #expect(error?.isRetryable == false)
            #expect(setup.server.requests("/class").count == 1)
        }
    }

    @Test("a chunked body is refused as soon as it passes the limit, and not retried")
    func chunkedOverLimit() async throws {
        try await Self.withSetup(maxBodyBytes: 64 * 1024) { setup in
            setup.server.route(
                "/class", [LoopbackHTTPServer.Reply(body: Data(repeating: 0x20, count: 8 << 20), chunkSize: 16 * 1024)])
            let error = Self.failure(await setup.result("/class"))
            let tooLarge = try #require(error?.underlyingError as? ResponseBodyTooLargeError)
            #expect(tooLarge.limit == 64 * 1024)
            #expect(tooLarge.contentLength == nil)
            #expect(tooLarge.received > 64 * 1024)
            // Stopped within a few network reads of the limit, far from the 8 MiB the server sent.
            #expect(tooLarge.received < 1 << 20)
            #expect(setup.server.requests("/class").count == 1)
        }
    }

    @Test("a body of exactly the limit is accepted")
    func bodyAtLimit() async throws {
        let body = Self.joined
        try await Self.withSetup(maxBodyBytes: body.utf8.count) { setup in
            setup.server.route("/class", [.json(body)])
            let item = try await setup.result("/class").get()
            #expect(item.classId == "c-1")
        }
    }

    // MARK: - Connections, time limits and cancellation

    @Test("a connection closed without a response is URLError.networkConnectionLost, retried until it answers")
    func connectionClosed() async throws {
        try await Self.withSetup { setup in
            setup.server.route("/class", [.close])
            let error = Self.failure(await setup.result("/class"))
            let lost = try #require(error?.underlyingError as? URLError)
            #expect(lost.code == .networkConnectionLost)
            #expect(lost.userInfo[NSUnderlyingErrorKey] as? HTTPClientError == .remoteConnectionClosed)
            #expect(error?.isRetryable == true)
            #expect(setup.server.requests("/class").count == 3)
            setup.server.route("/once", [.close, .json(Self.joined)])
            #expect(try await setup.result("/once").get().classId == "c-1")
            #expect(setup.server.requests("/once").count == 2)
        }
    }

    @Test("an attempt limit cancels the HTTPClient request of a server that never answers")
    func attemptLimit() async throws {
        try await Self.withSetup(policy: .never, timeouts: .init(attempt: .milliseconds(300))) { setup in
            setup.server.route("/class", [.hold])
            // The server never answers: only the attempt limit can end this request.
            let error = Self.failure(await setup.result("/class"))
            #expect((error?.underlyingError as? RequestTimeoutError)?.limit == .attempt)
            #expect(setup.server.requests("/class").count == 1)
        }
    }

    @Test("cancelling the calling task ends the request as .cancelled")
    func cancellation() async throws {
        try await Self.withSetup(policy: .never) { setup in
            setup.server.route("/class", [.hold])
            let task = Task { await setup.result("/class") }
            while setup.server.requests("/class").isEmpty { try await Task.sleep(for: .milliseconds(5)) }
            task.cancel()
            let error = Self.failure(await task.value)
            #expect(error?.isCancelled == true)
        }
    }

    @Test("the transport's own time limit is URLError.timedOut, retried")
    func transportTimeout() async throws {
        let server = try LoopbackHTTPServer()
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let transport = AsyncHTTPClientTransport(client: httpClient, timeout: .milliseconds(200))
        let client = ResponseClient(transport: transport, policy: Self.fast)
        server.route("/slow", [.hold])
        let result = await client.result(
            TransportRequest(url: server.url("/slow")), returning: NoData.self, module: StudyGroupCode.self)
        let error = Self.failure(result)
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
        #expect(server.requests("/slow").count == 3)
        try await httpClient.shutdown()
        server.stop()
    }

    // MARK: - Requests

    @Test("the request's own time limit applies when the transport sets none")
    func requestTimeout() async throws {
        let server = try LoopbackHTTPServer()
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let client = ResponseClient(transport: AsyncHTTPClientTransport(client: httpClient), policy: .never)
        server.route("/slow", [.hold])
        let result = await client.result(
            TransportRequest(url: server.url("/slow"), timeout: .milliseconds(200)), returning: NoData.self,
            module: StudyGroupCode.self)
        #expect((Self.failure(result)?.underlyingError as? URLError)?.code == .timedOut)
        try await httpClient.shutdown()
        server.stop()
    }

    @Test("every header field reaches the server once, in a stable order")
    func headerFields() {
        var request = TransportRequest(url: URL(string: "http://127.0.0.1:9/a")!, method: "post")
        request.setValue("1", forHeader: "X-B")
        request.setValue("2", forHeader: "X-A")
        request.setValue("3", forHeader: "x-b")
        let outgoing = AsyncHTTPClientTransport.clientRequest(for: request)
        #expect(outgoing.method == .POST)
        #expect(outgoing.headers.map { "\($0.name)=\($0.value)" } == ["X-A=2", "x-b=3"])
    }

    @Test(
        "async-http-client's errors are reported as URLSession reports them",
        arguments: [
            (HTTPClientError.remoteConnectionClosed, URLError.Code.networkConnectionLost),
            (.readTimeout, .timedOut), (.connectTimeout, .timedOut), (.deadlineExceeded, .timedOut),
            (.invalidURL, .badURL), (.emptyHost, .badURL), (.bodyLengthMismatch, .badServerResponse),
        ])
    func errorMapping(clientError: HTTPClientError, expected: URLError.Code) {
        let mapped = AsyncHTTPClientTransport.foundationError(for: clientError)
        #expect((mapped as? URLError)?.code == expected)
        #expect((mapped as? URLError)?.userInfo[NSUnderlyingErrorKey] as? HTTPClientError == clientError)
    }

    @Test("cancellation is CancellationError; NIO's errno errors are POSIXError; others are unchanged")
    func otherErrorMapping() {
        #expect(AsyncHTTPClientTransport.foundationError(for: HTTPClientError.cancelled) is CancellationError)
        let refused = AsyncHTTPClientTransport.foundationError(for: IOError(errnoCode: ECONNREFUSED, reason: "connect"))
        #expect((refused as? POSIXError)?.code == .ECONNREFUSED)
        #expect(
            (AsyncHTTPClientTransport.foundationError(for: ChannelError.ioOnClosedChannel) as? URLError)?.code
                == .networkConnectionLost)
        #expect(
            AsyncHTTPClientTransport.foundationError(for: HTTPClientError.alreadyShutdown) as? HTTPClientError
                == .alreadyShutdown)
    }
}
