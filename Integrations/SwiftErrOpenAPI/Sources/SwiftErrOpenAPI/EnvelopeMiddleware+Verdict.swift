import Foundation
import HTTPTypes
import OpenAPIRuntime
@_spi(Pipeline) import SwiftErr

extension EnvelopeMiddleware {
    /// A response as the middleware hands it back to the generated client.
    typealias Passed = (HTTPResponse, HTTPBody?)

    /// Reads one response for SwiftErr's pipeline: what the generated client gets, what the
    /// upstream's protection learns, and what the session needs to know.
    ///
    /// - a status the decoder's `statusValidator` does not accept is a failure carrying the response
    ///   unread (`unacceptableStatus` with its `Retry-After`, for the retry policy and the session's
    ///   statuses), passed on if the policy does not send the request again;
    /// - an accepted status of an operation not classified, or a body that is not JSON, is passed on
    ///   unread;
    /// - otherwise the body is collected up to ``maxBodyBytes`` and its envelope read: the success
    ///   code passes the bytes on as ``payload`` says; any other code is the module's error, with its
    ///   catalog flags, the server's message and the base handler's event held for the pipeline.
    /// - Parameters:
    ///   - answer: The response and its body, as `next` returned them.
    ///   - operationID: The operation's `operationId`.
    /// - Returns: The verdict.
    func verdict(_ answer: Passed, operationID: String) async -> PipelineVerdict<Passed, Failure> {
        let (response, responseBody) = answer
        let status = response.status.code
        guard decoder.statusValidator.accepts(status) else {
            let retryAfter = response.headerFields[.retryAfter].flatMap(RetryAfter.init(headerValue:))
            let error = ModuleRespError<Code>.unacceptableStatus(
                HTTPStatusError(statusCode: status, retryAfter: retryAfter))
            return PipelineVerdict(
                result: .failure(Failure(error: error, response: answer)), outcome: UpstreamOutcome(error),
                statusCode: status)
        }
        guard classifies(operationID), Self.isJSON(response) else {
            return PipelineVerdict(
                result: .success(answer), outcome: UpstreamOutcome(status: status), statusCode: status)
        }
        func failed(_ error: ModuleRespError<Code>) -> PipelineVerdict<Passed, Failure> {
            PipelineVerdict(
                result: .failure(Failure(error: error)), outcome: UpstreamOutcome(error), statusCode: status)
        }
        let bytes: [UInt8]
        do {
            bytes = try await Self.collect(responseBody, limit: maxBodyBytes)
        } catch {
            return failed(error)
        }
        let envelope: ResponseEnvelope
        do {
            envelope = try ResponseEnvelope.parse(bytes, keys: decoder.keys)
        } catch {
            return failed(.invalidEnvelope(error))
        }
        let classifier = Code.classifier
        let classification = classifier.classification(of: envelope.code)
        let outcome = classifier.outcome(of: classification, code: envelope.code)
        guard let failure = ModuleRespError(outcome, serverMessage: envelope.message) else {
            let data = envelope.dataRange.map { bytes[$0] } ?? ArraySlice("null".utf8)
            return PipelineVerdict(
                result: .success(passed(response, bytes: bytes, payload: data)), outcome: .success, statusCode: status)
        }
        var event: BaseCodeEvent?
        if case .base(let code) = outcome, decoder.baseHandler != nil {
            event = BaseCodeEvent(
                code: code, flags: classification.flags, module: Code.moduleName, serverMessage: envelope.message)
        }
        return PipelineVerdict(
            result: .failure(Failure(error: failure)), outcome: UpstreamOutcome(failure), statusCode: status,
            code: envelope.code, flags: classification.isExact ? classification.flags : [],
            serverMessage: envelope.message, baseEvent: event)
    }

    /// A successful response passed on as ``payload`` says.
    func passed(_ response: HTTPResponse, bytes: [UInt8], payload payloadBytes: ArraySlice<UInt8>) -> Passed {
        switch payload {
        case .envelope:
            return (response, HTTPBody(bytes))
        case .data:
            var passed = response
            passed.headerFields[.contentLength] = String(payloadBytes.count)
            return (passed, HTTPBody(payloadBytes))
        }
    }

    /// Collects a body, refusing one over `limit` bytes: by its announced length before reading, or
    /// as soon as the bytes read pass the limit.
    static func collect(_ body: HTTPBody?, limit: Int) async throws(ModuleRespError<Code>) -> [UInt8] {
        guard let body else { return [] }
        var announced: Int64?
        if case .known(let length) = body.length {
            announced = length
            if length > Int64(limit) {
                throw .transportFailed(underlying: ResponseBodyTooLargeError(limit: limit, contentLength: length))
            }
        }
        var bytes: [UInt8] = []
        do {
            for try await chunk in body {
                if bytes.count + chunk.count > limit {
                    throw ResponseBodyTooLargeError(
                        limit: limit, contentLength: announced, received: bytes.count + chunk.count)
                }
                bytes += chunk
            }
        } catch {
            throw ModuleRespError(adapting: error)
        }
        return bytes
    }

    /// Whether a response's `Content-Type` is JSON (`application/json` or a `+json` type); a
    /// response without one is read as JSON, as envelope servers often omit it.
    static func isJSON(_ response: HTTPResponse) -> Bool {
        guard let type = response.headerFields[.contentType] else { return true }
        let essence = type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return essence == "application/json" || essence.hasSuffix("+json")
    }
}
