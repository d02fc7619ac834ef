// Context "tests-server": a listing that is the body of a test (Swift Testing) with a loopback
// HTTP server and a client (SwiftErrTesting, SwiftErrURLSession).
import Foundation
import SwiftErrTesting
import SwiftErrURLSession
import Testing

@Test func example() async throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let client = ResponseClient(transport: URLSessionTransport())
    // LISTING
}
