import Foundation
import SwiftErrDefaultCatalog
import Testing

@testable import SwiftErr

/// Every input yields exactly one outcome.
@Suite("ResponseDecoder: envelopes to Result, typed throws and async")
struct ResponseDecoderTests {
    let decoder = ResponseDecoder()

    func result(_ body: Data, status: Int? = nil) -> Result<ClassItemModel, ModuleRespError<StudyGroupCode>> {
        decoder.result(from: body, statusCode: status)
    }

    /// A comparable summary of a result, since the error itself is not Equatable.
    func summary<M>(_ result: Result<M, ModuleRespError<StudyGroupCode>>) -> String {
        switch result {
        case .success: return "success"
        case .failure(let error):
            switch error {
            case .base(let code): return "base \(code.rawValue)"
            case .module(let code): return "module \(code.name)"
            case .unexpectedCode(let raw): return "unexpected \(raw)"
            case .transportFailed: return "transport"
            case .cancelled: return "cancelled"
            case .stoppedByUser: return "stopped"
            case .unacceptableStatus(let status): return "status \(status.statusCode)"
            case .invalidEnvelope(let failure): return "envelope \(failure.reason)"
            case .decodingFailed: return "decoding"
            case .invalidCatalog: return "catalog"
            case .reauthenticationFailed: return "reauthentication"
            case .refused(let refusal): return "refused \(refusal.reason)"
            }
        }
    }

