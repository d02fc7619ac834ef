// Context "app": the app around the listings that use the built-in catalog (StudyGroupCode,
// UploadCode, BaseCode.tokenExpire) over URLSession. These are stand-ins for the reader's own
// types and services: they give the names the listings use their types, and do nothing else.
import Foundation
import SwiftErr
import SwiftErrCatalogFile
import SwiftErrDefaultCatalog
import SwiftErrTesting
import SwiftErrURLSession

/// The payload of a study-group answer.
public struct ClassItem: Decodable, Sendable {
    public var classId: String
}

public typealias Item = ClassItem

public let baseURL = URL(string: "https://api.example.com/")!
public let url = baseURL.appending(path: "class/c-1")
public let classesURL = baseURL.appending(path: "classes")
public let request = TransportRequest(url: url)
public let body = Data(#"{"ret": 0, "msg": "", "data": {"classId": "c-1"}}"#.utf8)
public let decoder = ResponseDecoder()
public let handler = BaseCodeHandler { _ in }
public let client = ResponseClient(session: .shared, decoder: decoder)
public let transport: any HTTPTransport = URLSessionTransport()
public let alertPresenter = TerminalErrorPresenter.standardError
public let presenter = TerminalErrorPresenter.standardError
public let error = ModuleRespError<StudyGroupCode>.cancelled
public let caught: any Error = URLError(.timedOut)
public let adapters = ErrorAdapterRegistry<UploadCode>.standard
public let code: Int64 = 11_210_005
public let http = HTTPURLResponse(url: url, statusCode: 503, httpVersion: nil, headerFields: ["Retry-After": "2"])!
public let response = http
public let attempt = 1
public let uploadSession = URLSession(configuration: .default)
public let bytes = Array(#"{"format": "swifterr-catalog/3", "name": "app", "success": {"code": 0, "name": "ok"}}"#.utf8)
public let path = "/etc/app/catalog.json"
/// The payments catalog of "Reading any backend's errors", as the file the app ships.
public let catalogFile = Array(
    #"""
    {"format": "swifterr-catalog/3", "name": "payments", "languages": ["en"],
     "success": {"code": 0, "name": "ok", "message": {"en": "OK"}},
     "modules": [{"name": "card", "ranges": [[1000, 1999]], "namespaces": ["card_error"], "codes": [
       {"code": 1001, "name": "cardDeclined", "string": "card_declined", "message": {"en": "Declined."}}]}]}
    """#.utf8)
public let catalog = ReloadableCatalog(Catalog.builtIn)
public let image = Data()

/// A message shown over the screen.
public struct HUD: Sendable {
    public func show(_ message: String) {}
}
public let hud = HUD()
public let banner = HUD()

/// A label of the screen.
@MainActor public final class Label {
    public var isHidden = true
}
@MainActor public let warningLabel = Label()

public func show(_ item: ClassItem) {}
public func show(_ error: any Error) {}
public func show(_ message: String) {}
public func showWarning() {}
public func showMaintenance() {}
public func showServerTrouble() {}
public func signInAgain() {}
public func useFeature() {}
public func reload() async {}
public func retryLater(after delay: Duration?) {}
public func uploadImage() async throws -> URL { baseURL.appending(path: "images/1") }
public func upload() async throws(ModuleRespError<UploadCode>) -> URL { baseURL.appending(path: "images/1") }
public func upload(_ image: Data) async throws(ModuleRespError<UploadCode>) -> URL {
    baseURL.appending(path: "images/1")
}
public func flakyUpload() async throws(ModuleRespError<UploadCode>) -> URL { baseURL.appending(path: "images/1") }
public func loadClass(_ id: String) async throws(ModuleRespError<StudyGroupCode>) -> ClassItem {
    ClassItem(classId: id)
}

/// Writes a line to the app's log.
public func log(_ items: Any...) {}

/// Where the app navigates.
public struct Router: Sendable {
    public func showSignIn() {}
}
public let router = Router()

/// The app's analytics.
public struct Analytics: Sendable {
    public func record(base code: Int64, module: String) {}
}
public let analytics = Analytics()

/// The app's own session bookkeeping, apart from SwiftErr's AuthenticationSession.
public struct AppSession: Sendable {
    public func signInAgain() {}
    public func expire(reason: BaseCode? = nil) {}
}
public let session = AppSession()

/// The app's log, with swift-log's levels.
public struct AppLogger: Sendable {
    public func notice(_ message: String) {}
    public func error(_ message: String) {}
}
public let logger = AppLogger()

/// Counts requests by path and status.
public struct Metrics: Sendable {
    public func record(_ path: String, _ status: Int) {}
}
public let metrics = Metrics()

/// Moya's error, as an app that uses Moya gets it.
public enum MoyaError: Error {
    /// The answer had a status the request did not accept.
    case statusCode(MoyaResponse)
    /// The request failed below HTTP.
    case underlying(any Error, MoyaResponse?)

    public var response: MoyaResponse? {
        switch self {
        case .statusCode(let response): response
        case .underlying(_, let response): response
        }
    }
}

/// Moya's response.
public struct MoyaResponse: Sendable {
    public var statusCode: Int
}

/// The news feed's backend.
public struct FeedService: Sendable {
    public func loadFeed() async throws -> [String] { [] }
}
public let feedService = FeedService()

/// The body of a request to join a class.
public struct JoinClass: Encodable, Sendable {
    public var code: Int64
    public init(code: Int64) { self.code = code }
}

/// Asks the person whether to try again.
public struct RetryAlert: Sendable {
    public func askRetry(_ error: any Error) async -> Bool { false }
}
public let alert = RetryAlert()

/// Adapts Moya's errors for the study-group module.
public struct MoyaErrorAdapter: ErrorAdapter {
    public init() {}
    public func adapt(_ error: MoyaError) -> ModuleRespError<StudyGroupCode>? {
        if case .statusCode(let response) = error { return .unacceptableStatus(response.statusCode) }
        return .transportFailed(underlying: error)
    }
}
