import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

/// ModuleRespError: matching in catch and switch, accessors, flags and descriptions.
@Suite("ModuleRespError: typed module errors")
struct ModuleRespErrorTests {
    let decoder = ResponseDecoder()

    func join(_ body: Data) throws(ModuleRespError<StudyGroupCode>) -> ClassItemModel {
        try decoder.decode(ClassItemModel.self, module: StudyGroupCode.self, from: body)
    }

    @Test("catch matches a module case with typed throws")
    func catchTyped() {
        var caught = false
        do {
            _ = try join(Fixtures.wrongTeamCode)
            Issue.record("expected a failure")
        } catch .module(.wrongTeamCode) {
            caught = true
        } catch {
            Issue.record("wrong error \(error)")
        }
        #expect(caught)
    }

    @Test("catch matches ModuleRespError<StudyGroupCode>.module(.wrongTeamCode) from an untyped throw")
    func catchUntyped() {
        func untyped() throws -> ClassItemModel { try join(Fixtures.wrongTeamCode) }
        var caught = false
        do {
            _ = try untyped()
        } catch ModuleRespError<StudyGroupCode>.module(.wrongTeamCode) {
            caught = true
        } catch {
            Issue.record("wrong error \(error)")
        }
        #expect(caught)
    }

    @Test("switch covers base, module and the rest; base constants match with ~=")
    func switching() {
        func kind(_ error: ModuleRespError<StudyGroupCode>) -> String {
            switch error {
            case .base(.tokenExpire): return "token"
            case .base: return "base"
            case .module(.wrongTeamCode), .module(.classNotFound): return "warning"
            case .module(let answer) where answer.isUnrecognised: return "other"
            case .module: return "module"
            case .unexpectedCode: return "unexpected"
            case .transportFailed, .cancelled, .unacceptableStatus: return "transport"
            case .invalidEnvelope, .decodingFailed, .invalidCatalog, .stoppedByUser: return "client"
            case .reauthenticationFailed: return "session"
            case .refused: return "refused"
            }
        }
        #expect(kind(.base(.tokenExpire)) == "token")
        #expect(kind(.base(.overVerifyCode)) == "base")
        #expect(kind(.module(.classNotFound)) == "warning")
        #expect(kind(.module(.other(11_219_999))) == "other")
        #expect(kind(.module(.joinTeamMax)) == "module")
        #expect(kind(.unexpectedCode(1)) == "unexpected")
        #expect(kind(.cancelled) == "transport")
        #expect(kind(.reauthenticationFailed(ReauthenticationError(reason: .refreshFailed))) == "session")
        #expect(kind(.refused(UpstreamRefusal(reason: .throttled, retryAfter: nil))) == "refused")
    }

    @Test("accessors")
    func accessors() {
        let module = ModuleRespError<StudyGroupCode>.module(.wrongTeamCode)
        #expect(module.rawCode == 11_210_005)
        #expect(module.module == "studyGroup")
        #expect(module.isModule && !module.isBase && !module.isTransport && module.isServerCode)
        #expect(module.flags == [.showUser])
        #expect(module.underlyingError == nil)
        #expect(module.outcome == .module(.wrongTeamCode))

        let base = ModuleRespError<StudyGroupCode>.base(.tokenExpire)
        #expect(base.rawCode == 11001 && base.isBase && base.module == nil)
        #expect(base.requiresReauthentication)
        #expect(!base.isRetryable)
        #expect(!ModuleRespError<StudyGroupCode>.base(.verifyCodeIncorrect).requiresReauthentication)

        let other = ModuleRespError<StudyGroupCode>.module(.other(11_219_999))
        #expect(other.rawCode == 11_219_999, "an unrecognised code keeps the server's number")
        #expect(other.isModule && other.flags == [])

        struct Offline: Error {}
        let transport = ModuleRespError<StudyGroupCode>.transportFailed(underlying: Offline())
        #expect(transport.isTransport && transport.isRetryable && transport.underlyingError is Offline)
        #expect(transport.rawCode == nil && transport.flags == [])
        #expect(ModuleRespError<StudyGroupCode>.cancelled.isTransport)
        #expect(!ModuleRespError<StudyGroupCode>.cancelled.isRetryable)
        #expect(ModuleRespError<StudyGroupCode>.unacceptableStatus(503).isRetryable)
        #expect(!ModuleRespError<StudyGroupCode>.unacceptableStatus(404).isRetryable)
        #expect(ModuleRespError<StudyGroupCode>.unacceptableStatus(404).statusCode == 404)

        let envelope = EnvelopeError(reason: .missingCode, offset: 0, key: "ret")
        let invalid = ModuleRespError<StudyGroupCode>.invalidEnvelope(envelope)
        #expect(invalid.isInvalidEnvelope && invalid.envelopeError == envelope)
        #expect(invalid.underlyingError as? EnvelopeError == envelope)
    }

