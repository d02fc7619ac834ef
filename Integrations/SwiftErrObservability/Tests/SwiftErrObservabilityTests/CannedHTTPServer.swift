import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (an ephemeral port) with POSIX sockets and one thread per
/// connection: each path has canned answers (the n-th request gets the n-th, the last repeats),
/// every response closes its connection.
/// Small on purpose, so this package's tests need no server library.
final class CannedHTTPServer: Sendable {
    /// The port the server listens on.
    let port: UInt16
    private let listener: Int32
    private let routes = Mutex<[String: [(status: Int, body: String)]]>([:])
    private let served = Mutex<[String]>([])

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    /// Sets the answer of a path.
    func route(_ path: String, status: Int = 200, body: String) {
        route(path, [(status, body)])
    }

    /// Sets the answers of a path, one per request, the last repeating.
    func route(_ path: String, _ answers: [(status: Int, body: String)]) {
        routes.withLock { $0[path] = answers }
    }

    /// The paths of the requests answered so far, in order.
    var requests: [String] { served.withLock { $0 } }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops accepting connections (the accepting thread closes the socket).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            Thread { [self] in serve(connection) }.start()
        }
        close(listener)
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while received.firstRange(of: end) == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            if count <= 0 { return }
            received += chunk[0..<count]
        }
        let line = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let index = served.withLock { served in
            defer { served.append(path) }
            return served.filter { $0 == path }.count
        }
        let answers = routes.withLock { $0[path] } ?? [(404, #"{"error":"no route"}"#)]
        let (status, body) = answers[min(index, answers.count - 1)]
        let bytes = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status) Canned\r\nContent-Type: application/json\r\nContent-Length: \(bytes.count)\r\n"
            + "Connection: close\r\n\r\n"
        let response = Array(head.utf8) + bytes
        #if os(Linux)
            // A client that went away is an error return, not a SIGPIPE.
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        var sent = 0
        while sent < response.count {
            let count = response[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
            if count <= 0 { return }
            sent += count
        }
        shutdown(connection, Int32(SHUT_WR))
    }
}
