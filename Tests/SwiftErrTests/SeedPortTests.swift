import Foundation
import Testing
@testable import SwiftErr

// Seed 000 ported to SwiftErr: its `StudyGroupRespCode`, `queryDemo` and `handleError`,
// run on recorded envelopes. The seed's `NetWorkRequest.requestISResultType` becomes a
// `ResponseDecoder` (base codes handled centrally, exactly one outcome per response), and its
// `ModuleRespError<T>.type / .baseType` becomes `.module / .base`.

/// The seed's module enum, as written there, plus the module identity SwiftErr needs. It uses
/// the built-in C table, which already holds the study-group module.
enum StudyGroupRespCode: Int, ModuleCode {
    case wrongTeamCode = 11210005
    case classNotFound = 11210006
    case nicknameExists = 11210007
    case joinClassThreeTimes = 11210008
    case identityNickNameExists = 11210014
    case checkClassCodeMax = 11210016
    case createClassMAx = 11210015
    case joinTeamMax = 11210017
    case studentCountMax = 11210018
    case folderLevelLimit = 11210027
    case curIdentifierError = 11210011
    case clockFrequencyInvalid = 11210036
    // The seed wrote `case other` with no value, which Swift numbers 11210037: a real code
    // in the module's range. SwiftErr uses the seeds' client-side sentinel instead.
    case other = -99999

    static var moduleName: String { "studyGroup" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Study group", simplifiedChinese: "学习小组") }
    static var codeRanges: [ClosedRange<Int64>] { [11_210_000...11_219_999] }
    static var unrecognised: Self { .other }
    static let classifier = ModuleClassifier<Self>(catalog: .builtIn)

    /// The seed's `errorString`, now read from the C catalog.
    var message: LocalizedText {
        guard let code, let table = Self.catalog.table, let index = table.classify(code).entryIndex else {
            return Self.unrecognisedMessage
        }
        return LocalizedText(english: table.entryMessage(at: index, in: .english) ?? "",
                             simplifiedChinese: table.entryMessage(at: index, in: .simplifiedChinese))
    }
}

/// The recorded backend: one envelope per team code the demo sends.
struct RecordedServer: Sendable {
    let responses: [String: String] = [
        "T-OK": #"{"ret":0,"msg":"success","data":{"classId":"42","name":"Class 3-2"}}"#,
        "T-WRONG": #"{"ret":11210005,"msg":"班级码错误","data":null}"#,
        "T-GONE": #"{"ret":11210006,"msg":"班级不存在"}"#,
        "T-FULL": #"{"ret":11210018,"msg":"班级人数已满"}"#,
        "T-EXPIRED": #"{"ret":11001,"msg":"token expire"}"#,
        "T-LOST": #"{"ret":11160003,"msg":"tag exists"}"#,
        "T-NEW": #"{"ret":11210099,"msg":"new code"}"#,
        "T-BROKEN": #"{"ret":0,"data":{"classId":42}}"#,
    ]

    func fetch(_ params: [String: String]) async throws -> TransportResponse {
        guard let text = responses[params["teamCode"] ?? ""] else { throw URLError(.badServerResponse) }
        return TransportResponse(statusCode: 200, body: Data(text.utf8))
    }
}

/// The seed's logic object with `queryDemo`, now returning one `Result` per call.
struct StudyGroupLogic: Sendable {
    let server = RecordedServer()
    let decoder: ResponseDecoder

    func queryDemo(with params: [String: String],
                   completionHandler: @escaping @Sendable (Result<ClassItemModel, ModuleRespError<StudyGroupRespCode>>) -> Void) async {
        let result: Result<ClassItemModel, ModuleRespError<StudyGroupRespCode>> = await decoder.result {
            try await server.fetch(params)
        }
        completionHandler(result)
    }
}

/// The seed's view state: a warning label and a HUD.
final class DemoView: Sendable {
    struct State: Equatable {
        var warningLabelHidden = true
        var hud: [String] = []
        var succeeded: [String] = []
    }
    let state = Locked(State())

