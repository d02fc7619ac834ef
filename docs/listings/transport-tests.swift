// Context "transport-tests": a listing that declares a test suite running TransportScenarios on a
// transport of the reader's own; `MyHTTPClient` and `MyTransport` stand in for it, over URLSession.
import Foundation
import SwiftErr
import SwiftErrTesting
import SwiftErrURLSession
import Testing

/// The reader's HTTP client.
final class MyHTTPClient: Sendable {
    let session = URLSession(configuration: .ephemeral)
    func close() async { session.invalidateAndCancel() }
}

/// The reader's transport over it.
struct MyTransport: HTTPTransport {
    let transport: URLSessionTransport
    init(_ client: MyHTTPClient) { transport = URLSessionTransport(session: client.session) }
    func send(_ request: TransportRequest) async throws -> TransportResponse { try await transport.send(request) }
}

// LISTING
