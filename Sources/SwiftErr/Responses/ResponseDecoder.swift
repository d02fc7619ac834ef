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
///    ``ModuleRespError/unexpectedCode(_:)``; each of these server-code cases keeps the envelope's
///    message (the member ``EnvelopeKeys/message`` names), cleaned and bounded by
///    ``ServerMessage/sanitized(_:)`` and read only as far as that bound
///    (``ModuleRespError/serverMessage``);
/// 5. the success code → the payload decoded as `Model`, or
///    ``ModuleRespError/decodingFailed(underlying:)``.
///
/// The body is scanned once, validating every byte, with the rules and errors of
/// ``ResponseEnvelope/parse(_:keys:)-(Collection<UInt8>,_)``; the message becomes a `String` only
/// for a code that is not success. Only on success is the `data` member decoded, straight from
/// its bytes: by a built-in decoder that gives `JSONDecoder`'s results with its default strategies
/// (the same values, and the same `DecodingError` for a payload that does not fit the model), or
/// by ``jsonDecoder`` when one is set.
///
/// A missing or `null` `data` is decoded as the JSON `null`: it succeeds for `Optional` models
/// (giving `nil`) and for ``NoData``, and fails with `DecodingError.valueNotFound` for any other
/// model.
public struct ResponseDecoder: Sendable {
    /// The envelope's member names (``EnvelopeKeys/default``: `ret`/`msg`/`data`).
    public var keys: EnvelopeKeys {
        didSet { keyMatcher = EnvelopeKeyMatcher(keys) }
    }
    /// The HTTP statuses accepted (2xx by default). Ignored when the transport reports none.
    public var statusValidator: HTTPStatusValidator
    /// The central handler for base-tier codes, or `nil`.
    public var baseHandler: BaseCodeHandler?
    /// The `JSONDecoder` that decodes payloads, or `nil` (the default) for the built-in payload
    /// decoder, which reads the payload's bytes in place and matches `JSONDecoder` with its
    /// default strategies. Set one to use other strategies (dates, keys, data, non-conforming
    /// floats) or `userInfo`; the same instance is then used for every payload, concurrently
    /// too (`JSONDecoder` is `Sendable`).
    public var jsonDecoder: JSONDecoder?

    /// The keys, prepared for matching once per change of ``keys``.
    var keyMatcher: EnvelopeKeyMatcher

    /// Creates a decoder.
    /// - Parameters:
    ///   - keys: The envelope's member names.
    ///   - statusValidator: Which HTTP statuses are accepted (2xx by default).
    ///   - baseHandler: The central handler for base-tier codes.
    ///   - jsonDecoder: A `JSONDecoder` for payloads (to set date or key strategies and the like);
    ///     `nil` for the built-in payload decoder.
    public init(
        keys: EnvelopeKeys = .default,
        statusValidator: HTTPStatusValidator = .successful,
        baseHandler: BaseCodeHandler? = nil,
        jsonDecoder: JSONDecoder? = nil
    ) {
        self.keys = keys
        self.statusValidator = statusValidator
        self.baseHandler = baseHandler
        self.jsonDecoder = jsonDecoder
        self.keyMatcher = EnvelopeKeyMatcher(keys)
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
    @inlinable
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
    @inlinable
    public func result<Model: Decodable, Code: ModuleCode>(
        _ model: Model.Type = Model.self, module: Code.Type = Code.self, from response: TransportResponse
    ) -> Result<Model, ModuleRespError<Code>> {
        // Inlinable, so that the caller's specialisation knows `Model`, `Code` and the result
        // type statically; the byte work is in the non-generic functions it calls. The body's
        // bytes are borrowed once, for the scan, the message and the payload.
        if let status = statusValidator.failure(for: response) {
            return .failure(.unacceptableStatus(status))
        }
        let body = response.body
        return body.withUnsafeBytes { bytes -> Result<Model, ModuleRespError<Code>> in
            let envelope: LocatedEnvelope
            do throws(EnvelopeError) {
                envelope = try locate(bytes)
            } catch {
                return .failure(.invalidEnvelope(error))
            }
            let classifier = Code.classifier
            let classification = classifier.classification(of: envelope.code)
            switch classifier.outcome(of: classification, code: envelope.code) {
            case .success:
                do {
                    return .success(try payload(Model.self, of: envelope, in: bytes, body: body))
                } catch {
                    return .failure(.decodingFailed(underlying: error))
                }
            case .base(let base):
                if let baseHandler {
                    baseHandler(
                        BaseCodeEvent(
                            code: base, flags: classification.flags, module: Code.moduleName,
                            serverMessage: message(of: envelope, in: bytes)))
                }
                return .failure(.base(ServerAnswer(base, sanitizedMessage: serverMessage(of: envelope, in: bytes))))
            case .module(let code):
                return .failure(.module(ServerAnswer(code, sanitizedMessage: serverMessage(of: envelope, in: bytes))))
            case .unexpected(let raw):
                return .failure(
                    .unexpectedCode(ServerAnswer(raw, sanitizedMessage: serverMessage(of: envelope, in: bytes))))
            case .invalidCatalog(let failure): return .failure(.invalidCatalog(failure))
            }
        }
    }

    /// Decodes a response body into the payload, throwing the module's typed error.
    /// - Parameters:
    ///   - model: The payload type.
    ///   - module: The module enum the request belongs to.
    ///   - body: The response body.
    ///   - statusCode: The HTTP status, if the transport has one.
    /// - Returns: The payload.
    /// - Throws: The one ``ModuleRespError`` that describes a response that is not a success.
    @inlinable
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

}

/// Where a scanned envelope's members are: what ``ResponseDecoder`` keeps of the scan.
@usableFromInline
struct LocatedEnvelope {
    @usableFromInline let code: Int64
    let scan: EnvelopeScan

