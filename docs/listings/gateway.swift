// Context "gateway": a service in front of an upstream that answers in envelopes, for the
// listings that protect an upstream by hand (UpstreamProtection's admit and record). Stand-ins
// for the reader's server framework and HTTP client.
import SwiftErr
import SwiftErrDefaultCatalog

/// A request the gateway forwards.
public struct Request: Sendable {
    public var path: String
    public init(path: String) { self.path = path }
}

/// An answer: the upstream's, or the gateway's own.
public struct Response: Sendable {
    public var status: Int
    public var code: Int64
    public init(status: Int, code: Int64) {
        self.status = status
        self.code = code
    }

    /// The gateway's 503, with the time after which trying again makes sense.
    public static func serviceUnavailable(retryAfter: Duration?) -> Response { Response(status: 503, code: 0) }
}

/// The upstream's HTTP client.
public struct Upstream: Sendable {
    public func send(_ request: Request) async -> Response { Response(status: 200, code: 0) }
}
public let upstream = Upstream()
public let request = Request(path: "/class/c-1")
public let attempt = 1
public let catalog = Catalog.builtIn
public let protection = UpstreamProtection()
public let permit = try! protection.admit()
public let result: Result<String, ModuleRespError<StudyGroupCode>> = .success("c-1")

/// What a gateway learnt from an upstream answer's envelope.
public struct Observation: Sendable {
    public var classification: Classification?
}
public let observation = Observation(classification: catalog.classify(0))

/// Sends a request upstream.
public func send(_ request: Request) async -> Response { await upstream.send(request) }

/// The envelope's code of an upstream answer.
public func envelopeCode(_ response: Response) -> Int64 { response.code }

/// The log, with swift-log's levels.
public struct AppLogger: Sendable {
    public func notice(_ message: String) {}
}
public let logger = AppLogger()