    static let cases: [(Data, Int?, String)] = [
        (Fixtures.joinedClass, nil, "success"),
        (Fixtures.joinedClass, 200, "success"),
        (Fixtures.wrongTeamCode, nil, "module wrongTeamCode"),
        (Fixtures.classNotFound, 200, "module classNotFound"),
        (Fixtures.unlistedStudyGroup, nil, "module other"),
        (Fixtures.tokenExpired, nil, "base 11001"),
        (Fixtures.tagCode, nil, "unexpected 11160002"),
        (Fixtures.unknownCode, nil, "unexpected 424242"),
        (Fixtures.stringCode, nil, #"envelope codeNotInteger(found: SwiftErr.JSONValueKind.string, literal: "\"0\"")"#),
        (Fixtures.noCode, nil, "envelope missingCode"),
        (Fixtures.badData, nil, "decoding"),
        (Fixtures.notJSON, nil, #"envelope malformedJSON(expected: "a value")"#),
        (Fixtures.joinedClass, 503, "status 503"),
        (Fixtures.wrongTeamCode, 404, "status 404"),
    ]

    @Test("each recorded response has its one outcome", arguments: cases)
    func outcomes(body: Data, status: Int?, expected: String) {
        #expect(summary(result(body, status: status)) == expected)
    }

    @Test("another module's code is a failure, not silence")
    func lostCase() throws {
        let outcome = result(Fixtures.tagCode)
        guard case .failure(.unexpectedCode(11_160_002)) = outcome else {
            Issue.record("got \(outcome)")
            return
        }
    }

    @Test("success decodes the payload")
    func success() throws {
        let model = try decoder.decode(ClassItemModel.self, module: StudyGroupCode.self, from: Fixtures.joinedClass)
        #expect(model == ClassItemModel(classId: "c-1", name: "三年二班"))
    }

    @Test(
        "data missing or null: Optional gives nil, NoData succeeds, a plain model fails with valueNotFound",
        arguments: [Fixtures.successNoData, Fixtures.successNullData])
    func missingData(body: Data) throws {
        let optional = try decoder.decode(ClassItemModel?.self, module: StudyGroupCode.self, from: body)
        #expect(optional == nil)
        let none = try decoder.decode(NoData.self, module: StudyGroupCode.self, from: body)
        #expect(none == NoData())
        let plain: Result<ClassItemModel, ModuleRespError<StudyGroupCode>> = decoder.result(from: body)
        guard case .failure(let error) = plain, case .valueNotFound? = error.decodingError else {
            Issue.record("expected valueNotFound, got \(plain)")
            return
        }
    }

    @Test("Optional model with data present decodes it; NoData ignores any payload")
    func presentData() throws {
        let optional = try decoder.decode(ClassItemModel?.self, module: StudyGroupCode.self, from: Fixtures.joinedClass)
        #expect(optional?.classId == "c-1")
        #expect(try decoder.decode(NoData.self, module: StudyGroupCode.self, from: Fixtures.badData) == NoData())
    }

    @Test("the code/message key set")
    func alternativeKeys() throws {
        let other = ResponseDecoder(keys: .codeMessage)
        let body = Fixtures.body(#"{"code":11210007,"message":"nickname","data":null}"#)
        let outcome: Result<NoData, ModuleRespError<StudyGroupCode>> = other.result(from: body)
        #expect(summary(outcome) == "module nicknameExists")
        // With the default keys the same body has no code.
        let defaultOutcome: Result<NoData, ModuleRespError<StudyGroupCode>> = decoder.result(from: body)
        #expect(summary(defaultOutcome) == "envelope missingCode")
    }

    @Test("Result and typed throws agree")
    func resultEqualsThrows() {
        for body in [
            Fixtures.joinedClass, Fixtures.wrongTeamCode, Fixtures.tokenExpired, Fixtures.tagCode, Fixtures.badData,
            Fixtures.notJSON,
        ] {
            let viaResult = summary(result(body))
            let viaThrows: String
            do {
                _ = try decoder.decode(ClassItemModel.self, module: StudyGroupCode.self, from: body)
                viaThrows = "success"
            } catch {
                viaThrows = summary(Result<ClassItemModel, ModuleRespError<StudyGroupCode>>.failure(error))
            }
            #expect(viaResult == viaThrows)
        }
    }

    @Test("async form: transport result, transport failure and cancellation")
    func async() async throws {
        let model = try await decoder.decode(ClassItemModel.self, module: StudyGroupCode.self) {
            TransportResponse(statusCode: 200, body: Fixtures.joinedClass)
        }
        #expect(model.name == "三年二班")

        struct Offline: Error {}
        let failed: Result<ClassItemModel, ModuleRespError<StudyGroupCode>> = await decoder.result { throw Offline() }
        guard case .failure(.transportFailed(let underlying)) = failed, underlying is Offline else {
            Issue.record("got \(failed)")
            return
        }
        let cancelled: Result<ClassItemModel, ModuleRespError<StudyGroupCode>> = await decoder.result {
            throw CancellationError()
        }
        #expect(summary(cancelled) == "cancelled")
        let urlCancelled: Result<ClassItemModel, ModuleRespError<StudyGroupCode>> = await decoder.result {
            throw URLError(.cancelled)
        }
        #expect(summary(urlCancelled) == "cancelled")
        let timedOut: Result<ClassItemModel, ModuleRespError<StudyGroupCode>> = await decoder.result {
            throw URLError(.timedOut)
        }
        #expect(summary(timedOut) == "transport")

        do {
            _ = try await decoder.decode(ClassItemModel.self, module: StudyGroupCode.self) {
                TransportResponse(statusCode: 200, body: Fixtures.classNotFound)
            }
            Issue.record("expected a failure")
        } catch .module(.classNotFound) {
            // expected
        } catch {
            Issue.record("wrong error \(error)")
        }
    }

    @Test("the transport runs exactly once per call")
    func transportOnce() async {
        let calls = Locked(0)
        let _: Result<NoData, ModuleRespError<StudyGroupCode>> = await decoder.result {
            calls.withLock { $0 += 1 }
            return TransportResponse(body: Fixtures.successNoData)
        }
        #expect(calls.withLock { $0 } == 1)
    }

    @Test("raw code to typed outcome without an envelope")
    func rawCodes() {
        #expect(StudyGroupCode.classify(0) == .success)
        #expect(StudyGroupCode.classify(11001) == .base(.tokenExpire))
        #expect(StudyGroupCode.classify(11_210_036) == .module(.clockFrequencyInvalid))
        #expect(StudyGroupCode.classify(11_219_999) == .module(.other(11_219_999)))
        #expect(StudyGroupCode.classify(11_020_005) == .unexpected(11_020_005))
        #expect(UploadCode.classify(11_020_005) == .module(.uploadRepeate))
        #expect(StudyGroupCode.classify((1 << 32) + 11001) == .unexpected((1 << 32) + 11001))
        let classified = decoder.classify(11_210_005, module: StudyGroupCode.self)
        #expect(classified == .module(.wrongTeamCode) && classified.rawCode == 11_210_005)
        #expect(ModuleRespError(classified)?.moduleCode == .wrongTeamCode)
        #expect(ModuleRespError<StudyGroupCode>(StudyGroupCode.classify(0)) == nil)
    }
}
