import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SwiftErr
import Synchronization

/// The gateway as an ``SwiftErr/HTTPTransport``, in process: each request goes through
/// ``Gateway/proxy(_:)`` as Hummingbird hands it over (its path and query, method, header fields and
/// body), without sockets, and the gateway's whole answer comes back.
///
/// What a simulation and a client in the same process put in front of a gateway: a
/// ``SwiftErr/ResponseClient`` with a session on this transport keeps the session the gateway does
/// not keep, and a simulation measures what the gateway's clients see.
///
/// ```swift
/// let gateway = Gateway(configuration: .init(upstream: "http://upstream.test"), exchange: exchange)
/// let answer = try await GatewayTransport(gateway: gateway).send(TransportRequest(url: URL(string: "http://gateway/api/item")!))
/// ```
public struct GatewayTransport: HTTPTransport {
    /// The gateway.
    public let gateway: Gateway

    /// Creates the transport.
    /// - Parameter gateway: The gateway.
    public init(gateway: Gateway) {
        self.gateway = gateway
    }

    /// The gateway's answer to `request`; its URL's scheme and host are not read (the gateway sends
    /// to its configured upstream).
    /// - Parameter request: The request.
    /// - Returns: The gateway's answer, body included.
    /// - Throws: `CancellationError` when the task was cancelled (the gateway answers nothing then).
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var fields = HTTPFields()
        for (name, value) in request.headerFields {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let path = (components?.percentEncodedPath ?? "/") + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        let head = HTTPRequest(
            method: HTTPRequest.Method(request.method) ?? .get, scheme: nil, authority: nil,
            path: path.isEmpty ? "/" : path, headerFields: fields)
        let body = RequestBody(buffer: request.body.map { ByteBuffer(bytes: $0) } ?? ByteBuffer())
        let response = try await gateway.proxy(Request(head: head, body: body))
        let collected = Collected()
        try await response.body.write(Collected.Writer(collected: collected))
        var headerFields: [String: String] = [:]
        for field in response.headers {
            let name = field.name.rawName
            headerFields[name] = headerFields[name].map { $0 + ", " + field.value } ?? field.value
        }
        return TransportResponse(
            statusCode: Int(response.status.code), headerFields: headerFields, body: collected.data)
    }

    /// Whether an answer of the gateway is its refusal: the 503 it answers for a request the
    /// upstream's protection refused, `{"error":"upstream protected: <reason>"}`, not an upstream's
    /// 503 passed on.
    /// - Parameter answer: An answer of ``send(_:)``.
    /// - Returns: `true` for the gateway's refusal.
    public static func isRefusal(_ answer: TransportResponse) -> Bool {
        answer.statusCode == 503
            && Gateway.refusalBodies.values.contains { $0.readableBytesView.elementsEqual(answer.body) }
    }

    /// The bytes of a response body, as Hummingbird writes them.
    final class Collected: Sendable {
        private let bytes = Mutex(Data())

        var data: Data { bytes.withLock { $0 } }

        struct Writer: ResponseBodyWriter {
            let collected: Collected

            mutating func write(_ buffer: ByteBuffer) async throws {
                collected.bytes.withLock { $0.append(contentsOf: buffer.readableBytesView) }
            }

            consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
        }
    }
}