    @Test("retryable and fatal flags come from the catalog")
    func catalogFlags() throws {
        let base = try Catalog.register(FlaggedCode.self)
        #expect(base.classify(11_500_001).flags == [.retryable])
        #expect(ModuleRespError<FlaggedCode>.module(.busy).isRetryable)
        #expect(!ModuleRespError<FlaggedCode>.module(.busyButFatal).isRetryable)
        #expect(!ModuleRespError<FlaggedCode>.module(.plain).isRetryable)
    }

    @Test("descriptions for logs")
    func descriptions() {
        #expect(
            ModuleRespError<StudyGroupCode>.module(.wrongTeamCode).description
                == "studyGroup.wrongTeamCode (11210005): The class code is wrong.")
        #expect(
            ModuleRespError<StudyGroupCode>.base(.tokenExpire).description
                == "base.tokenExpire (11001): Your session has expired. Please sign in again.")
        #expect(
            ModuleRespError<StudyGroupCode>.unexpectedCode(11_160_002).description
                == "unexpected code 11160002 for module studyGroup, owned by module 'tag'")
        #expect(
            ModuleRespError<StudyGroupCode>.unexpectedCode(5).description == "unexpected code 5 for module studyGroup")
        #expect(ModuleRespError<StudyGroupCode>.unacceptableStatus(502).description == "unacceptable HTTP status 502")
        #expect(
            ModuleRespError<StudyGroupCode>.module(.other(11_219_999)).description
                == "studyGroup: unrecognised code 11219999: Unrecognised Study group error (code 11219999)")
        #expect(
            ModuleRespError<StudyGroupCode>.cancelled.debugDescription == "ModuleRespError<StudyGroupCode>: cancelled")
    }

    @Test("errors are Sendable across tasks")
    func sendable() async {
        let error = ModuleRespError<StudyGroupCode>.module(.joinTeamMax)
        let code = await Task.detached { error.rawCode }.value
        #expect(code == 11_210_017)
    }

    @Test("an unrecognised module code keeps the server's number and message everywhere, and still matches")
    func unrecognisedKeepsNumber() throws {
        let result: Result<NoData, ModuleRespError<StudyGroupCode>> = ResponseDecoder().result(
            from: Fixtures.unlistedStudyGroup)
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.rawCode == 11_219_999)
        #expect(error.description.contains("11219999"))
        #expect(error.debugDescription.contains("11219999"))
        #expect(error.serverMessage == "new server code")
        // The server's message or the catalog's text, by the process-wide switch (which the
        // serialized ServerMessageTests turn off for a moment): the number either way.
        #expect(error.errorDescription(in: .english).hasSuffix(" (code 11219999)"))
        #expect(error.failureReason(in: .english).contains("11219999"))
        let bridged = error as NSError
        #expect(bridged.code == 11_219_999)
        #expect((bridged.userInfo[ModuleRespErrorKeys.rawCode] as? NSNumber)?.int64Value == 11_219_999)
        var matched = false
        do throws(ModuleRespError<StudyGroupCode>) {
            throw error
        } catch .module(let answer) where answer.isUnrecognised {
            matched = true
        } catch {
            Issue.record("expected an unrecognised module code, got \(error)")
        }
        #expect(matched)
        if case .other(let raw)? = error.moduleCode { #expect(raw == 11_219_999) } else { Issue.record("no payload") }
    }
}

/// A Swift-only module with flags, registered on the built-in catalog (`DefaultCatalogRegistry`).
enum FlaggedCode: ModuleCode {
    case busy, busyButFatal, plain
    case other(Int64)

    static var moduleName: String { "flaggedTest" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Flagged") }
    static var codeRanges: [ClosedRange<Int64>] { [11_500_000...11_500_999] }
    static var listedCases: [Self] { [.busy, .busyButFatal, .plain] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static var classifier: ModuleClassifier<Self> { DefaultCatalogRegistry.classifier(for: Self.self) }

    var flags: CodeFlags {
        switch self {
        case .busy: return [.retryable]
        case .busyButFatal: return [.retryable, .fatal]
        case .plain, .other: return []
        }
    }

    var message: LocalizedText {
        switch self {
        case .busy: return LocalizedText(english: "Busy.")
        case .busyButFatal: return LocalizedText(english: "Busy for good.")
        case .plain: return LocalizedText(english: "Plain.")
        case .other: return Self.unrecognisedMessage
        }
    }
    var code: Int64 {
        switch self {
        case .busy: return 11_500_001
        case .busyButFatal: return 11_500_002
        case .plain: return 11_500_003
        case .other(let code): return code
        }
    }
}
