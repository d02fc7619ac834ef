import Foundation

/// Turns response envelopes into typed results for one module at a time:
/// `Result<Model, ModuleRespError<Code>>`, `throws(ModuleRespError<Code>)`, or an `async`
/// form that runs the transport too.
///
/// For every input there is exactly one outcome, in this order:
/// 1. an HTTP status ``statusValidator`` does not accept → ``ModuleRespError/unacceptableStatus(_:)-enum.case``
///    (with the response's `Retry-After` when the decoder is given the whole ``TransportResponse``);
/// 2. a body that is not a valid envelope → ``ModuleRespError/invalidEnvelope(_:)``;
/// 3. the code is classified through the module's C catalog; a base-tier code first runs
///    ``baseHandler`` (exactly once) and then → ``ModuleRespError/base(_:)``;
/// 4. a module code → ``ModuleRespError/module(_:)``; any other non-success code →
///    ``ModuleRespError/unexpectedCode(_:)``;
/// 5. the success code → the payload decoded as `Model`, or
///    ``ModuleRespError/decodingFailed(underlying:)``.
///
/// The body is scanned once by ``ResponseEnvelope/parse(_:keys:)-(Collection<UInt8>,_)``;
/// only the `data` member's bytes are handed to `JSONDecoder`, and only on success, with no
/// intermediate dictionary.
///
/// A missing or `null` `data` is decoded as the JSON `null`: it succeeds for `Optional` models
/// (giving `nil`) and for ``NoData``, and fails with `DecodingError.valueNotFound` for any other
/// model.
public struct ResponseDecoder: Sendable {
    /// The envelope's member names (``EnvelopeKeys/default``: `ret`/`msg`/`data`).
    public var keys: EnvelopeKeys
    /// The HTTP statuses accepted (2xx by default). Ignored when the transport reports none.
    public var statusValidator: HTTPStatusValidator
    /// The central handler for base-tier codes, or `nil`.
    public var baseHandler: BaseCodeHandler?
    /// Makes the `JSONDecoder` used for payloads (a fresh one per decode).
    public var makeJSONDecoder: @Sendable () -> JSONDecoder

