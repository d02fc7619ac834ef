import AsyncHTTPClient
import Foundation
import SwiftErr
import SwiftErrAsyncHTTPClient
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

/// A catalog built in code decides what asks a session for a refresh, on async-http-client against a
/// loopback token service: the codes it flags `reauthenticate` refresh, and the same code for a
/// module of the built-in catalog, which does not know it, does not.
@Suite("Sessions on async-http-client with a catalog built in code", .timeLimit(.minutes(2)))
struct CatalogInCodeSessionTests {
    struct ClassItem: Decodable, Equatable, Sendable {
        let classId: String
        let name: String
    }

    static let joined = #"{"classId":"c-1","name":"Class 3-2"}"#

    @Test(
        "a catalog built in code that flags a new base code and a module's code reauthenticate: both refresh",
        arguments: [Int64(11090), 11_300_002])
    func catalogFlaggedCodes(code: Int64) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let tokens = LoopbackTokenService(server: server)
        tokens.protect("/lesson", refusal: .envelope(code), payload: .envelope(0, data: Self.joined))
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let transport = AsyncHTTPClientTransport(client: httpClient)
        let session = AuthenticationSession(
            authenticator: BearerTokenAuthenticator.loopback(tokens, through: transport), credential: "t-0")
        let client = ResponseClient(transport: transport, policy: .never, authentication: session)
        let request = TransportRequest(url: server.url("/lesson"))
        tokens.expire()
        let item = await client.result(request, returning: ClassItem.self, module: LessonCode.self)
        #expect((try? item.get()) == ClassItem(classId: "c-1", name: "Class 3-2"))
        #expect(tokens.refreshCount == 1)
        // The same code for a module of the built-in catalog, which does not know it: no refresh.
        tokens.expire()
        let other = await client.result(request, returning: ClassItem.self, module: StudyGroupCode.self)
        guard case .failure(let error) = other else {
            Issue.record("expected a failure, got \(other)")
            try await httpClient.shutdown()
            return
        }
        #expect(error.isUnexpectedCode == true)
        #expect(error.rawCode == code)
        #expect(tokens.refreshCount == 1)
        try await httpClient.shutdown()
    }
}

/// A `lessons` module whose catalog is built in code, as an app without a catalog file would: the
/// built-in base tier plus a new base code flagged `reauthenticate` (11090), and the module with
/// one flagged code (11300002). The enum itself declares no flags.
enum LessonCode: ModuleCode {
    case lessonLocked
    case lessonSessionEnded
    case other(Int64)

    static var moduleName: String { "lessons" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Lessons") }
    static var codeRanges: [ClosedRange<Int64>] { [11_300_000...11_309_999] }
    static var listedCases: [Self] { [.lessonLocked, .lessonSessionEnded] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }

    static let classifier: ModuleClassifier<Self> = {
        var definition = Catalog.builtIn.definition
        definition.base.append(
            EntryDefinition(
                code: 11090, name: "sessionRevoked", flags: .reauthenticate,
                message: LocalizedText(english: "Your session was revoked.")))
        let module = ModuleDefinition(
            name: moduleName, title: moduleTitle, ranges: codeRanges,
            codes: [
                EntryDefinition(
                    code: 11_300_001, name: "lessonLocked", message: LocalizedText(english: "This lesson is locked.")),
                EntryDefinition(
                    code: 11_300_002, name: "lessonSessionEnded", flags: .reauthenticate,
                    message: LocalizedText(english: "Your lesson session ended.")),
            ])
        return ModuleClassifier(building: definition.adding(module))
    }()

    var code: Int64 {
        switch self {
        case .lessonLocked: return 11_300_001
        case .lessonSessionEnded: return 11_300_002
        case .other(let code): return code
        }
    }

    var message: LocalizedText { LocalizedText(english: name) }
}
