import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Error adapters and registry")
struct AdapterTests {
    typealias Registry = ErrorAdapterRegistry<SyncCode>
    let standard = Registry.standard

    @Test("the standard registry asks the built-in adapters in the documented order")
    func standardOrder() {
        #expect(
            standard.adapterNames == [
                "CancellationErrorAdapter<SyncCode>", "URLErrorAdapter<SyncCode>", "DecodingErrorAdapter<SyncCode>",
                "POSIXErrorAdapter<SyncCode>", "HTTPStatusErrorAdapter<SyncCode>",
                "ReauthenticationErrorAdapter<SyncCode>", "UpstreamRefusalAdapter<SyncCode>",
            ])
    }

    @Test("a module error passes through unchanged")
    func identity() {
        let outcome = standard.handle(ModuleRespError<SyncCode>.module(.serverBusy))
        #expect(outcome.adapterName == "identity")
        #expect(outcome.error?.moduleCode == .serverBusy)
    }

    @Test(
        "URLError: cancellations become .cancelled, everything else a transport failure keeping the URLError",
        arguments: [
            URLError.Code.timedOut, .cannotFindHost, .notConnectedToInternet, .cancelled,
            .userCancelledAuthentication, .badURL, .serverCertificateHasBadDate,
        ])
    func urlError(code: URLError.Code) throws {
        let error = try #require(standard.adapt(URLError(code)))
        if code == .cancelled || code == .userCancelledAuthentication {
            #expect(error.isCancelled)
        } else {
            let kept = try #require(error.underlyingError as? URLError)
            #expect(kept.code == code)
            #expect(error.isTransport && !error.isCancelled)
        }
    }

    @Test("DecodingError becomes a decoding failure keeping the coding path")
    func decodingError() throws {
        struct Model: Decodable { let id: Int }
        var caught: (any Error)?
        do { _ = try JSONDecoder().decode(Model.self, from: Data(#"{"id":"x"}"#.utf8)) } catch { caught = error }
        let thrown = try #require(caught)
        let error = try #require(standard.adapt(thrown))
        let decoding = try #require(error.decodingError)
        guard case .typeMismatch(_, let context) = decoding else {
            Issue.record("expected typeMismatch, got \(decoding)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["id"])
    }

    @Test("CancellationError becomes .cancelled")
    func cancellation() {
        #expect(standard.adapt(CancellationError())?.isCancelled == true)
    }

    @Test(
        "POSIXError: ECANCELED is a cancellation, other codes transport failures keeping the code",
        arguments: [POSIXErrorCode.ECONNRESET, .ETIMEDOUT, .ENOENT, .ECANCELED])
    func posixError(code: POSIXErrorCode) throws {
        let error = try #require(standard.adapt(POSIXError(code)))
        if code == .ECANCELED {
            #expect(error.isCancelled)
        } else {
            #expect((error.underlyingError as? POSIXError)?.code == code)
        }
    }

    @Test("raw errno values: named ones keep a POSIXError, unnamed ones an NSError in NSPOSIXErrorDomain")
    func errnoValues() throws {
        let adapter = POSIXErrorAdapter<SyncCode>()
        #expect(
            (adapter.adapt(errno: POSIXErrorCode.ECONNREFUSED.rawValue).underlyingError as? POSIXError)?.code
                == .ECONNREFUSED)
        #expect(adapter.adapt(errno: POSIXErrorCode.ECANCELED.rawValue).isCancelled)
        let unnamed = try #require(adapter.adapt(errno: 99_999).underlyingError as? NSError)
        #expect(unnamed.domain == NSPOSIXErrorDomain)
        #expect(unnamed.code == 99_999)
    }

    @Test("HTTPStatusError becomes .unacceptableStatus with the same status", arguments: [404, 429, 503, 599, 42])
    func statusError(status: Int) {
        #expect(standard.adapt(HTTPStatusError(statusCode: status))?.statusCode == status)
    }

    @Test("an unknown error type is never lost: it becomes a transport failure keeping the error")
    func unknownIsKept() {
        let outcome = standard.handle(OpaqueFailure(tag: "mystery"))
        guard case .unknown(let error) = outcome else {
            Issue.record("expected .unknown, got \(outcome)")
            return
        }
        #expect(error.underlyingError as? OpaqueFailure == OpaqueFailure(tag: "mystery"))
        #expect(outcome.adapterName == nil)
    }

    @Test("an adapter returning nil ignores the error, and the registry says which adapter did")
    func ignoring() {
        var registry = Registry.standard
        registry.prepend(
            ClosureErrorAdapter(OpaqueFailure.self, for: SyncCode.self, name: "drop-noise") { failure in
                failure.tag == "noise" ? nil : .transportFailed(underlying: failure)
            })
        let ignored = registry.handle(OpaqueFailure(tag: "noise"))
        guard case .ignored(let kept, by: let name) = ignored else {
            Issue.record("expected .ignored, got \(ignored)")
            return
        }
        #expect(name == "drop-noise")
        #expect(kept as? OpaqueFailure == OpaqueFailure(tag: "noise"))
        #expect(registry.adapt(OpaqueFailure(tag: "noise")) == nil)
        #expect(registry.handle(OpaqueFailure(tag: "real")).adapterName == "drop-noise")
    }

    @Test("the first adapter whose type matches answers: a prepended adapter overrides the built-in one")
    func firstMatchWins() {
        var registry = Registry.standard
        registry.prepend(
            ClosureErrorAdapter(URLError.self, for: SyncCode.self, name: "offline-is-503") { _ in
                .unacceptableStatus(503)
            })
        let outcome = registry.handle(URLError(.notConnectedToInternet))
        #expect(outcome.adapterName == "offline-is-503")
        #expect(outcome.error?.statusCode == 503)
        // Appended after the built-in, the same adapter is never reached for URLError.
        var appended = Registry.standard
        appended.append(ClosureErrorAdapter(URLError.self, for: SyncCode.self, name: "late") { _ in .cancelled })
        #expect(appended.handle(URLError(.timedOut)).adapterName == "URLErrorAdapter<SyncCode>")
    }

    @Test("an empty registry passes module errors through and keeps everything else as unknown")
    func emptyRegistry() {
        let empty = Registry()
        #expect(empty.adapterNames.isEmpty)
        #expect(empty.handle(ModuleRespError<SyncCode>.cancelled).adapterName == "identity")
        guard case .unknown(let error) = empty.handle(URLError(.timedOut)) else {
            Issue.record("expected .unknown")
            return
        }
        #expect((error.underlyingError as? URLError)?.code == .timedOut)
    }

    @Test("every error gets exactly one outcome, and only ignored ones have no module error")
    func exactlyOneOutcome() {
        let errors: [any Error] = [
            URLError(.timedOut), URLError(.cancelled), CancellationError(), POSIXError(.EPIPE),
            HTTPStatusError(statusCode: 500), OpaqueFailure(tag: "x"), ModuleRespError<SyncCode>.unexpectedCode(1),
            ModuleRespError<StudyGroupCode>.module(.wrongTeamCode), NSError(domain: "other", code: 1),
        ]
        for error in errors {
            let outcome = standard.handle(error)
            switch outcome {
            case .adapted, .unknown: #expect(outcome.error != nil)
            case .ignored: Issue.record("the standard registry ignores nothing, but ignored \(error)")
            }
        }
    }
}
