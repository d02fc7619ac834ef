import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One mapping of foreign errors: the decoder's transport path, the adapter registry (which the
/// retrier and the error channel call) and `ModuleRespError(adapting:)` give the same answer.
@Suite("One mapping of foreign errors")
struct OneMappingTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    /// A comparable summary of a module error.
    static func summary(_ error: Failure) -> String {
        switch error {
        case .base(let code): return "base \(code.rawValue)"
        case .module(let code): return "module \(code.code)"
        case .unexpectedCode(let raw): return "unexpected \(raw)"
        case .transportFailed(let underlying): return "transport \(String(describing: underlying))"
        case .cancelled: return "cancelled"
        case .stoppedByUser: return "stopped"
        case .unacceptableStatus(let status):
            return "status \(status.statusCode) \(String(describing: status.retryAfter))"
        case .invalidEnvelope(let failure): return "envelope \(failure.reason)"
        case .decodingFailed: return "decoding"
        case .invalidCatalog: return "catalog"
        case .reauthenticationFailed(let failure): return "reauthentication \(failure.reason)"
        case .refused(let refusal): return "refused \(refusal)"
        }
    }

    static let foreignErrors: [any Error] = [
        CancellationError(), URLError(.cancelled), URLError(.userCancelledAuthentication), URLError(.timedOut),
        URLError(.badURL), POSIXError(.ECANCELED), POSIXError(.ECONNRESET),
        HTTPStatusError(statusCode: 503, retryAfter: .seconds(1)), HTTPStatusError(statusCode: 404),
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "bad")),
        OpaqueFailure(tag: "mystery"), ModuleRespError<UploadCode>.base(.tokenExpire),
        ModuleRespError<TagCode>.module(.invalidTagName), ModuleRespError<UploadCode>.unexpectedCode(11_210_005),
        ReauthenticationError(reason: .excessiveRefresh(.default)),
        UpstreamRefusal(reason: .circuitOpen, retryAfter: .milliseconds(3_200)),
    ]

    @Test("the decoder's transport errors map exactly as the adapter registry maps them", arguments: foreignErrors)
    func decoderAgreesWithRegistry(error: any Error) async {
        let decoded: Result<NoData, Failure> = await ResponseDecoder().result { throw error }
        guard case .failure(let fromDecoder) = decoded else {
            Issue.record("expected a failure for \(error)")
            return
        }
        let fromRegistry = ErrorAdapterRegistry<StudyGroupCode>.standard.moduleError(for: error)
        #expect(Self.summary(fromDecoder) == Self.summary(fromRegistry))
        #expect(Self.summary(Failure(adapting: error)) == Self.summary(fromRegistry))
    }

    @Test(
        "cancellations are .cancelled for the decoder too, never a retryable transport failure",
        arguments: [URLError(.userCancelledAuthentication), POSIXError(.ECANCELED), URLError(.cancelled)] as [any Error]
    )
    func cancellationsAgree(error: any Error) async {
        let decoded: Result<NoData, Failure> = await ResponseDecoder().result { throw error }
        guard case .failure(let failure) = decoded else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.isCancelled)
        #expect(!failure.isRetryable)
    }

    @Test("a status validated in the transport closure is .unacceptableStatus with its Retry-After")
    func statusValidatedInTransportClosure() async throws {
        let decoder = ResponseDecoder()
        let unavailable: Result<NoData, Failure> = await decoder.result {
            try TransportResponse(statusCode: 503, headerFields: ["Retry-After": "1"], body: Data()).validated()
        }
        guard case .failure(.unacceptableStatus(let status)) = unavailable else {
            Issue.record("expected .unacceptableStatus, got \(unavailable)")
            return
        }
        #expect(status.statusCode == 503)
        #expect(status.retryAfter == .seconds(1))
        let notFound: Result<NoData, Failure> = await decoder.result {
            try TransportResponse(statusCode: 404, body: Data()).validated(retryAfter: nil)
        }
        guard case .failure(let failure) = notFound else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.statusCode == 404)
        #expect(!failure.isRetryable, "a 404 is final, not a retryable transport failure")
    }

    @Test("the decoder's own status check keeps the response's Retry-After, whatever the header's case")
    func decoderStatusKeepsRetryAfter() throws {
        let response = TransportResponse(statusCode: 429, headerFields: ["retry-after": "7"], body: Data())
        let result: Result<NoData, Failure> = ResponseDecoder().result(from: response)
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.retryAfter == .seconds(7))
        #expect(failure.description == "unacceptable HTTP status 429 (Retry-After: 7)")
    }

    @Test("another module's error is converted: server codes keep their number and stay server codes")
    func otherModulesErrors() {
        let registry = ErrorAdapterRegistry<UploadCode>.standard
        let studyGroup = registry.handle(ModuleRespError<StudyGroupCode>.module(.wrongTeamCode))
        #expect(studyGroup.adapterName == "module conversion")
        #expect(studyGroup.error?.isUnexpectedCode == true)
        #expect(studyGroup.error?.rawCode == 11_210_005)
        #expect(registry.moduleError(for: ModuleRespError<StudyGroupCode>.base(.tokenExpire)).baseCode == .tokenExpire)
        // The same module under another enum: the code is this module's again.
        let own = ModuleRespError<StudyGroupCode>(converting: ModuleRespError<UploadCode>.unexpectedCode(11_210_006))
        #expect(own.moduleCode == .classNotFound)
        let status = ModuleRespError<UploadCode>(
            converting: Failure.unacceptableStatus(
                HTTPStatusError(
                    statusCode: 503, retryAfter: .seconds(2))))
        #expect(status.retryAfter == .seconds(2))
    }

    @Test("a status error matches an integer or a range in a pattern, whatever its Retry-After")
    func statusPatterns() {
        let error = Failure.unacceptableStatus(HTTPStatusError(statusCode: 503, retryAfter: .seconds(1)))
        var matched: [String] = []
        if case .unacceptableStatus(503) = error { matched.append("503") }
        if case .unacceptableStatus(500...599) = error { matched.append("5xx") }
        if case .unacceptableStatus(400..<500) = error { matched.append("4xx") }
        #expect(matched == ["503", "5xx"])
    }
}
