import Foundation
import SwiftErrTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The loopback server's replies as a raw socket client sees them: every byte on the wire, how the
/// connection ends, and what the server recorded.
@Suite("LoopbackHTTPServer: scripted replies and faults on a real socket", .timeLimit(.minutes(1)))
struct LoopbackHTTPServerTests {
    /// What one raw exchange gave: the bytes received and how the connection ended.
    struct Exchange {
        var bytes: [UInt8] = []
        /// `errno` of the read that ended it, or 0 for an orderly close (FIN).
        var endErrno: Int32 = 0
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// Sends `request` on a new connection to `port` and reads until the server closes it.
    static func exchange(_ request: String, port: UInt16, readTimeout: Int = 10) throws -> Exchange {
        #if canImport(Darwin)
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let outgoing = Array(request.utf8)
        _ = outgoing.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var result = Exchange()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 {
                result.bytes += chunk[0..<count]
            } else {
                result.endErrno = count == 0 ? 0 : errno
                return result
            }
        }
    }

    static func get(_ path: String, extra: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)\r\n"
    }

    @Test("a scripted path answers in order, the last reply repeating; the request is recorded")
    func script() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/a", [.status(503, headers: ["Retry-After": "1"]), .envelope(11001, message: "say \"hi\"\n")])
        let first = try Self.exchange(Self.get("/a?x=1", extra: "X-Token: t-1\r\n"), port: server.port)
        #expect(first.text.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(first.text.contains("\r\nRetry-After: 1\r\n"))
        #expect(first.text.contains("\r\nContent-Length: 2\r\n"))
        #expect(first.text.hasSuffix("\r\n\r\n{}"))
        let second = try Self.exchange(Self.get("/a"), port: server.port)
        #expect(second.text.hasSuffix(#"{"ret":11001,"msg":"say \"hi\"\u000a","data":null}"#))
        let third = try Self.exchange(Self.get("/a"), port: server.port)
        #expect(third.text == second.text)
        let recorded = server.requests("/a")
        #expect(recorded.map(\.index) == [0, 1, 2])
        #expect(recorded.first?.query == ["x": "1"])
        #expect(recorded.first?.header("x-token") == "t-1")
        #expect(try Self.exchange(Self.get("/none"), port: server.port).text.hasPrefix("HTTP/1.1 404 "))
    }

    @Test("a request body is read whole, by its Content-Length")
    func requestBody() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/post") { request in .json(#"{"got":\#(request.body.count)}"#) }
        let body = String(repeating: "b", count: 10_000)
        let answer = try Self.exchange(
            "POST /post HTTP/1.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)", port: server.port)
        #expect(answer.text.hasSuffix(#"{"got":10000}"#))
        #expect(server.requests("/post").first?.method == "POST")
    }

    @Test("a chunked body is framed in chunks of the given size and a last empty chunk")
    func chunked() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/c", [LoopbackHTTPServer.Reply(body: Data("abcdefghij".utf8), chunkSize: 4)])
        let answer = try Self.exchange(Self.get("/c"), port: server.port)
        #expect(answer.text.contains("\r\nTransfer-Encoding: chunked\r\n"))
        #expect(!answer.text.contains("Content-Length"))
        #expect(answer.text.hasSuffix("\r\n\r\n4\r\nabcd\r\n4\r\nefgh\r\n2\r\nij\r\n0\r\n\r\n"))
    }

    @Test("close: the connection ends without a byte; reset: part of the body, then RST")
    func closeAndReset() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/close", [.close])
        let closed = try Self.exchange(Self.get("/close"), port: server.port)
        #expect(closed.bytes.isEmpty)
        #expect(closed.endErrno == 0)
        let body = Data(repeating: 0x61, count: 100_000)
        server.route("/reset", [LoopbackHTTPServer.Reply(body: body, ending: .reset(afterBodyBytes: 1000))])
        let reset = try Self.exchange(Self.get("/reset"), port: server.port)
        #expect(reset.text.contains("\r\nContent-Length: 100000\r\n"))
        #expect(reset.endErrno == ECONNRESET)
        let headEnd = reset.text.range(of: "\r\n\r\n").map {
            reset.text.utf8.distance(from: reset.text.startIndex, to: $0.upperBound)
        }
        #expect(headEnd.map { reset.bytes.count - $0 } ?? -1 <= 1000)
    }

    @Test("stall: part of the body, a pause, then the rest; hold: nothing until the client gives up")
    func stallAndHold() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let body = Data(repeating: 0x62, count: 2000)
        server.route(
            "/stall",
            [LoopbackHTTPServer.Reply(body: body, ending: .stall(afterBodyBytes: 500, duration: .milliseconds(300)))])
        let start = ContinuousClock.now
        let stalled = try Self.exchange(Self.get("/stall"), port: server.port)
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(stalled.text.hasSuffix(String(repeating: "b", count: 2000)))
        server.route("/hold", [.hold])
        let held = try Self.exchange(Self.get("/hold"), port: server.port, readTimeout: 1)
        #expect(held.bytes.isEmpty)
        #expect(held.endErrno == EAGAIN || held.endErrno == EWOULDBLOCK)
    }

    @Test("a refusing URL is refused at once")
    func refusing() throws {
        let url = try LoopbackHTTPServer.refusingURL("/x")
        let port = try #require(url.port.map { UInt16($0) })
        let error = #expect(throws: POSIXError.self) { try Self.exchange(Self.get("/x"), port: port) }
        #expect(error?.code == .ECONNREFUSED)
    }
}
