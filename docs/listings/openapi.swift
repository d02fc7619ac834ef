// Context "openapi": what swift-openapi-generator generates from the study-group backend's OpenAPI
// document (`Client`, `Servers`, the operations and their types), written out as small stand-ins,
// and the screen the app shows errors on, for the listings of Integrations/SwiftErrOpenAPI (with
// the context "server").
import Foundation
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SwiftErrOpenAPI

/// The servers the document lists.
public enum Servers {
    public enum Server1 {
        public static func url() throws -> URL { URL(string: "https://api.example.com")! }
    }
}

/// The document's schemas.
public enum Components {
    public enum Schemas {
        public struct JoinClass: Codable, Hashable, Sendable {
            public var teamCode: String
            public init(teamCode: String) { self.teamCode = teamCode }
        }
    }
}

/// The document's operations.
public enum Operations {
    public enum JoinClass {
        public enum Input {
            public enum Body: Sendable, Hashable {
                case json(Components.Schemas.JoinClass)
            }
        }
        public enum Output: Sendable, Hashable {
            case ok
        }
    }
    public enum GetClass {
        public enum Input {
            public struct Path: Sendable, Hashable {
                public var id: String
                public init(id: String) { self.id = id }
            }
        }
        public enum Output: Sendable, Hashable {
            case ok
        }
    }
}

/// The generated client: one method per operation.
public struct Client: Sendable {
    public let serverURL: URL
    public let transport: any ClientTransport
    public let middlewares: [any ClientMiddleware]
    public init(serverURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware] = []) {
        self.serverURL = serverURL
        self.transport = transport
        self.middlewares = middlewares
    }
    public func joinClass(body: Operations.JoinClass.Input.Body) async throws -> Operations.JoinClass.Output { .ok }
    public func getClass(path: Operations.GetClass.Input.Path) async throws -> Operations.GetClass.Output { .ok }
}

/// A message shown over the screen.
public struct HUD: Sendable {
    public func show(_ message: String) {}
}
public let hud = HUD()

/// A label of the screen.
@MainActor public final class Label {
    public var isHidden = true
}
@MainActor public let warningLabel = Label()

/// The app's client of the study-group backend.
public let client = Client(serverURL: try! Servers.Server1.url(), transport: AsyncHTTPClientTransport())
