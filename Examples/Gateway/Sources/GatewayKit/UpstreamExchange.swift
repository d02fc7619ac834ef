import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SwiftErr
import SwiftErrAsyncHTTPClient

/// A request the gateway sends its upstream: the client's method, the upstream's URL with the
/// client's path and query, the client's header fields (without those of one connection) and body.
public struct UpstreamRequest: Sendable {
    /// The method (`GET`, `POST`, …).
    public var method: String
    /// The whole URL: the upstream's base URL, then the client's path and query.
    public var url: String
    /// The header fields, repeated ones kept apart.
    public var headers: HTTPHeaders
    /// The body, or `nil` for none.
    public var body: ByteBuffer?

    /// Creates a request.
    /// - Parameters:
    ///   - method: The method.
    ///   - url: The whole URL.
    ///   - headers: The header fields.
    ///   - body: The body, or `nil`.
    public init(method: String, url: String, headers: HTTPHeaders = [:], body: ByteBuffer? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// The upstream's whole answer: the status, the header fields and the body, read to its end.
public struct UpstreamResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields, repeated ones kept apart (`Set-Cookie`).
    public var headers: HTTPHeaders
    /// The whole body.
    public var body: ByteBuffer

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - body: The whole body.
    public init(status: Int, headers: HTTPHeaders = [:], body: ByteBuffer = ByteBuffer()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// How the gateway sends one request to its upstream and gets the whole answer: through
/// async-http-client (``httpClient(_:maxBodyBytes:timeout:)``), or a function of the caller's, so
/// that tests and simulations run the gateway's real proxy code without sockets.
///
/// The gateway calls it once per attempt, within the upstream limit
/// (``GatewayConfiguration/upstreamTimeout``): an exchange still running at the limit is
/// cancelled. It throws for no whole answer: ``SwiftErr/ResponseBodyTooLargeError`` for a body
/// over ``GatewayConfiguration/maxBodyBytes`` (answered 502, not retried), and otherwise the
/// transport's error in the vocabulary SwiftErr's retry policy knows (`URLError`, `POSIXError`,
/// `CancellationError`; see `AsyncHTTPClientTransport.foundationError(for:)`).
///
/// ```swift
/// let exchange = UpstreamExchange { request in
///     UpstreamResponse(status: 200, body: ByteBuffer(string: #"{"ret":0,"msg":"ok"}"#))
/// }
/// let gateway = Gateway(configuration: .init(upstream: "http://upstream.test"), exchange: exchange)
/// ```
public struct UpstreamExchange: Sendable {
    /// Sends a request and returns the whole answer.
    public let send: @Sendable (UpstreamRequest) async throws -> UpstreamResponse

    /// Creates an exchange.
    /// - Parameter send: Sends a request and returns the whole answer; throws for no whole answer.
    public init(_ send: @escaping @Sendable (UpstreamRequest) async throws -> UpstreamResponse) {
        self.send = send
    }

    /// The exchange through any ``SwiftErr/HTTPTransport``: the request as a `TransportRequest`
    /// (repeated header fields joined with `", "`), the transport's answer as the whole response.
    /// What a simulation gives the gateway (a `SimulatedUpstream` of SwiftErrTesting) to run it on
    /// simulated time; the transport's errors are thrown as they come, and an answer without a
    /// status as `URLError.badServerResponse`.
    /// - Parameter transport: The transport.
    /// - Returns: The exchange.
    public static func transport(_ transport: any HTTPTransport) -> UpstreamExchange {
        UpstreamExchange { request in
            var fields: [String: String] = [:]
            for header in request.headers {
                fields[header.name] = fields[header.name].map { $0 + ", " + header.value } ?? header.value
            }
            guard let url = URL(string: request.url) else { throw URLError(.badURL) }
            let answer = try await transport.send(
                TransportRequest(
                    url: url, method: request.method, headerFields: fields,
                    body: request.body.map { Data($0.readableBytesView) }))
            // An answer without a status is no whole answer.
            guard let status = answer.statusCode else { throw URLError(.badServerResponse) }
            var headers = HTTPHeaders()
            for (name, value) in answer.headerFields { headers.add(name: name, value: value) }
            return UpstreamResponse(status: status, headers: headers, body: ByteBuffer(bytes: answer.body))
        }
    }

    /// The exchange through async-http-client: `HTTPClient.execute` with `timeout` as its deadline
    /// (which covers the response head only; the gateway's limit covers the body), the body
    /// collected up to `maxBodyBytes`, and the client's errors mapped by
    /// `AsyncHTTPClientTransport.foundationError(for:)`.
    /// - Parameters:
    ///   - client: The client (its configuration: ``GatewayConfiguration/httpClientConfiguration``).
    ///     The caller owns it and shuts it down.
    ///   - maxBodyBytes: The most bytes of a body that are collected.
    ///   - timeout: The client's deadline for the response head.
    /// - Returns: The exchange.
    public static func httpClient(_ client: HTTPClient, maxBodyBytes: Int, timeout: Duration) -> UpstreamExchange {
        let (seconds, attoseconds) = timeout.components
        let timeAmount = TimeAmount.nanoseconds(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
        return UpstreamExchange { request in
            var outgoing = HTTPClientRequest(url: request.url)
            outgoing.method = HTTPMethod(rawValue: request.method)
            outgoing.headers = request.headers
            if let body = request.body { outgoing.body = .bytes(body) }
            do {
                let response = try await client.execute(outgoing, deadline: .now() + timeAmount)
                let body = try await response.collectBody(limit: maxBodyBytes)
                return UpstreamResponse(status: Int(response.status.code), headers: response.headers, body: body)
            } catch let tooLarge as ResponseBodyTooLargeError {
                throw tooLarge
            } catch {
                throw AsyncHTTPClientTransport.foundationError(for: error)
            }
        }
    }
}
