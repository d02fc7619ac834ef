import Foundation
import Hummingbird
import Logging
import NIOCore
import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrObservability
import Synchronization

/// The canned envelope API the gateway is tested and loaded against.
///
/// | route | answer |
/// |---|---|
/// | `GET /api/mix/{n}` | slot `n % 20` of ``mix``: a fixed mix of success, base, module and unknown codes |
/// | `GET /api/code/{code}` | `{"ret":<code>,"msg":"code <code>","data":null}` |
/// | `GET /api/status/{status}` | that status with `{"ret":-1,"msg":"status <status>"}` and `Retry-After: 1` |
/// | `GET /api/large/{bytes}` | a success envelope whose `data` is a string of that many bytes |
/// | `GET /api/html` | a `text/html` page, not an envelope |
/// | `/api/echo`, GET, POST, PUT | a success envelope whose `data` holds the method, URI, `Authorization`, `Accept-Language` and body it got |
/// | `GET /mix` | ``mix`` as text, one slot a line: `slot code tier module name` |
/// | `GET /served` | how many `/api/mix` requests this router has answered, as text |
public enum Upstream {
    /// One slot of the mix.
    public struct Slot: Sendable, Hashable {
        /// The slot's number, from 0.
        public let slot: Int
        /// The code the upstream answers.
        public let code: Int64
        /// The labels SwiftErr counts it under in the built-in catalog.
        public let labels: CodeLabels
        /// The whole response body.
        public let body: String
    }

    /// 20 slots: 12 successes, 2 tokenExpire (11001), 1 verifyCodeExpire (11002), 2 wrongTeamCode
    /// (11210005), 1 unlisted study-group code (11219999), 1 alreadyExistsTagName (11160003) and 1
    /// code outside the catalog (99999999).
    public static let mix: [Slot] = {
        let codes: [Int64] =
            Array(repeating: 0, count: 12) + [
                11001, 11001, 11002, 11_210_005, 11_210_005, 11_219_999, 11_160_003, 99_999_999,
            ]
        return codes.enumerated().map { slot, code in
            let data = code == 0 ? #"{"classId":"c-\#(slot)","name":"Class 3-2","members":[1,2,3]}"# : "null"
            return Slot(
                slot: slot, code: code, labels: CodeLabels(Catalog.builtIn.classify(code), in: .builtIn),
                body: #"{"ret":\#(code),"msg":"\#(code == 0 ? "ok" : "code \(code)")","data":\#(data)}"#)
        }
    }()

    /// ``mix`` as text, one slot a line: `slot code tier module name`.
    public static var mixTable: String {
        mix.map { "\($0.slot) \($0.code) \($0.labels.tier) \($0.labels.module) \($0.labels.name)\n" }.joined()
    }

    /// The router of the canned API.
    /// - Returns: The router.
    public static func router() -> Router<BasicRequestContext> {
        let router = Router()
        let mixBodies = mix.map { ByteBuffer(string: $0.body) }
        let served = Served()
        router.get("/api/mix/:n") { _, context in
            let n = context.parameters.get("n", as: Int.self) ?? 0
            served.count.add(1, ordering: .relaxed)
            return json(mixBodies[((n % mixBodies.count) + mixBodies.count) % mixBodies.count])
        }
        router.get("/served") { _, _ in String(served.count.load(ordering: .relaxed)) }
        router.get("/api/code/:code") { _, context in
            let code = context.parameters.get("code", as: Int64.self) ?? 0
            return json(ByteBuffer(string: #"{"ret":\#(code),"msg":"code \#(code)","data":null}"#))
        }
        router.get("/api/status/:status") { _, context in
            let status = context.parameters.get("status", as: Int.self) ?? 500
            return Response(
                status: .init(code: status),
                headers: [.contentType: "application/json", .retryAfter: "1"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"ret":-1,"msg":"status \#(status)"}"#)))
        }
        router.get("/api/large/:bytes") { _, context in
            let count = min(context.parameters.get("bytes", as: Int.self) ?? 0, 64 << 20)
            var buffer = ByteBuffer(string: #"{"ret":0,"msg":"ok","data":""#)
            buffer.writeRepeatingByte(UInt8(ascii: "x"), count: count)
            buffer.writeString(#""}"#)
            return json(buffer)
        }
        router.get("/api/html") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "<html><body>maintenance</body></html>")))
        }
        for method in [HTTPRequest.Method.get, .post, .put] {
            router.on("/api/echo", method: method) { request, _ in
                var request = request
                let body = try await request.collectBody(upTo: 1 << 20)
                struct Echo: Encodable {
                    let method: String
                    let uri: String
                    let authorization: String?
                    let acceptLanguage: String?
                    let body: String
                }
                struct Envelope: Encodable {
                    let ret: Int
                    let msg: String
                    let data: Echo
                }
                let echo = Echo(
                    method: request.method.rawValue, uri: request.uri.description,
                    authorization: request.headers[.authorization], acceptLanguage: request.headers[.acceptLanguage],
                    body: String(buffer: body))
                return json(ByteBuffer(bytes: try JSONEncoder().encode(Envelope(ret: 0, msg: "ok", data: echo))))
            }
        }
        router.get("/mix") { _, _ in mixTable }
        return router
    }

    /// The application on `host` and `port` (`0` for a free port, reported to `onServerRunning`).
    /// - Parameters:
    ///   - host: The address to listen on.
    ///   - port: The port.
    ///   - logger: The server's logger.
    ///   - onServerRunning: Called with the listening channel.
    /// - Returns: The application, ready to run.
    public static func application(
        host: String = "127.0.0.1", port: Int = 8081, logger: Logger = Logger(label: "upstream"),
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(), configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: onServerRunning, logger: logger)
    }

    /// The number of `/api/mix` answers of one router, which the load test reads to know that every
    /// request it sent has gone through the gateway.
    final class Served: Sendable {
        let count = Atomic<Int>(0)
    }

    static func json(_ body: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: body))
    }
}
