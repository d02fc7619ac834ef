import Foundation

/// A response decoded without running the base handler: the event it would have received is held
/// for the caller, who delivers it or not (a ``ResponseClient`` with an ``AuthenticationSession``
/// does not deliver the events of the answers its session handles).
struct HeldResult<Model, Code: ModuleCode> {
    /// The payload, or the one error that describes the response.
    var result: Result<Model, ModuleRespError<Code>>
    /// What ``ResponseDecoder/baseHandler`` would have received for a base-tier code; `nil` for
    /// every other outcome and when the decoder has no handler.
    var baseEvent: BaseCodeEvent?
    /// The code's flags in the module's catalog (empty when the envelope had the success code or
    /// none could be read).
    var flags: CodeFlags
    /// The envelope's message, as the server sent it, when its code was not the success code.
    var serverMessage: String?
}

extension ResponseDecoder {
    /// Decodes a whole response as ``result(_:module:from:)-(_,_,TransportResponse)`` does, holding
    /// back the base handler's event instead of running the handler.
    /// - Parameters:
    ///   - model: The payload type.
    ///   - module: The module enum the request belongs to.
    ///   - response: The response.
    /// - Returns: The result, the held event, and the code's flags and message.
    func resultHoldingBaseEvent<Model: Decodable, Code: ModuleCode>(
        _ model: Model.Type, module: Code.Type, from response: TransportResponse
    ) -> HeldResult<Model, Code> {
        let envelope: LocatedEnvelope
        do {
            envelope = try locate(response)
        } catch {
            switch error {
            case .status(let status): return HeldResult(result: .failure(.unacceptableStatus(status)), flags: [])
            case .envelope(let failure): return HeldResult(result: .failure(.invalidEnvelope(failure)), flags: [])
            }
        }
        let classifier = Code.classifier
        let classification = classifier.classification(of: envelope.code)
        let outcome = classifier.outcome(of: classification, code: envelope.code)
        if case .success = outcome {
            do {
                return HeldResult(result: .success(try payload(Model.self, of: envelope, in: response.body)), flags: [])
            } catch {
                return HeldResult(result: .failure(.decodingFailed(underlying: error)), flags: [])
            }
        }
        let flags = classification.isExact ? classification.flags : []
        let message = message(of: envelope, in: response.body)
        let shown = serverMessage(of: envelope, in: response.body)
        let failure =
            ModuleRespError(outcome, sanitizedMessage: shown)
            ?? .unexpectedCode(ServerAnswer(envelope.code, sanitizedMessage: shown))
        var held = HeldResult<Model, Code>(result: .failure(failure), flags: flags, serverMessage: message)
        if case .base(let base) = outcome, baseHandler != nil {
            held.baseEvent = BaseCodeEvent(
                code: base, flags: classification.flags, module: Code.moduleName, serverMessage: message)
        }
        return held
    }
}
