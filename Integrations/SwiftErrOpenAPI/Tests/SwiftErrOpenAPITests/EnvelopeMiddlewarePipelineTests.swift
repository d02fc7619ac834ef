import Foundation
import HTTPTypes
import OpenAPIRuntime
import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrOpenAPI
import Synchronization
import Testing

/// The middleware's retries, time limits and upstream protection, called as a generated client calls
/// it; `next` plays the transport and counts what it is asked to send.
@Suite("EnvelopeMiddleware: retries, time limits and the upstream's protection", .timeLimit(.minutes(1)))
struct EnvelopeMiddlewarePipelineTests {
    typealias Middleware = EnvelopeMiddleware<StudyGroupCode>
    typealias Failure = ModuleRespError<StudyGroupCode>

    static let baseURL = URL(string: "https://api.example.com")!
    static let joined = #"{"ret":0,"msg":"ok","data":{"classId":"c-1","name":"Class 3-2"}}"#
    /// Three attempts a millisecond apart: the default policy's rules, quickly.
    static let quick = RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(1), maxBackoff: .milliseconds(2))

    /// The transport behind `next`: answers from a script (its last entry repeats), and records what
    /// it was sent.
    final class Transport: Sendable {
        enum Step: Sendable {
            case answer(status: HTTPResponse.Status, body: String, retryAfter: String? = nil)
            case fail(any Error & Sendable)
            case hang
        }

        private let steps: [Step]
        private let sent = Mutex<[(method: HTTPRequest.Method, body: String)]>([])

        init(_ steps: [Step]) { self.steps = steps }

        var count: Int { sent.withLock { $0.count } }
        var bodies: [String] { sent.withLock { $0.map(\.body) } }

        func send(_ request: HTTPRequest, _ body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody?) {
            var text = ""
            if let body { text = try await String(collecting: body, upTo: 1 << 16) }
            let index = sent.withLock { sent in
                sent.append((request.method, text))
                return sent.count - 1
            }
            switch steps[min(index, steps.count - 1)] {
            case .answer(let status, let body, let retryAfter):
                var response = HTTPResponse(status: status)
                response.headerFields[.contentType] = "application/json"
                if let retryAfter { response.headerFields[.retryAfter] = retryAfter }
                return (response, HTTPBody(body))
            case .fail(let error):
                throw error
            case .hang:
                try await Task.sleep(for: .seconds(30))
                throw CancellationError()
            }
        }
    }

    static func run(
        _ middleware: Middleware, _ transport: Transport, method: HTTPRequest.Method = .get, body: HTTPBody? = nil,
        headers: HTTPFields = [:]
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = HTTPRequest(method: method, scheme: "https", authority: "api.example.com", path: "/class/c-1")
        request.headerFields.append(contentsOf: headers)
        return try await middleware.intercept(request, body: body, baseURL: baseURL, operationID: "getClass") {
            request, body, _ in try await transport.send(request, body)
        }
    }

    static func text(_ body: HTTPBody?) async throws -> String {
        guard let body else { return "" }
        return try await String(collecting: body, upTo: 1 << 20)
    }

    static let unavailable = Transport.Step.answer(status: .serviceUnavailable, body: #"{"ret":-1}"#)

    @Test("a GET answered 503 is sent again as the policy says; the last 503 is passed on unread")
    func statusRetried() async throws {
        let transport = Transport([Self.unavailable])
        let (response, body) = try await Self.run(Middleware(policy: Self.quick), transport)
        #expect(response.status == .serviceUnavailable)
        #expect(try await Self.text(body) == #"{"ret":-1}"#)
        #expect(transport.count == 3)
    }

    @Test("a 503, then the success: the success is passed on, classified")
    func retriedIntoSuccess() async throws {
        let transport = Transport([Self.unavailable, .answer(status: .ok, body: Self.joined)])
        let (response, body) = try await Self.run(Middleware(policy: Self.quick), transport)
        #expect(response.status == .ok)
        #expect(try await Self.text(body) == Self.joined)
        #expect(transport.count == 2)
    }

    @Test("a 404 is an answer: sent once and passed on")
    func answerNotRetried() async throws {
        let transport = Transport([.answer(status: .notFound, body: "{}")])
        let (response, _) = try await Self.run(Middleware(policy: Self.quick), transport)
        #expect(response.status == .notFound)
        #expect(transport.count == 1)
    }

    @Test("a POST answered 503 is sent once; with an Idempotency-Key, as often as the policy says, body and all")
    func repeatability() async throws {
        let post = Transport([Self.unavailable])
        _ = try await Self.run(Middleware(policy: Self.quick), post, method: .post, body: HTTPBody(#"{"n":1}"#))
        #expect(post.count == 1)
        let keyed = Transport([Self.unavailable])
        _ = try await Self.run(
            Middleware(policy: Self.quick), keyed, method: .post, body: HTTPBody(#"{"n":1}"#),
            headers: [HTTPField.Name("Idempotency-Key")!: "k-1"])
        #expect(keyed.bodies == Array(repeating: #"{"n":1}"#, count: 3))
    }

    @Test("a body that can be iterated once is never sent again, whatever the method")
    func streamedBodyNotRetried() async throws {
        let transport = Transport([Self.unavailable])
        let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
            continuation.yield(ArraySlice(#"{"n":1}"#.utf8))
            continuation.finish()
        }
        let body = HTTPBody(stream, length: .known(7))
        #expect(body.iterationBehavior == .single)
        let (response, _) = try await Self.run(Middleware(policy: Self.quick), transport, method: .put, body: body)
        #expect(response.status == .serviceUnavailable)
        #expect(transport.count == 1)
    }

    @Test("a transient error of the next layer is retried, then thrown unchanged; a final one is thrown at once")
    func nextLayerErrors() async throws {
        let lost = Transport([.fail(URLError(.networkConnectionLost))])
        let thrown = await #expect(throws: URLError.self) {
            _ = try await Self.run(Middleware(policy: Self.quick), lost)
        }
        #expect(thrown?.code == .networkConnectionLost)
        #expect(lost.count == 3)
        let bad = Transport([.fail(URLError(.badURL))])
        let final = await #expect(throws: URLError.self) { _ = try await Self.run(Middleware(policy: Self.quick), bad) }
        #expect(final?.code == .badURL)
        #expect(bad.count == 1)
    }

    @Test("the default policy: a GET that keeps failing is sent 3 times")
    func defaultPolicy() async throws {
        let transport = Transport([.fail(URLError(.timedOut))])
        await #expect(throws: URLError.self) { _ = try await Self.run(Middleware(), transport) }
        #expect(transport.count == RetryPolicy.default.maxAttempts)
        let never = Transport([.fail(URLError(.timedOut))])
        await #expect(throws: URLError.self) { _ = try await Self.run(Middleware(policy: .never), never) }
        #expect(never.count == 1)
    }

    @Test("a Retry-After longer than the policy accepts ends the request at once, the 503 passed on")
    func longRetryAfter() async throws {
        let transport = Transport([.answer(status: .serviceUnavailable, body: "{}", retryAfter: "120")])
        let (response, _) = try await Self.run(Middleware(policy: Self.quick), transport)
        #expect(response.status == .serviceUnavailable)
        #expect(response.headerFields[.retryAfter] == "120")
        #expect(transport.count == 1)
    }

    @Test("an attempt over its time limit is cut off and retried; the last throws RequestTimeoutError")
    func attemptLimit() async throws {
        let transport = Transport([.hang])
        let middleware = Middleware(policy: Self.quick, timeouts: .init(attempt: .milliseconds(50)))
        let start = ContinuousClock.now
        do {
            _ = try await Self.run(middleware, transport)
            Issue.record("expected a time-out")
        } catch let timeout as RequestTimeoutError {
            #expect(timeout.limit == .attempt)
            #expect(timeout.attempt == 3)
        }
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(transport.count == 3)
    }

    @Test("a request the upstream's protection refuses throws .refused, and next is not called")
    func refused() async throws {
        let protections = try UpstreamProtections()
        protections.protection(forSending: TransportRequest(url: Self.baseURL))?.isolate()
        let transport = Transport([.answer(status: .ok, body: Self.joined)])
        do {
            _ = try await withModuleErrors(StudyGroupCode.self) {
                try await Self.run(Middleware(protections: protections), transport)
            }
            Issue.record("expected a refusal")
        } catch {
            #expect(error.refusal?.reason == .circuitIsolated)
        }
        #expect(transport.count == 0)
    }

    @Test("each answer's outcome reaches the protection: 503s open the breaker, business answers do not")
    func outcomesRecorded() async throws {
        let breaker = try CircuitBreaker(failureRatio: 0.5, minimumThroughput: 4, breakDuration: .seconds(30))
        let protections = try UpstreamProtections(retryBudget: nil, circuitBreaker: breaker, throttle: nil)
        let middleware = Middleware(policy: .never, protections: protections)
        let answers = Transport([.answer(status: .ok, body: #"{"ret":11210005}"#)])
        for _ in 0..<6 {
            await #expect(throws: Failure.self) { _ = try await Self.run(middleware, answers) }
        }
        let protection = try #require(protections.protection(for: TransportRequest(url: Self.baseURL)))
        #expect(protection.circuitState == .closed)
        let failing = Transport([Self.unavailable])
        var refusals = 0
        for _ in 0..<10 {
            do {
                _ = try await withModuleErrors(StudyGroupCode.self) { try await Self.run(middleware, failing) }
            } catch {
                if error.refusal?.reason == .circuitOpen { refusals += 1 }
            }
        }
        #expect(protection.circuitState == .open)
        #expect(refusals > 0)
        #expect(failing.count + refusals == 10, "a refused request does not reach next")
    }
}