    /// Creates a decoder.
    /// - Parameters:
    ///   - keys: The envelope's member names.
    ///   - statusValidator: Which HTTP statuses are accepted (2xx by default).
    ///   - baseHandler: The central handler for base-tier codes.
    ///   - makeJSONDecoder: Makes the payload decoder (to set date strategies and the like).
    public init(
        keys: EnvelopeKeys = .default,
        statusValidator: HTTPStatusValidator = .successful,
        baseHandler: BaseCodeHandler? = nil,
        makeJSONDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() }
    ) {
        self.keys = keys
        self.statusValidator = statusValidator
        self.baseHandler = baseHandler
        self.makeJSONDecoder = makeJSONDecoder
    }

    /// Classifies a raw code for `module`, running ``baseHandler`` once when it is a base code.
    /// - Parameters:
    ///   - code: The code the server sent.
    ///   - module: The module enum the request belongs to.
    ///   - serverMessage: The envelope's message, passed to the handler.
    /// - Returns: The typed outcome.
    public func classify<Code: ModuleCode>(_ code: Int64, module: Code.Type = Code.self, serverMessage: String? = nil)
        -> CodeOutcome<Code>
    {
        let classifier = Code.classifier
        let classification = classifier.classification(of: code)
        let outcome = classifier.outcome(of: classification, code: code)
        if case .base(let base) = outcome, let baseHandler {
            baseHandler(
                BaseCodeEvent(
                    code: base, flags: classification.flags, module: Code.moduleName, serverMessage: serverMessage))
        }
        return outcome
    }

    /// Decodes a response body into the module's result.
    /// - Parameters:
    ///   - model: The payload type (`Optional`, ``NoData`` or any `Decodable`).
    ///   - module: The module enum the request belongs to.
    ///   - body: The response body.
    ///   - statusCode: The HTTP status, if the transport has one.
    /// - Returns: The payload, or the one ``ModuleRespError`` that describes the response.
    public func result<Model: Decodable, Code: ModuleCode>(
        _ model: Model.Type = Model.self, module: Code.Type = Code.self, from body: Data, statusCode: Int? = nil
    ) -> Result<Model, ModuleRespError<Code>> {
        result(Model.self, module: Code.self, from: TransportResponse(statusCode: statusCode, body: body))
    }

    /// Decodes a whole response (status, `Retry-After` and body) into the module's result.
    /// - Parameters:
    ///   - model: The payload type (`Optional`, ``NoData`` or any `Decodable`).
    ///   - module: The module enum the request belongs to.
    ///   - response: The response; an unacceptable status keeps its `Retry-After` header.
    /// - Returns: The payload, or the one ``ModuleRespError`` that describes the response.
    public func result<Model: Decodable, Code: ModuleCode>(
        _ model: Model.Type = Model.self, module: Code.Type = Code.self, from response: TransportResponse
    ) -> Result<Model, ModuleRespError<Code>> {
        if let status = statusValidator.failure(for: response) {
            return .failure(.unacceptableStatus(status))
        }
        let body = response.body
        let envelope: ResponseEnvelope
        do {
            envelope = try ResponseEnvelope.parse(body, keys: keys)
        } catch {
            return .failure(.invalidEnvelope(error))
        }
        let outcome = classify(envelope.code, module: Code.self, serverMessage: envelope.message)
        if let failure = ModuleRespError(outcome) {
            return .failure(failure)
        }
        return decodePayload(Model.self, envelope: envelope, body: body)
    }

    /// Decodes a response body into the payload, throwing the module's typed error.
    /// - Parameters:
    ///   - model: The payload type.
    ///   - module: The module enum the request belongs to.
    ///   - body: The response body.
    ///   - statusCode: The HTTP status, if the transport has one.
    /// - Returns: The payload.
    /// - Throws: The one ``ModuleRespError`` that describes a response that is not a success.
    public func decode<Model: Decodable, Code: ModuleCode>(
        _ model: Model.Type = Model.self, module: Code.Type = Code.self, from body: Data, statusCode: Int? = nil
    ) throws(ModuleRespError<Code>) -> Model {
        try result(Model.self, module: Code.self, from: body, statusCode: statusCode).get()
    }

    /// Runs the transport and decodes its response into the module's result.
    ///
    /// An error the transport throws is mapped by the one mapping of foreign errors,
    /// ``ModuleRespError/init(adapting:)``: a cancellation (`CancellationError`,
    /// `URLError.cancelled`, `URLError.userCancelledAuthentication`, `POSIXError.ECANCELED`) is
    /// ``ModuleRespError/cancelled``, an ``HTTPStatusError`` thrown by
    /// ``TransportResponse/validated(by:retryAfter:)`` is ``ModuleRespError/unacceptableStatus(_:)-enum.case``
    /// with its `Retry-After`, anything else a transport failure keeping the error.
    /// - Parameters:
    ///   - model: The payload type.
    ///   - module: The module enum the request belongs to.
    ///   - transport: Performs the request; runs once, on the caller's isolation.
    /// - Returns: The payload, or the one ``ModuleRespError`` that describes the outcome.
    nonisolated(nonsending)
        public func result<Model: Decodable, Code: ModuleCode>(
            _ model: Model.Type = Model.self, module: Code.Type = Code.self,
            transport: () async throws -> TransportResponse
        ) async -> Result<Model, ModuleRespError<Code>>
    {
        let response: TransportResponse
        do {
            response = try await transport()
        } catch {
            return .failure(ModuleRespError(adapting: error))
        }
        return result(Model.self, module: Code.self, from: response)
    }

    /// Runs the transport and decodes its response, throwing the module's typed error.
    /// - Parameters:
    ///   - model: The payload type.
    ///   - module: The module enum the request belongs to.
    ///   - transport: Performs the request; runs once, on the caller's isolation.
    /// - Returns: The payload.
    /// - Throws: The one ``ModuleRespError`` that describes an outcome that is not a success.
    nonisolated(nonsending)
        public func decode<Model: Decodable, Code: ModuleCode>(
            _ model: Model.Type = Model.self, module: Code.Type = Code.self,
            transport: () async throws -> TransportResponse
        ) async throws(ModuleRespError<Code>) -> Model
    {
        try await result(Model.self, module: Code.self, transport: transport).get()
    }

    /// Decodes the success payload from its byte range (`null` when missing).
    private func decodePayload<Model: Decodable, Code: ModuleCode>(
        _ model: Model.Type, envelope: ResponseEnvelope, body: Data
    ) -> Result<Model, ModuleRespError<Code>> {
        let payload: Data
        if let range = envelope.dataRange {
            let start = body.index(body.startIndex, offsetBy: range.lowerBound)
            let end = body.index(start, offsetBy: range.count)
            payload = body[start..<end]
        } else {
            payload = Data("null".utf8)
        }
        do {
            return .success(try makeJSONDecoder().decode(Model.self, from: payload))
        } catch {
            return .failure(.decodingFailed(underlying: error))
        }
    }
}