    init(_ scan: EnvelopeScan) {
        self.code = scan.code
        self.scan = scan
    }
}

/// A `JSONDecoder` with the default strategies, for the payloads the built-in decoder hands back.
private let defaultJSONDecoder = JSONDecoder()

extension ResponseDecoder {
    /// Scans the envelope in the body's bytes.
    @usableFromInline
    func locate(_ bytes: UnsafeRawBufferPointer) throws(EnvelopeError) -> LocatedEnvelope {
        LocatedEnvelope(try EnvelopeScan.scan(bytes, keys: keyMatcher))
    }

    /// The envelope's message (what ``ResponseEnvelope/message`` would be), for the base handler.
    @usableFromInline
    func message(of envelope: LocatedEnvelope, in bytes: UnsafeRawBufferPointer) -> String? {
        guard let range = envelope.scan.messageRange else { return nil }
        if envelope.scan.messageEscaped {
            var scanner = JSONScanner(bytes)
            scanner.position = range.lowerBound - 1
            // The scan has validated the string, so reading it again cannot fail.
            return String(decoding: (try? scanner.readString()) ?? [], as: UTF8.self)
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The envelope's message as ``ModuleRespError`` keeps it, cleaned and bounded by
    /// ``ServerMessage/sanitized(_:)``: kept as it is when the cleaning would leave it unchanged
    /// (one pass over its bytes), otherwise read one scalar at a time, escapes resolved, so that a
    /// long message is never decoded or copied beyond the bound.
    @usableFromInline
    func serverMessage(of envelope: LocatedEnvelope, in bytes: UnsafeRawBufferPointer) -> String? {
        guard let range = envelope.scan.messageRange else { return nil }
        return ServerMessage.sanitized(jsonString: bytes, contents: range, escaped: envelope.scan.messageEscaped)
    }

    /// Decodes the success payload (`null` when missing) from the body's bytes with ``jsonDecoder``
    /// or the built-in decoder, which hands the payloads it does not read as `JSONDecoder` does to a
    /// default one.
    @usableFromInline
    func payload<Model: Decodable>(
        _ model: Model.Type, of envelope: LocatedEnvelope, in bytes: UnsafeRawBufferPointer, body: Data
    ) throws -> Model {
        let range = envelope.scan.dataRange
        if jsonDecoder == nil {
            if let decoded = try PayloadDecoding.decode(Model.self, from: bytes, valueStart: range?.lowerBound) {
                return decoded
            }
        }
        let payload: Data
        if let range {
            let start = body.index(body.startIndex, offsetBy: range.lowerBound)
            payload = body[start..<body.index(start, offsetBy: range.count)]
        } else {
            payload = Data("null".utf8)
        }
        return try (jsonDecoder ?? defaultJSONDecoder).decode(Model.self, from: payload)
    }
}
