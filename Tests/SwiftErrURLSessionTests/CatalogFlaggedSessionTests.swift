import Foundation
// `SwiftErrCatalogFile` is an internal target, not a product: an app gets the same
// `CatalogDefinition` from its catalog file through `errcat gen swift` (the generated modules
// declare their classifier), or builds it in code. The test reads the file directly, which is
// what both of those start from.
import SwiftErrCatalogFile
import SwiftErrDefaultCatalog
import SwiftErrTesting
import SwiftErrURLSession
import Testing

/// A catalog file that flags a new base code and a module's own code `reauthenticate`: the
/// session refreshes for both with no change to the app, because it decides from the flags the
/// requesting module's catalog gives, never from code numbers.
@Suite(
    "Sessions decide from the catalog: a file that flags a new code works with no app change", .timeLimit(.minutes(4)))
struct CatalogFlaggedSessionTests {
    /// The app's catalog file: the built-in base codes it needs, one new base code flagged
    /// `reauthenticate` (11090, `sessionRevoked`), and a `lessons` module with a flagged code of
    /// its own (11300002) and an unflagged one (11300001).
    static let catalogFile = #"""
        {
          "format": "swifterr-catalog/1",
          "name": "lessonsApp",
          "success": {"code": 0, "name": "success", "message": {"en": "OK"}},
          "base": [
            {"code": 11001, "name": "tokenExpire", "flags": ["reauthenticate", "showUser"],
             "message": {"en": "Your session has expired. Please sign in again."}},
            {"code": 11090, "name": "sessionRevoked", "flags": ["reauthenticate"],
             "message": {"en": "Your session was revoked. Please sign in again."}}
          ],
          "modules": [
            {"name": "lessons", "title": {"en": "Lessons"}, "ranges": [[11300000, 11309999]],
             "codes": [
               {"code": 11300001, "name": "lessonLocked", "message": {"en": "This lesson is locked."}},
               {"code": 11300002, "name": "lessonSessionEnded", "flags": ["reauthenticate"],
                "message": {"en": "Your lesson session ended."}}
             ]}
          ]
        }
        """#

    static let joined = #"{"classId":"c-1","name":"Lesson 1"}"#

    @Test("the catalog file reads, and flags exactly the two codes reauthenticate")
    func fileReads() throws {
        let catalog = try LessonCode.fileCatalog.get()
        #expect(catalog.classify(11090).flags.contains(.reauthenticate))
        #expect(catalog.classify(11_300_002).flags.contains(.reauthenticate))
        #expect(!catalog.classify(11_300_001).flags.contains(.reauthenticate))
        #expect(!Catalog.builtIn.classify(11090).flags.contains(.reauthenticate))
    }

    @Test(
        "a new base code and a module's own code flagged reauthenticate each start one refresh and are replayed",
        arguments: [Int64(11090), 11_300_002])
    func flaggedByTheFile(code: Int64) async throws {
        let setup = try Setup(refusal: code)
        defer { setup.tearDown() }
        let item = try await setup.client.send(
            TransportRequest(url: setup.server.url("/lesson")), returning: ClassItemModel.self, module: LessonCode.self)
        #expect(item.name == "Lesson 1")
        #expect(setup.tokens.refreshCount == 1)
        #expect(setup.server.requests("/lesson").map { $0.header("Authorization") } == ["Bearer t-0", "Bearer t-1"])
    }

    @Test("an unflagged code of the same file is the module's answer: no refresh")
    func unflagged() async throws {
        let setup = try Setup(refusal: 11_300_001)
        defer { setup.tearDown() }
        let result = await setup.client.result(
            TransportRequest(url: setup.server.url("/lesson")), returning: ClassItemModel.self, module: LessonCode.self)
        guard case .failure(.module(.lessonLocked)) = result else {
            Issue.record("expected .module(.lessonLocked), got \(result)")
            return
        }
        #expect(setup.tokens.refreshCount == 0)
    }

    @Test("the same code for a module of the built-in catalog, which does not know it, starts nothing")
    func unknownToTheBuiltInCatalog() async throws {
        let setup = try Setup(refusal: 11090)
        defer { setup.tearDown() }
        let result = await setup.client.result(
            TransportRequest(url: setup.server.url("/lesson")), returning: ClassItemModel.self,
            module: StudyGroupCode.self)
        guard case .failure(.unexpectedCode(11090)) = result else {
            Issue.record("expected .unexpectedCode(11090), got \(result)")
            return
        }
        #expect(setup.tokens.refreshCount == 0)
    }

    struct Setup {
        let server: LoopbackHTTPServer
        let tokens: LoopbackTokenService
        let urlSession = URLSession(configuration: .ephemeral)
        let client: ResponseClient

        init(refusal code: Int64) throws {
            server = try LoopbackHTTPServer()
            tokens = LoopbackTokenService(server: server)
            tokens.protect(
                "/lesson", refusal: .envelope(code), payload: .envelope(0, data: CatalogFlaggedSessionTests.joined))
            tokens.expire()
            let transport = URLSessionTransport(session: urlSession)
            let session = AuthenticationSession(
                authenticator: BearerTokenAuthenticator.loopback(tokens, through: transport), credential: "t-0")
            client = ResponseClient(transport: transport, policy: .never, authentication: session)
        }

        func tearDown() {
            urlSession.invalidateAndCancel()
            server.stop()
        }
    }
}

/// The app's `lessons` module, classified through the catalog built from its file. The enum
/// declares no flags: the only place `reauthenticate` is written is the file.
enum LessonCode: ModuleCode {
    case lessonLocked
    case lessonSessionEnded
    case other(Int64)

    static var moduleName: String { "lessons" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Lessons") }
    static var codeRanges: [ClosedRange<Int64>] { [11_300_000...11_309_999] }
    static var listedCases: [Self] { [.lessonLocked, .lessonSessionEnded] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    /// The classifier over the file's catalog; a file that cannot be read leaves the module without
    /// one (every code is then `.invalidCatalog`, and `fileReads` fails).
    static let classifier: ModuleClassifier<Self> = {
        guard case .success(let catalog) = fileCatalog else {
            return ModuleClassifier(catalog: .builtIn)  // has no `lessons` module: every code is .invalidCatalog
        }
        return ModuleClassifier(catalog: catalog)
    }()

    /// The catalog read from ``CatalogFlaggedSessionTests/catalogFile``.
    static let fileCatalog: Result<Catalog, any Error> = Result {
        try Catalog(CatalogDefinition(json: Array(CatalogFlaggedSessionTests.catalogFile.utf8)))
    }

    var code: Int64 {
        switch self {
        case .lessonLocked: return 11_300_001
        case .lessonSessionEnded: return 11_300_002
        case .other(let code): return code
        }
    }

    var message: LocalizedText {
        switch self {
        case .lessonLocked: return LocalizedText(english: "This lesson is locked.")
        case .lessonSessionEnded: return LocalizedText(english: "Your lesson session ended.")
        case .other: return Self.unrecognisedMessage
        }
    }
}
