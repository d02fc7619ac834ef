import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import SwiftErrURLSession
import Testing

// A study-group client written as an app would: its own module enum `StudyGroupRespCode`, a
// `queryDemo` request with a completion handler (three lines on ResponseClient) and a
// `handleError` that drives the view, against a real HTTP server on 127.0.0.1. Base codes are
// handled centrally and every request gets exactly one callback.

/// An app's own study-group module enum, classified through the built-in C table, which already
/// holds the study-group module.
enum StudyGroupRespCode: ModuleCode {
    case wrongTeamCode, classNotFound, nicknameExists, joinClassThreeTimes, identityNickNameExists, checkClassCodeMax,
        createClassMAx, joinTeamMax, studentCountMax, folderLevelLimit, curIdentifierError, clockFrequencyInvalid
    case other(Int64)

    static var moduleName: String { "studyGroup" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Study group", simplifiedChinese: "学习小组") }
    static var codeRanges: [ClosedRange<Int64>] { [11_210_000...11_219_999] }
    static var listedCases: [Self] {
        [
            .wrongTeamCode, .classNotFound, .nicknameExists, .joinClassThreeTimes, .identityNickNameExists,
            .checkClassCodeMax, .createClassMAx, .joinTeamMax, .studentCountMax, .folderLevelLimit, .curIdentifierError,
            .clockFrequencyInvalid,
        ]
    }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static let classifier = ModuleClassifier<Self>(catalog: .builtIn)

    /// The message in each of the C catalog's languages, read from it.
    var message: LocalizedText {
        guard let catalog = Self.catalog, !isUnrecognised, let index = catalog.classify(code).entryIndex else {
            return Self.unrecognisedMessage
        }
        var text = LocalizedText([:])
        for language in catalog.languages {
            text[language] = catalog.entryMessage(at: index, in: language)
        }
        return text
    }
    var code: Int64 {
        switch self {
        case .wrongTeamCode: return 11210005
        case .classNotFound: return 11210006
        case .nicknameExists: return 11210007
        case .joinClassThreeTimes: return 11210008
        case .identityNickNameExists: return 11210014
        case .checkClassCodeMax: return 11210016
        case .createClassMAx: return 11210015
        case .joinTeamMax: return 11210017
        case .studentCountMax: return 11210018
        case .folderLevelLimit: return 11210027
        case .curIdentifierError: return 11210011
        case .clockFrequencyInvalid: return 11210036
        case .other(let code): return code
        }
    }
}

/// The backend: one envelope per team code the demo sends, served on loopback; an unknown team
/// code gets its connection closed without a response.
enum StudyGroupBackend {
    static let responses: [String: String] = [
        "T-OK": #"{"ret":0,"msg":"success","data":{"classId":"42","name":"Class 3-2"}}"#,
        "T-WRONG": #"{"ret":11210005,"msg":"班级码错误","data":null}"#,
        "T-GONE": #"{"ret":11210006,"msg":"班级不存在"}"#,
        "T-FULL": #"{"ret":11210018,"msg":"班级人数已满"}"#,
        "T-EXPIRED": #"{"ret":11001,"msg":"token expire"}"#,
        "T-LOST": #"{"ret":11160003,"msg":"tag exists"}"#,
        "T-NEW": #"{"ret":11210099,"msg":"new code"}"#,
        "T-BROKEN": #"{"ret":0,"data":{"classId":42}}"#,
    ]

    static func start() throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer()
        server.route("/class/query") { request in
            guard let text = responses[request.query["teamCode"] ?? ""] else { return .close }
            return .json(text)
        }
        return server
    }
}

/// The logic object with `queryDemo`, calling back once per call.
struct StudyGroupLogic: Sendable {
    let client: ResponseClient
    let baseURL: URL

    func queryDemo(
        with params: [String: String],
        completionHandler: @escaping @Sendable (Result<ClassItemModel, ModuleRespError<StudyGroupRespCode>>) -> Void
    ) {
        let query = params.map { URLQueryItem(name: $0.key, value: $0.value) }
        let url = baseURL.appending(path: "class/query").appending(queryItems: query)
        client.send(URLRequest(url: url), completionHandler: completionHandler)
    }
}

