import Foundation
import Hummingbird
import Logging
import NIOCore
import SwiftErr

/// The admin listener: catalog reloads and the catalog in use, on 127.0.0.1 only.
extension Gateway {
    /// The catalog in use, as the admin endpoints answer it.
    struct CatalogSummary: Codable, Equatable {
        let name: String
        let identity: String
        let generation: UInt64

        init(_ snapshot: ReloadableCatalog.Snapshot) {
            name = snapshot.name
            identity = snapshot.identity
            generation = snapshot.generation
        }
    }

    /// The answer to a reload that changed nothing.
    struct ReloadProblem: Codable {
        let error: String
        let problems: [String]
        let kept: CatalogSummary
    }

    /// The admin routes:
    ///
    /// | route | answer |
    /// |---|---|
    /// | `POST /admin/reload-catalog` | reads ``GatewayConfiguration/catalogFile`` again: `200` and `{"name","identity","generation"}` of the new catalog; `422` and `{"error","problems":["PATH:LINE:COLUMN: MESSAGE",…],"kept":{…}}` when the file cannot be read or is not a catalog (the catalog in use stays); `409` when the gateway has no catalog file |
    /// | `GET /admin/catalog` | `200` and `{"name","identity","generation"}` of the catalog in use |
    /// - Returns: The router.
    public func adminRouter() -> Router<BasicRequestContext> {
        let router = Router()
        let catalog = self.catalog
        router.post("/admin/reload-catalog") { _, _ in
            do throws(GatewayCatalog.ReloadFailure) {
                let snapshot = try catalog.reload(trigger: .admin)
                return Self.json(.ok, CatalogSummary(snapshot))
            } catch {
                let problem = ReloadProblem(
                    error: error.hasFile ? "catalog not reloaded: the file is not a usable catalog" : error.reason,
                    problems: error.hasFile ? error.reason.split(separator: "\n").map(String.init) : [],
                    kept: CatalogSummary(error.kept))
                return Self.json(error.hasFile ? .unprocessableContent : .conflict, problem)
            }
        }
        router.get("/admin/catalog") { _, _ in
            Self.json(.ok, CatalogSummary(catalog.current.snapshot))
        }
        return router
    }

    /// The admin listener: ``adminRouter()`` on `127.0.0.1` and ``GatewayConfiguration/adminPort``
    /// (`0` when it is `nil`: a free port). It is bound to the loopback address whatever
    /// ``GatewayConfiguration/host`` is, so only the machine itself can reload the catalog.
    /// - Parameters:
    ///   - logger: The server's logger.
    ///   - onServerRunning: Called with the listening channel (to read the port when it was `0`).
    /// - Returns: The application, ready to run.
    public func adminApplication(
        logger: Logger = Logger(label: "gateway-admin"),
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: adminRouter(),
            configuration: .init(
                address: .hostname(Self.adminHost, port: configuration.adminPort ?? 0), serverName: nil),
            onServerRunning: onServerRunning, logger: logger)
    }

    /// The one address the admin listener binds to.
    public static let adminHost = "127.0.0.1"

    /// A JSON answer.
    static func json(_ status: HTTPResponse.Status, _ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