    func handleSuccess(_ model: ClassItemModel) {
        state.withLock { $0.succeeded.append(model.name) }
    }

    /// The seed's `handleError`: module codes handled here, base codes only shown (the central
    /// handler already reacted), everything else shown too.
    func handleError(_ error: ModuleRespError<StudyGroupRespCode>) {
        let text = error.errorDescription(in: .english)
        state.withLock { state in
            switch error {
            case .module(let code):
                let showWarning = code == .wrongTeamCode || code == .classNotFound
                state.warningLabelHidden = !showWarning
                state.hud.append(text)
            case .base:
                state.hud.append(text)
            default:
                state.hud.append("error: " + text)
            }
        }
    }
}

/// A thread-safe counter for the central handler.
final class Counter: Sendable {
    private let count = Locked(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

@Suite("Seed 000 ported: StudyGroupRespCode, queryDemo, handleError", .serialized)
struct SeedPortTests {
    func run(_ teamCode: String, view: DemoView, expired: Counter) async {
        let decoder = ResponseDecoder(baseHandler: .reauthenticate { _ in expired.increment() })
        let logic = StudyGroupLogic(decoder: decoder)
        let calls = Locked(0)
        await logic.queryDemo(with: ["teamCode": teamCode]) { result in
            calls.withLock { $0 += 1 }
            switch result {
            case .success(let model): view.handleSuccess(model)
            case .failure(let error): view.handleError(error)
            }
        }
        // Every input yields exactly one callback (the seed's requestISResultType lost some).
        #expect(calls.withLock { $0 } == 1, "\(teamCode)")
    }

    @Test("the port agrees with the built-in StudyGroupCode on every code")
    func sameCodes() {
        for value in StudyGroupRespCode.allCases where !value.isUnrecognised {
            let builtIn = StudyGroupCode(rawValue: value.rawValue)
            #expect(builtIn?.name == value.name)
            #expect(builtIn?.message == value.message)
            #expect(StudyGroupRespCode.classify(Int64(value.rawValue)).outcome == .module(value))
        }
        #expect(StudyGroupRespCode.allCases.count == StudyGroupCode.allCases.count)
    }

    @Test("recorded envelopes drive the seed's UI logic")
    func demo() async {
        let view = DemoView()
        let expired = Counter()

        await run("T-OK", view: view, expired: expired)
        #expect(view.state.withLock { $0 } == DemoView.State(warningLabelHidden: true, hud: [], succeeded: ["Class 3-2"]))

        await run("T-WRONG", view: view, expired: expired)
        #expect(view.state.withLock { $0.warningLabelHidden } == false)
        #expect(view.state.withLock { $0.hud.last } == "The class code is wrong.")

        await run("T-FULL", view: view, expired: expired)
        #expect(view.state.withLock { $0.warningLabelHidden } == true)
        #expect(view.state.withLock { $0.hud.last } == "The class is full.")

        await run("T-GONE", view: view, expired: expired)
        #expect(view.state.withLock { $0.warningLabelHidden } == false)

        await run("T-EXPIRED", view: view, expired: expired)
        #expect(expired.value == 1)
        #expect(view.state.withLock { $0.hud.last } == "Your session has expired. Please sign in again.")

        // The seed's lost case: a tag code answered to a study-group request.
        await run("T-LOST", view: view, expired: expired)
        #expect(view.state.withLock { $0.hud.last } == "error: A tag with this name already exists.")

        await run("T-NEW", view: view, expired: expired)
        #expect(view.state.withLock { $0.hud.last } == "Unrecognised Study group error")

        await run("T-BROKEN", view: view, expired: expired)
        #expect(view.state.withLock { $0.hud.last } == "error: The data the server sent could not be read.")

        await run("T-UNKNOWN-TEAM", view: view, expired: expired)
        #expect(view.state.withLock { $0.hud.last } == "error: The network request failed.")

        #expect(expired.value == 1)
        #expect(view.state.withLock { $0.succeeded } == ["Class 3-2"])
        #expect(view.state.withLock { $0.hud.count } == 8)
    }
}