/// The view state: a warning label and a HUD.
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

    /// Module codes handled here, base codes only shown (the central handler already reacted),
    /// everything else shown too.
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

@Suite("A study-group client: its own module enum, queryDemo, handleError", .serialized)
struct StudyGroupRequestTests {
    func run(_ teamCode: String, logic: StudyGroupLogic, view: DemoView) async {
        let calls = Locked(0)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            logic.queryDemo(with: ["teamCode": teamCode]) { result in
                calls.withLock { $0 += 1 }
                switch result {
                case .success(let model): view.handleSuccess(model)
                case .failure(let error): view.handleError(error)
                }
                done.resume()
            }
        }
        // Every input yields exactly one callback.
        #expect(calls.withLock { $0 } == 1, "\(teamCode)")
    }

    @Test("the app's enum agrees with the built-in StudyGroupCode on every code")
    func sameCodes() {
        for value in StudyGroupRespCode.listedCases {
            let builtIn = StudyGroupCode(code: value.code)
            #expect(builtIn?.name == value.name)
            #expect(builtIn?.message == value.message)
            #expect(StudyGroupRespCode.classify(value.code) == .module(value))
        }
        #expect(StudyGroupRespCode.listedCases.count == StudyGroupCode.listedCases.count)
    }

    @Test("server answers drive the view logic, one callback each, through one call per request")
    func demo() async throws {
        let server = try StudyGroupBackend.start()
        defer { server.stop() }
        let view = DemoView()
        let expired = Counter()
        let client = ResponseClient(
            session: URLSession(configuration: .ephemeral),
            decoder: ResponseDecoder(baseHandler: .reauthenticate { _ in expired.increment() }),
            policy: RetryPolicy(initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(40)))
        let logic = StudyGroupLogic(client: client, baseURL: server.url("/"))

        await run("T-OK", logic: logic, view: view)
        #expect(
            view.state.withLock { $0 } == DemoView.State(warningLabelHidden: true, hud: [], succeeded: ["Class 3-2"]))

        await run("T-WRONG", logic: logic, view: view)
        #expect(view.state.withLock { $0.warningLabelHidden } == false)
        #expect(view.state.withLock { $0.hud.last } == "The class code is wrong.")

        await run("T-FULL", logic: logic, view: view)
        #expect(view.state.withLock { $0.warningLabelHidden } == true)
        #expect(view.state.withLock { $0.hud.last } == "The class is full.")

        await run("T-GONE", logic: logic, view: view)
        #expect(view.state.withLock { $0.warningLabelHidden } == false)

        await run("T-EXPIRED", logic: logic, view: view)
        #expect(expired.value == 1)
        #expect(view.state.withLock { $0.hud.last } == "Your session has expired. Please sign in again.")

        // A tag code answered to a study-group request.
        await run("T-LOST", logic: logic, view: view)
        #expect(view.state.withLock { $0.hud.last } == "error: A tag with this name already exists.")

        await run("T-NEW", logic: logic, view: view)
        // The server's words with the number; the catalog's text while the serialized
        // ServerMessageTests have server text off for a moment (a process-wide switch).
        let unlisted = view.state.withLock { $0.hud.last }
        #expect(unlisted == "new code (code 11210099)" || unlisted == "Unrecognised Study group error (code 11210099)")

        await run("T-BROKEN", logic: logic, view: view)
        #expect(view.state.withLock { $0.hud.last } == "error: The data the server sent could not be read.")

        await run("T-UNKNOWN-TEAM", logic: logic, view: view)
        #expect(view.state.withLock { $0.hud.last } == "error: The network request failed.")

        #expect(expired.value == 1)
        #expect(view.state.withLock { $0.succeeded } == ["Class 3-2"])
        #expect(view.state.withLock { $0.hud.count } == 8)
        // Business answers were sent once; only the unknown team (closed connection) was retried.
        #expect(server.requests("/class/query").count == 9 + 2)
    }
}
