import Foundation
import SwiftErr

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests, on BSD sockets with no dependencies.
///
/// Each path is scripted: the n-th request to a path gets the n-th reply of its script (the last
/// one once the script is used up), or whatever a handler returns. A reply sets the status, the
/// header fields, the body, a delay before answering, or closes the connection without answering.
/// Every request is recorded (method, path, query, header fields, body, its number on that path,
/// and when it was received) so tests can count attempts and measure the waits between them.
///
/// Each connection carries one request and is closed after the reply (`Connection: close`), so a
/// client never reuses a connection and never resends a request on its own.
final class LoopbackHTTPServer: Sendable {
    /// How the server answers one request.
    struct Reply: Sendable {
        /// The status.
        var status: Int = 200
        /// Header fields added to `Content-Length`, `Connection: close` and the content type.
        var headers: [String: String] = [:]
        /// The body.
        var body: Data = Data()
        /// How long to wait before answering.
        var delay: Duration = .zero
        /// Close the connection after reading the request, without answering.
        var closesWithoutResponse = false

        /// A JSON reply.
        static func json(
            _ text: String, status: Int = 200, headers: [String: String] = [:], delay: Duration = .zero
        ) -> Reply {
            Reply(status: status, headers: headers, body: Data(text.utf8), delay: delay)
        }

        /// A reply with a status and an empty JSON object as the body.
        static func status(_ status: Int, headers: [String: String] = [:]) -> Reply {
            json("{}", status: status, headers: headers)
        }

        /// Closes the connection without answering.
        static let close = Reply(closesWithoutResponse: true)
    }

    /// A request as the server received it.
    struct Request: Sendable {
        /// The method, e.g. `GET`.
        let method: String
        /// The path without the query.
        let path: String
        /// The query's items.
        let query: [String: String]
        /// The header fields, names lower-cased.
        let headers: [String: String]
        /// The body.
        let body: Data
        /// Its number among the requests to the same path, from 0.
        let index: Int
        /// When the whole request had arrived.
        let receivedAt: ContinuousClock.Instant
        /// The wall-clock time it arrived.
        let receivedDate: Date
    }

    typealias Handler = @Sendable (Request) -> Reply

    private struct State {
        var routes: [String: Handler] = [:]
        var requests: [Request] = []
        var stopped = false
    }

    /// The port the server listens on.
    let port: UInt16
    private let listener: Int32
    private let state = Locked(State())

    /// Starts a server on an ephemeral port of 127.0.0.1.
    /// - Throws: `POSIXError` when the socket cannot be set up.
    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The URL of a path (and query) on this server, e.g. `url("/class/query?teamCode=T-OK")`.
    func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// Scripts a path: the n-th request gets `replies[n]`, the last reply once they are used up.
    func route(_ path: String, _ replies: [Reply]) {
        precondition(!replies.isEmpty, "a route needs at least one reply")
        route(path) { request in replies[min(request.index, replies.count - 1)] }
    }

    /// Scripts a path with a handler that sees each request.
    func route(_ path: String, _ handler: @escaping Handler) {
        state.withLock { $0.routes[path] = handler }
    }

    /// The requests received so far, to one path or to all, in the order they arrived.
    func requests(_ path: String? = nil) -> [Request] {
        state.withLock { state in state.requests.filter { path == nil || $0.path == path } }
    }

    /// Stops accepting connections; the listening socket is closed by the accepting thread.
    func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
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
        defer { close(connection) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let (method, target, headers, body) = readRequest(connection) else { return }
        let (path, query) = Self.split(target)
        let request: Request
        let handler: Handler?
        (request, handler) = state.withLock { state in
            let index = state.requests.filter { $0.path == path }.count
            let request = Request(
                method: method, path: path, query: query, headers: headers, body: body, index: index,
                receivedAt: .now, receivedDate: Date())
            state.requests.append(request)
            return (request, state.routes[path])
        }
        let reply = handler?(request) ?? .json(#"{"error":"no route"}"#, status: 404)
        if reply.delay > .zero {
            let (seconds, attoseconds) = reply.delay.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        }
        if reply.closesWithoutResponse { return }
        var head = "HTTP/1.1 \(reply.status) \(HTTPStatusError(statusCode: reply.status).reasonPhrase ?? "Status")\r\n"
        head += "Content-Length: \(reply.body.count)\r\nConnection: close\r\n"
        if reply.headers.keys.allSatisfy({ $0.lowercased() != "content-type" }) {
            head += "Content-Type: application/json\r\n"
        }
        for (name, value) in reply.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        writeAll(connection, Data(head.utf8) + reply.body)
        shutdown(connection, Int32(SHUT_WR))
    }

    /// The request line, header fields and body, or `nil` when the client went away first.
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
        guard requestLine.count == 3 else { return nil }
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
                let written = send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
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
