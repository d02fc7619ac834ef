import Foundation
import HTTPTypes
import OpenAPIRuntime
import SwiftErr

extension EnvelopeMiddleware {
    /// What a response is, seen through a session.
    enum Answer {
        /// Passed on: not classified, or a success.
        case passed(HTTPResponse, HTTPBody?)
        /// Thrown, after the base handler receives the event (a base code the session does not handle).
        case failed(ModuleRespError<Code>, BaseCodeEvent?)
        /// It asks for re-authentication.
        case refused(Refusal)
    }

    /// An answer that asks for re-authentication.
    struct Refusal {
        var trigger: SessionRefreshEvent.Trigger
        var flags: CodeFlags = []
        var message: String?
        /// What the base handler receives if the session does not handle the answer after all.
        var baseEvent: BaseCodeEvent?
        /// The answer as an error, kept by `refusedAfterRefresh`.
        var failure: ModuleRespError<Code>
        /// How the request ends when it is not sent again: the response passed on (a status), or
        /// nil for the failure thrown (a code).
        var response: (HTTPResponse, HTTPBody?)?

        /// Ends the request with this answer.
        func end() throws(ModuleRespError<Code>) -> (HTTPResponse, HTTPBody?) {
            if let response { return response }
            throw failure
        }
    }

    /// Sends the request with the session's credential, and once more with the new credential when
    /// the answer asks for re-authentication and the body can be sent twice.
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, session: MiddlewareSession,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let unauthenticated = MiddlewareSession.transportRequest(request, baseURL: baseURL)
        var sent = try await Self.step { try await session.authenticate(unauthenticated) }
        var replayed = false
        while true {
            let outgoing = MiddlewareSession.applying(sent.request, to: request, baseURL: baseURL)
            let (response, responseBody) = try await next(outgoing, body, baseURL)
            let refusal: Refusal
            switch try await answer(response, responseBody, operationID: operationID, statusCodes: session.statusCodes)
            {
            case .passed(let response, let body):
                return (response, body)
            case .failed(let failure, let event):
                if let event { decoder.baseHandler?(event) }
                throw failure
            case .refused(let refused):
                refusal = refused
            }
            if replayed {
                throw ModuleRespError<Code>.reauthenticationFailed(
                    ReauthenticationError(reason: .refusedAfterRefresh, underlyingError: refusal.failure))
            }
            let renewed = try await Self.step {
                try await session.reauthenticate(
                    sent, refusal.trigger, Code.moduleName, refusal.flags, refusal.message, decoder.baseHandler)
            }
            guard let renewed else {
                // The session has no credential: the answer is the caller's, as without a session.
                if let event = refusal.baseEvent { decoder.baseHandler?(event) }
                return try refusal.end()
            }
            // A body that can be iterated once has been sent already: the session is renewed, and
            // the request ends with its own answer.
            guard body.map({ $0.iterationBehavior == .multiple }) ?? true else { return try refusal.end() }
            replayed = true
            sent = renewed
        }
    }

    /// Reads a response: a status of the session's asks for re-authentication; a classified JSON
    /// response is read and its code classified (the base handler's event held back).
    func answer(
        _ response: HTTPResponse, _ responseBody: HTTPBody?, operationID: String, statusCodes: Set<Int>
    ) async throws(ModuleRespError<Code>) -> Answer {
        let status = response.status.code
        if statusCodes.contains(status) {
            return .refused(
                Refusal(
                    trigger: .status(status), failure: .unacceptableStatus(status), response: (response, responseBody)))
        }
        guard classifies(operationID), decoder.statusValidator.accepts(status), Self.isJSON(response) else {
            return .passed(response, responseBody)
        }
        let bytes = try await Self.collect(responseBody, limit: maxBodyBytes)
        let envelope: ResponseEnvelope
        do {
            envelope = try ResponseEnvelope.parse(bytes, keys: decoder.keys)
        } catch {
            throw .invalidEnvelope(error)
        }
        let classifier = Code.classifier
        let classification = classifier.classification(of: envelope.code)
        let outcome = classifier.outcome(of: classification, code: envelope.code)
        guard let failure = ModuleRespError(outcome, serverMessage: envelope.message) else {
            let data = envelope.dataRange.map { bytes[$0] } ?? ArraySlice("null".utf8)
            let (passedResponse, passedBody) = passed(response, bytes: bytes, payload: data)
            return .passed(passedResponse, passedBody)
        }
        var event: BaseCodeEvent?
        if case .base(let code) = outcome, decoder.baseHandler != nil {
            event = BaseCodeEvent(
                code: code, flags: classification.flags, module: Code.moduleName, serverMessage: envelope.message)
        }
        let flags = classification.isExact ? classification.flags : []
        guard flags.contains(.reauthenticate) else { return .failed(failure, event) }
        return .refused(
            Refusal(
                trigger: .code(envelope.code), flags: flags, message: envelope.message, baseEvent: event,
                failure: failure))
    }

    /// Runs a session step, mapping what it throws (`ReauthenticationError`, `CancellationError`) to
    /// the module's error.
    static func step<Value>(_ body: () async throws -> Value) async throws(ModuleRespError<Code>) -> Value {
        do {
            return try await body()
        } catch {
            throw ModuleRespError<Code>(adapting: error)
        }
    }
}
