import Foundation
import SwiftErr

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests, on BSD sockets with no dependencies: a client
/// under test talks to a real server over a real socket, whatever its HTTP library.
///
/// <!-- listing: context=app,tests -->
/// ```swift
/// let server = try LoopbackHTTPServer()
/// defer { server.stop() }
/// server.route("/class/query", [.status(503, headers: ["Retry-After": "1"]), .json(#"{"ret":0,"data":{}}"#)])
/// let item = try await client.send(TransportRequest(url: server.url("/class/query")), returning: Item.self,
///                                  module: StudyGroupCode.self)
/// #expect(server.requests("/class/query").count == 2)
/// ```
///
/// Each path is scripted: the n-th request to a path gets the n-th reply of its script (the last
/// one once the script is used up), or whatever a handler returns for it. A reply sets the status,
/// the header fields, the body (with `Content-Length`, or chunked), a delay before answering, and
/// how it ends: complete, closed without an answer, never answered, reset by the server part-way
/// through the body, or stalled part-way through it. Every request is recorded (method, path, query, header fields, body, its number on that
/// path, when it arrived) so tests can count attempts and measure the waits between them.
///
/// Each connection carries one request, served on a thread of its own, and is closed after the
/// reply (`Connection: close`), so a client never reuses a connection and never resends a request
/// on its own. A request whose head is not HTTP/1.1 is dropped without an answer.
public final class LoopbackHTTPServer: Sendable {
    /// How a reply ends.
    public enum Ending: Sendable, Hashable {
        /// The whole reply is written and the connection closed.
        case complete
        /// The connection is closed after reading the request, without an answer.
        case closeWithoutResponse
        /// No answer at all: the connection stays open until the client closes it (or the server
        /// stops), as a server that hangs.
        case hold
        /// The head (with the full `Content-Length`) and the first `bodyBytes` bytes of the body as
        /// sent (chunk framing included when chunked) are written, then the connection is reset
        /// (`RST`, as a crashed server does).
        case reset(afterBodyBytes: Int)
        /// The head and the first `bodyBytes` bytes of the body as sent are written, then nothing
        /// more for `duration`, then the rest.
        case stall(afterBodyBytes: Int, duration: Duration)
    }

    /// How the server answers one request.
    public struct Reply: Sendable {
        /// The status.
        public var status: Int
        /// Header fields added to `Content-Length`, `Connection: close` and, unless these set one,
        /// `Content-Type: application/json`.
        public var headers: [String: String]
        /// The body.
        public var body: Data
        /// How long to wait before answering.
        public var delay: Duration
        /// How the reply ends (``Ending/complete`` by default).
        public var ending: Ending
        /// When set, the body is sent with `Transfer-Encoding: chunked` in chunks of this many
        /// bytes instead of with `Content-Length`.
        public var chunkSize: Int?

        /// Creates a reply.
        /// - Parameters:
        ///   - status: The status (200).
        ///   - headers: Extra header fields.
        ///   - body: The body (empty).
        ///   - delay: The wait before answering (none).
        ///   - ending: How the reply ends (complete).
        ///   - chunkSize: Send the body chunked, in chunks of this many bytes (`nil`: with
        ///     `Content-Length`). Values below 1 mean 1.
        public init(
            status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: Duration = .zero,
            ending: Ending = .complete, chunkSize: Int? = nil
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.ending = ending
            self.chunkSize = chunkSize.map { max(1, $0) }
        }

        /// A JSON reply.
        /// - Parameters:
        ///   - text: The JSON text of the body.
        ///   - status: The status (200).
        ///   - headers: Extra header fields.
        ///   - delay: The wait before answering.
        /// - Returns: The reply.
        public static func json(
            _ text: String, status: Int = 200, headers: [String: String] = [:], delay: Duration = .zero
        ) -> Reply {
            Reply(status: status, headers: headers, body: Data(text.utf8), delay: delay)
        }

        /// An envelope reply: `{"ret":CODE,"msg":MESSAGE,"data":DATA}` with status 200.
        /// - Parameters:
        ///   - code: The envelope's code.
        ///   - message: The envelope's message.
        ///   - data: The JSON text of `data` (`null`).
        /// - Returns: The reply.
        public static func envelope(_ code: Int64, message: String = "", data: String = "null") -> Reply {
            var escaped = ""
            for scalar in message.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return json(#"{"ret":\#(code),"msg":"\#(escaped)","data":\#(data)}"#)
        }

        /// A reply with a status and an empty JSON object as the body.
        /// - Parameters:
        ///   - status: The status.
        ///   - headers: Extra header fields.
        /// - Returns: The reply.
        public static func status(_ status: Int, headers: [String: String] = [:]) -> Reply {
            json("{}", status: status, headers: headers)
        }

        /// Closes the connection without answering.
        public static let close = Reply(ending: .closeWithoutResponse)
        /// Never answers; the connection stays open until the client gives up.
        public static let hold = Reply(ending: .hold)
    }

