import Foundation
import HTTPTypes
import OpenAPIRuntime
import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrOpenAPI
import Synchronization
import Testing

/// The middleware called directly, as a generated client calls it, with `HTTPRequest`,
/// `HTTPResponse` and `HTTPBody` values: no generator needed.
@Suite("EnvelopeMiddleware: generated clients' envelope responses classified into typed errors")
struct EnvelopeMiddlewareTests {
    typealias Middleware = EnvelopeMiddleware<StudyGroupCode>
    typealias Failure = ModuleRespError<StudyGroupCode>

    static let baseURL = URL(string: "https://api.example.com")!
    static let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/class/c-1")
    static let joined = #"{"ret":0,"msg":"ok","data":{"classId":"c-1","name":"Class 3-2"}}"#

    /// What the base handler was called with.
    final class Events: Sendable {
        let list = Mutex<[BaseCodeEvent]>([])
        var count: Int { list.withLock { $0.count } }
    }

    /// A JSON response with the given body, its length known.
    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> (HTTPResponse, HTTPBody?) {
        var response = HTTPResponse(status: status)
        response.headerFields[.contentType] = "application/json; charset=utf-8"
        return (response, HTTPBody(text))
    }

    /// Runs the middleware on one response, as the last layer would return it.
    static func run(
        _ middleware: Middleware, operationID: String = "getClass", answer: (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await middleware.intercept(request, body: nil, baseURL: baseURL, operationID: operationID) {
            _, _, _ in answer
        }
    }

    /// The typed error a run throws, recording an issue when it does not throw one.
    static func failure(
        _ middleware: Middleware, answer: (HTTPResponse, HTTPBody?)
    ) async -> Failure? {
        do {
            _ = try await run(middleware, answer: answer)
            Issue.record("expected a failure")
        } catch let error as Failure {
            return error
        } catch {
            Issue.record("expected a ModuleRespError, got \(error)")
        }
        return nil
    }

    static func text(_ body: HTTPBody?) async throws -> String {
        guard let body else { return "" }
        return try await String(collecting: body, upTo: 1 << 20)
    }

    // MARK: - Success

    @Test("success passes the whole envelope on, read into memory")
    func successEnvelope() async throws {
        let (response, body) = try await Self.run(Middleware(), answer: Self.json(Self.joined))
        #expect(response.status == .ok)
        #expect(try await Self.text(body) == Self.joined)
    }

    @Test("with the .data payload, success passes only the data member on, with its Content-Length")
    func successData() async throws {
        let middleware = Middleware(payload: .data)
        let (response, body) = try await Self.run(middleware, answer: Self.json(Self.joined))
        let data = #"{"classId":"c-1","name":"Class 3-2"}"#
        #expect(try await Self.text(body) == data)
        #expect(response.headerFields[.contentLength] == String(data.utf8.count))
        let (_, none) = try await Self.run(middleware, answer: Self.json(#"{"ret":0,"msg":"ok"}"#))
        #expect(try await Self.text(none) == "null")
    }

    // MARK: - Codes

    @Test("a module code throws the module's case")
    func moduleCode() async {
        let error = await Self.failure(Middleware(), answer: Self.json(#"{"ret":11210005,"msg":"班级码错误","data":null}"#))
        #expect(error?.moduleCode == .wrongTeamCode)
    }

    @Test("a base code runs the base handler exactly once, then throws the base code")
    func baseCode() async {
        let events = Events()
        let middleware = Middleware(
            decoder: ResponseDecoder(
                baseHandler: BaseCodeHandler { event in events.list.withLock { $0.append(event) } }))
        let error = await Self.failure(middleware, answer: Self.json(#"{"ret":11001,"msg":"token expire"}"#))
        #expect(error?.baseCode == .tokenExpire)
        #expect(events.count == 1)
        #expect(events.list.withLock { $0.first?.serverMessage } == "token expire")
    }

    @Test("another module's code and an unknown code are unexpected codes keeping their number")
    func unexpectedCodes() async {
        let other = await Self.failure(Middleware(), answer: Self.json(#"{"ret":11160003,"msg":"tag exists"}"#))
        #expect(other?.isUnexpectedCode == true)
        #expect(other?.rawCode == 11_160_003)
        let unknown = await Self.failure(Middleware(), answer: Self.json(#"{"ret":424242}"#))
        #expect(unknown?.rawCode == 424_242)
    }

    @Test("a JSON body that is not an envelope is an invalid envelope")
    func invalidEnvelope() async {
        let error = await Self.failure(Middleware(), answer: Self.json(#"{"ret":"11001"}"#))
        #expect(error?.envelopeError?.reason == .codeNotInteger(found: .string, literal: #""11001""#))
    }

    // MARK: - What is passed on unread

    @Test("a status the decoder does not accept is passed on unread, for the generated client to handle")
    func unacceptedStatus() async throws {
        let answer = Self.json(#"{"ret":11001}"#, status: .serviceUnavailable)
        let (response, body) = try await Self.run(Middleware(), answer: answer)
        #expect(response.status == .serviceUnavailable)
        #expect(body === answer.1)
    }

    @Test("a body that is not JSON is passed on unread")
    func notJSON() async throws {
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "text/html"
        let body = HTTPBody("<html>ok</html>")
        let (_, passed) = try await Self.run(Middleware(), answer: (response, body))
        #expect(passed === body)
        var problem = HTTPResponse(status: .ok)
        problem.headerFields[.contentType] = "application/problem+json"
        await #expect(throws: Failure.self) {
            _ = try await Self.run(Middleware(), answer: (problem, HTTPBody(#"{"ret":11001}"#)))
        }
    }

    @Test("operations left out are passed on unread")
    func operationsFilter() async throws {
        let middleware = Middleware(operations: ["getClass"])
        let answer = Self.json(#"{"ret":11001}"#)
        let (_, body) = try await Self.run(middleware, operationID: "health", answer: answer)
        #expect(body === answer.1)
        await #expect(throws: Failure.self) {
            _ = try await Self.run(middleware, operationID: "getClass", answer: answer)
        }
    }

    // MARK: - Body size limit and errors

    @Test("a known length over the limit is refused before any byte is read")
    func knownLengthOverLimit() async {
        let pulled = Mutex(0)
        let stream = AsyncStream<HTTPBody.ByteChunk> {
            let first = pulled.withLock { count in
                count += 1
                return count == 1
            }
            return first ? ArraySlice(repeating: UInt8(ascii: " "), count: 4096) : nil
        }
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/json"
        let error = await Self.failure(
            Middleware(maxBodyBytes: 1024), answer: (response, HTTPBody(stream, length: .known(4096))))
        #expect(
            error?.underlyingError as? ResponseBodyTooLargeError
                == ResponseBodyTooLargeError(limit: 1024, contentLength: 4096))
        #expect(error?.isRetryable == false)
        #expect(pulled.withLock { $0 } == 0)
    }

    @Test("a streamed body of unknown length is refused as soon as it passes the limit")
    func streamOverLimit() async {
        // 100 parts of 1,000 bytes, produced one at a time as they are asked for.
        let pulled = Mutex(0)
        let stream = AsyncStream<HTTPBody.ByteChunk> {
            let count = pulled.withLock { count in
                count += 1
                return count
            }
            return count <= 100 ? ArraySlice(repeating: UInt8(ascii: " "), count: 1000) : nil
        }
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/json"
        let error = await Self.failure(
            Middleware(maxBodyBytes: 2500), answer: (response, HTTPBody(stream, length: .unknown)))
        let tooLarge = error?.underlyingError as? ResponseBodyTooLargeError
        #expect(tooLarge == ResponseBodyTooLargeError(limit: 2500, contentLength: nil, received: 3000))
        #expect(pulled.withLock { $0 } == 3)
    }

    @Test("the next layer's error is passed on unchanged")
    func nextError() async {
        let middleware = Middleware()
        await #expect(throws: URLError.self) {
            _ = try await middleware.intercept(Self.request, body: nil, baseURL: Self.baseURL, operationID: "getClass")
            {
                _, _, _ in throw URLError(.timedOut)
            }
        }
    }

    // MARK: - Typed errors out of the generated client

    @Test("withModuleErrors takes the module error out of ClientError, however deeply nested")
    func unwrapsClientError() async {
        let thrown = ClientError(
            operationID: "getClass", operationInput: "c-1", causeDescription: "Middleware threw an error.",
            underlyingError: Failure.module(.wrongTeamCode))
        let nested = ClientError(
            operationID: "getClass", operationInput: "c-1", causeDescription: "wrapped", underlyingError: thrown)
        for error in [thrown, nested] {
            do {
                _ = try await withModuleErrors(StudyGroupCode.self) { () async throws -> Int in throw error }
                Issue.record("expected a failure")
            } catch .module(.wrongTeamCode) {
                // The typed case, matched directly.
            } catch {
                Issue.record("expected .module(.wrongTeamCode), got \(error)")
            }
        }
    }

    @Test("withModuleErrors maps other errors by the one mapping: a transport error, a cancellation")
    func mapsOtherErrors() async {
        let transport = ClientError(
            operationID: "getClass", operationInput: "c-1", causeDescription: "Transport threw an error.",
            underlyingError: URLError(.networkConnectionLost))
        do {
            _ = try await withModuleErrors(StudyGroupCode.self) { () async throws -> Int in throw transport }
            Issue.record("expected a failure")
        } catch {
            #expect((error.underlyingError as? URLError)?.code == .networkConnectionLost)
            #expect(error.isRetryable)
        }
        do {
            _ = try await withModuleErrors(StudyGroupCode.self) { () async throws -> Int in throw CancellationError() }
            Issue.record("expected a failure")
        } catch {
            #expect(error.isCancelled)
        }
        let value = try? await withModuleErrors(StudyGroupCode.self) { 42 }
        #expect(value == 42)
    }
}
