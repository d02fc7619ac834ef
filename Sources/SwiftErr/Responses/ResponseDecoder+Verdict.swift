import Foundation

extension ResponseDecoder {
    /// Decodes a whole response as ``result(_:module:from:)-(_,_,TransportResponse)`` does, for a
    /// ``RequestPipeline``: the base handler's event is held in the verdict instead of run (the
    /// pipeline delivers it unless the session handles the answer), with what the answer says about
    /// the upstream and the code's flags and message.
    /// - Parameters:
    ///   - model: The payload type.
    ///   - module: The module enum the request belongs to.
    ///   - response: The response.
    /// - Returns: The verdict.
    func verdict<Model: Decodable, Code: ModuleCode>(
        _ model: Model.Type, module: Code.Type, from response: TransportResponse
    ) -> PipelineVerdict<Model, ModuleRespError<Code>> {
        func verdict(
            _ result: Result<Model, ModuleRespError<Code>>, code: Int64? = nil, flags: CodeFlags = [],
            message: String? = nil, event: BaseCodeEvent? = nil
        ) -> PipelineVerdict<Model, ModuleRespError<Code>> {
            PipelineVerdict(
                result: result, outcome: UpstreamOutcome(result), statusCode: response.statusCode, code: code,
                flags: flags, serverMessage: message, baseEvent: event)
        }
        if let status = statusValidator.failure(for: response) {
            return verdict(.failure(.unacceptableStatus(status)))
        }
        let body = response.body
        return body.withUnsafeBytes { bytes -> PipelineVerdict<Model, ModuleRespError<Code>> in
            let envelope: LocatedEnvelope
            do throws(EnvelopeError) {
                envelope = try locate(bytes)
            } catch {
                return verdict(.failure(.invalidEnvelope(error)))
            }
            let classifier = Code.classifier
            let classification = classifier.classification(of: envelope.code)
            let outcome = classifier.outcome(of: classification, code: envelope.code)
            if case .success = outcome {
                do {
                    return verdict(.success(try payload(Model.self, of: envelope, in: bytes, body: body)))
                } catch {
                    return verdict(.failure(.decodingFailed(underlying: error)))
                }
            }
            let flags = classification.isExact ? classification.flags : []
            let message = message(of: envelope, in: bytes)
            let shown = serverMessage(of: envelope, in: bytes)
            let failure =
                ModuleRespError(outcome, sanitizedMessage: shown)
                ?? .unexpectedCode(ServerAnswer(envelope.code, sanitizedMessage: shown))
            var event: BaseCodeEvent?
            if case .base(let base) = outcome, baseHandler != nil {
                event = BaseCodeEvent(
                    code: base, flags: classification.flags, module: Code.moduleName, serverMessage: message)
            }
            return verdict(.failure(failure), code: envelope.code, flags: flags, message: message, event: event)
        }
    }
}