    /// A request as the server received it.
    public struct Request: Sendable {
        /// The method, e.g. `GET`.
        public let method: String
        /// The path without the query.
        public let path: String
        /// The query's items.
        public let query: [String: String]
        /// The header fields, names lower case.
        public let headers: [String: String]
        /// The body.
        public let body: Data
        /// Its number among the requests to the same path, from 0.
        public let index: Int
        /// When the whole request had arrived.
        public let receivedAt: ContinuousClock.Instant
        /// The wall-clock time it arrived.
        public let receivedDate: Date

        /// A header field's value, whatever the case of `name`.
        /// - Parameter name: The field name.
        /// - Returns: The value, or `nil`.
        public func header(_ name: String) -> String? {
            headers[name.lowercased()]
        }
    }

    /// Answers a request: called on the connection's own thread, so it may block (to hold a
    /// request until a test lets it go, for example).
    public typealias Handler = @Sendable (Request) -> Reply

    private struct State {
        var routes: [String: Handler] = [:]
        var requests: [Request] = []
        var stopped = false
    }

    /// The port the server listens on.
    public let port: UInt16
    private let listener: Int32
    private let state = Locked(State())

    /// Starts a server on 127.0.0.1.
    /// - Parameter port: The port, or `0` (the default) for an ephemeral one. A given port lets a
    ///   test stop a server and start another where the first was, to bring an upstream back after
    ///   it has refused connections for a while.
    /// - Throws: `POSIXError` when the socket cannot be set up (`EADDRINUSE` for a port in use).
    public init(port: UInt16 = 0) throws {
        let (fd, port) = try Self.bindLoopback(listen: true, port: port)
        listener = fd
        self.port = port
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The URL of a path (and query) on this server, e.g. `url("/class/query?teamCode=T-OK")`.
    /// - Parameter pathAndQuery: The path, starting with `/`, and the query if any.
    /// - Returns: The URL.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// Scripts a path: the n-th request gets `replies[n]`, the last reply once they are used up.
    /// - Parameters:
    ///   - path: The path, without the query.
    ///   - replies: At least one reply.
    public func route(_ path: String, _ replies: [Reply]) {
        precondition(!replies.isEmpty, "a route needs at least one reply")
        route(path) { request in replies[min(request.index, replies.count - 1)] }
    }

    /// Scripts a path with a handler that sees each request.
    /// - Parameters:
    ///   - path: The path, without the query.
    ///   - handler: Answers each request to the path.
    public func route(_ path: String, _ handler: @escaping Handler) {
        state.withLock { $0.routes[path] = handler }
    }

    /// The requests received so far, to one path or to all, in the order they arrived.
    /// - Parameter path: The path, or `nil` for every path.
    /// - Returns: The requests.
    public func requests(_ path: String? = nil) -> [Request] {
        state.withLock { state in state.requests.filter { path == nil || $0.path == path } }
    }

    /// Stops accepting connections; the listening socket is closed by the accepting thread.
    /// Connections already accepted are still answered.
    public func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    /// A URL on 127.0.0.1 at a port nothing listens on, so connecting is refused at once: for
    /// testing a client against a server that is down. The port stays bound, without listening,
    /// for as long as the process runs, so no other server (of this process, such as a test running
    /// beside, or of another) can be given it: a port that was merely free a moment ago has been
    /// seen taken by a loopback server of a concurrent test, which then answered the requests meant
    /// to be refused.
    /// - Parameter pathAndQuery: The path and query.
    /// - Returns: The URL.
    /// - Throws: `POSIXError` when no socket can be set up.
    public static func refusingURL(_ pathAndQuery: String = "/") throws -> URL {
        let (fd, port) = try bindLoopback(listen: false, reuseAddress: false)
        heldPorts.withLock { $0.append(fd) }
        return URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// The sockets of ``refusingURL(_:)``, kept bound (never closed) for the process's lifetime.
    private static let heldPorts = Locked<[Int32]>([])

    /// A TCP socket bound to an ephemeral port of 127.0.0.1, listening or not, and its port. Without
    /// `reuseAddress` (SO_REUSEADDR), no other socket can bind the port while this one is open.
    private static func bindLoopback(listen shouldListen: Bool, port: UInt16 = 0, reuseAddress: Bool = true) throws
        -> (Int32, UInt16)
    {
        #if canImport(Darwin)
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        if reuseAddress {
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, !shouldListen || listen(fd, 512) == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            if state.withLock({ $0.stopped }) {
                close(connection)
                break
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
        close(listener)
    }

    /// Reads one request, answers it as scripted, closes the connection.
    private func serve(_ connection: Int32) {
        var closed = false
        defer { if !closed { close(connection) } }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let (method, target, headers, body) = readRequest(connection) else { return }
        let (path, query) = Self.split(target)
        let (request, handler) = state.withLock { state in
            let index = state.requests.filter { $0.path == path }.count
            let request = Request(
                method: method, path: path, query: query, headers: headers, body: body, index: index,
                receivedAt: .now, receivedDate: Date())
            state.requests.append(request)
            return (request, state.routes[path])
        }
        let reply = handler?(request) ?? .json(#"{"error":"no route"}"#, status: 404)
        Self.sleep(reply.delay)
        switch reply.ending {
        case .closeWithoutResponse: return
        case .hold:
            holdUntilClosed(connection)
            return
        default: break
        }
        let reason = HTTPStatusError(statusCode: reply.status).reasonPhrase ?? "Status"
        var head = "HTTP/1.1 \(reply.status) \(reason)\r\n"
        if reply.chunkSize == nil {
            head += "Content-Length: \(reply.body.count)\r\n"
        } else {
            head += "Transfer-Encoding: chunked\r\n"
        }
        head += "Connection: close\r\n"
        if reply.headers.keys.allSatisfy({ $0.lowercased() != "content-type" }) {
            head += "Content-Type: application/json\r\n"
        }
        for (name, value) in reply.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let payload = Self.encoded(reply.body, chunkSize: reply.chunkSize)
        switch reply.ending {
        case .complete, .closeWithoutResponse, .hold:
            writeAll(connection, Data(head.utf8) + payload)
        case .reset(let bytes):
            writeAll(connection, Data(head.utf8) + payload.prefix(max(0, bytes)))
            // SO_LINGER with a zero timeout makes close() send RST instead of FIN.
            var resetOnClose = linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &resetOnClose, socklen_t(MemoryLayout<linger>.size))
            close(connection)
            closed = true
            return
        case .stall(let bytes, let duration):
            writeAll(connection, Data(head.utf8) + payload.prefix(max(0, bytes)))
            Self.sleep(duration)
            writeAll(connection, payload.dropFirst(max(0, bytes)))
        }
        shutdown(connection, Int32(SHUT_WR))
    }

    /// The body as sent: itself, or in chunks of `chunkSize` bytes and a last empty chunk.
    private static func encoded(_ body: Data, chunkSize: Int?) -> Data {
        guard let chunkSize else { return body }
        var out = Data()
        var start = body.startIndex
        while start < body.endIndex {
            let end = body.index(start, offsetBy: chunkSize, limitedBy: body.endIndex) ?? body.endIndex
            out += Data((String(end - start, radix: 16) + "\r\n").utf8) + body[start..<end] + Data("\r\n".utf8)
            start = end
        }
        return out + Data("0\r\n\r\n".utf8)
    }

    /// Waits, without answering, until the client closes the connection or the server stops.
    private func holdUntilClosed(_ connection: Int32) {
        var byte: UInt8 = 0
        while !state.withLock({ $0.stopped }) {
            let count = recv(connection, &byte, 1, 0)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return }
        }
    }

    private static func sleep(_ duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The request line, header fields and body, or `nil` when the client went away first or the
    /// request is not HTTP/1.x.
    private func readRequest(_ connection: Int32) -> (String, String, [String: String], Data)? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            headEnd = buffer.range(of: separator)
            if buffer.count > 1 << 20 { return nil }
        }
        guard let headEnd, let head = String(data: buffer[..<headEnd.lowerBound], encoding: .utf8) else { return nil }
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[headEnd.upperBound...])
        let expected = Int(headers["content-length"] ?? "0") ?? 0
        while body.count < expected {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            body.append(contentsOf: chunk[0..<count])
        }
        return (String(requestLine[0]), String(requestLine[1]), headers, body)
    }

    /// Writes everything, ignoring a client that has gone away (no SIGPIPE).
    private func writeAll(_ connection: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Darwin)
                    let written = send(connection, raw.baseAddress! + offset, raw.count - offset, 0)
                #else
                    let written = send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #endif
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Splits a request target into its path and query items.
    private static func split(_ target: String) -> (String, [String: String]) {
        guard let components = URLComponents(string: target) else { return (target, [:]) }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        return (components.path, query)
    }
}
