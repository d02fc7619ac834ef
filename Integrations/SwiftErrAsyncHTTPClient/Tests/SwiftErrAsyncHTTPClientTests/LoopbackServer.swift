import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 (an ephemeral port) that answers each path with a script
/// of replies and records every request it received, with the time it arrived.
///
/// The n-th request to a path gets the script's n-th reply (the last one repeats).
final class LoopbackServer: Sendable {
    /// One scripted answer.
    enum Reply: Sendable {
        /// A status, header fields and a body sent with `Content-Length`.
        case respond(status: Int, headers: [(String, String)], body: [UInt8])
        /// A 200 body sent chunked (no `Content-Length`), in parts of `part` bytes.
        case chunked(total: Int, part: Int)
        /// The connection closed as soon as the request has arrived, with no response.
        case close
        /// No response at all: the connection stays open until the client gives up.
        case hang

        /// A 200 JSON envelope.
        static func json(_ text: String) -> Reply {
            .respond(status: 200, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
        }

        /// A status with an empty body.
        static func status(_ code: Int, headers: [(String, String)] = []) -> Reply {
            .respond(status: code, headers: headers, body: [])
        }
    }

    /// A request as the server saw it.
    struct Request: Sendable {
        let method: String
        let path: String
        let headers: [(String, String)]
        let body: [UInt8]
        let receivedAt: ContinuousClock.Instant
    }

    private struct State {
        var scripts: [String: [Reply]] = [:]
        var requests: [Request] = []
    }

    /// The scripts and the requests received, shared with the connections' handlers.
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()
    private let channel: any Channel
    /// The port the server listens on.
    let port: Int

    init() async throws {
        let shared = self.shared
        let lookup: @Sendable (Request) -> Reply = { request in
            shared.state.withLock { state in
                let index = state.requests.filter { $0.path == request.path }.count
                state.requests.append(request)
                let script = state.scripts[request.path] ?? [.status(404)]
                return script[min(index, script.count - 1)]
            }
        }
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(ScriptHandler(lookup: lookup))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// Sets the script of a path.
    func route(_ path: String, _ replies: [Reply]) {
        shared.state.withLock { $0.scripts[path] = replies }
    }

    /// The URL of a path on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The requests received for a path, in order of arrival.
    func requests(_ path: String) -> [Request] {
        shared.state.withLock { $0.requests.filter { $0.path == path } }
    }

    func stop() async {
        try? await channel.close()
    }
}

/// Reads one request at a time and writes its scripted reply.
private final class ScriptHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let lookup: @Sendable (LoopbackServer.Request) -> LoopbackServer.Reply
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(lookup: @escaping @Sendable (LoopbackServer.Request) -> LoopbackServer.Reply) {
        self.lookup = lookup
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let buffer):
            body += buffer.readableBytesView
        case .end:
            guard let head else { return }
            let request = LoopbackServer.Request(
                method: head.method.rawValue, path: head.uri, headers: head.headers.map { ($0.name, $0.value) },
                body: body, receivedAt: .now)
            reply(lookup(request), context: context)
        }
    }

    private func reply(_ reply: LoopbackServer.Reply, context: ChannelHandlerContext) {
        switch reply {
        case .close:
            context.close(promise: nil)
        case .hang:
            break
        case .respond(let status, let headers, let body):
            var fields = HTTPHeaders(headers)
            fields.replaceOrAdd(name: "Content-Length", value: String(body.count))
            let head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: fields)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .chunked(let total, let part):
            let head = HTTPResponseHead(
                version: .http1_1, status: .ok, headers: ["Transfer-Encoding": "chunked"])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            var sent = 0
            while sent < total {
                let count = min(part, total - sent)
                let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: count)
                context.write(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
                sent += count
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
