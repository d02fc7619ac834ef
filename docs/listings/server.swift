// Context "server": a server-side app with swift-log, for the listings of the packages under
// Integrations/. Stand-ins for the reader's own types and services.
import Foundation
import Logging
import SwiftErr
import SwiftErrDefaultCatalog

/// The payload of a study-group answer.
public struct ClassItem: Decodable, Sendable {
    public var classId: String
}

public let url = URL(string: "https://api.example.com/class/c-1")!
public let id = "c-1"
public let code = "T-1234"
public let logger = Logger(label: "orders")
public let log = logger
public let decoder = ResponseDecoder()
public let retrier = Retrier(for: StudyGroupCode.self)

/// Loads a class from the backend.
public func loadClass(_ id: String) async throws(ModuleRespError<StudyGroupCode>) -> ClassItem {
    ClassItem(classId: id)
}

/// The service's own token bookkeeping, apart from SwiftErr's AuthenticationSession.
public struct Tokens: Sendable {
    public func refresh() {}
}
public let tokens = Tokens()
