import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SwiftErr

/// A ``SwiftErr/HTTPTransport`` over async-http-client's `HTTPClient`: plugged into a
/// ``SwiftErr/ResponseClient``, it gives the same one-call request as on `URLSession` (status with
/// `Retry-After` → envelope → classification with the base handler once → retry → decode), with
/// the response body collected up to a limit.
///
/// <!-- listing: context=server,ahc -->
/// ```swift
/// let client = ResponseClient(
///     transport: AsyncHTTPClientTransport(client: .shared, maxBodyBytes: 1 << 20),
///     decoder: ResponseDecoder(baseHandler: .reauthenticate { _ in tokens.refresh() }),
///     timeouts: .init(attempt: .seconds(5), overall: .seconds(15)))
/// let item = try await client.send(TransportRequest(url: url), returning: ClassItem.self, module: StudyGroupCode.self)
/// ```
///
/// ## Body size limit
/// A response whose `Content-Length` is over ``maxBodyBytes`` is refused before its body is read;
/// a body without one (chunked) is refused as soon as the bytes read pass the limit. Either way the
/// transport throws ``SwiftErr/ResponseBodyTooLargeError``, which the client reports as
/// ``SwiftErr/ModuleRespError/transportFailed(underlying:)`` and never retries. No more than the
/// limit plus one network read is ever held in memory.
///
/// ## Errors
/// async-http-client's errors are reported in the vocabulary the retry policy knows, as
/// `URLSession` reports them (``foundationError(for:)``): a connection closed before the response
/// is `URLError.networkConnectionLost` (retried), a timeout `URLError.timedOut` (retried), a bad URL
/// `URLError.badURL` (final), a cancelled request `CancellationError`
/// (``SwiftErr/ModuleRespError/cancelled``). The original error is kept under
/// `NSUnderlyingErrorKey`.
///
/// ## Requests
/// The ``SwiftErr/TransportRequest``'s URL, method, header fields and body are sent; each attempt
/// has until ``timeout`` (when set), else the request's own ``SwiftErr/TransportRequest/timeout``,
/// else ``defaultTimeout`` to complete, body included.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The client requests are sent through.
    public let client: HTTPClient
    /// The most bytes of a response body that are collected (1 MiB by default).
    public var maxBodyBytes: Int
    /// The time each attempt has to complete, or `nil` to use the request's own time limit.
    public var timeout: Duration?

    /// The default body limit: 1 MiB.
    public static let defaultMaxBodyBytes = 1 << 20
    /// The time an attempt has when neither the transport nor the request sets one: 60 seconds,
    /// `URLRequest`'s default.
    public static let defaultTimeout: Duration = .seconds(60)

    /// Creates a transport.
    /// - Parameters:
    ///   - client: The client (`HTTPClient.shared` by default). The caller owns it and shuts it down.
    ///   - maxBodyBytes: The most bytes of a response body that are collected (1 MiB by default).
    ///     Values below zero mean zero.
    ///   - timeout: The time each attempt has to complete, or `nil` for the request's own limit
    ///     (``defaultTimeout`` when it has none).
    public init(client: HTTPClient = .shared, maxBodyBytes: Int = defaultMaxBodyBytes, timeout: Duration? = nil) {
        self.client = client
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.timeout = timeout
    }

    /// Sends a request once with `HTTPClient.execute(_:deadline:)` and collects its body.
    /// - Parameter request: The request.
    /// - Returns: The status, header fields (repeated fields joined with `", "`) and body.
    /// - Throws: ``SwiftErr/ResponseBodyTooLargeError`` for a body over ``maxBodyBytes``;
    ///   async-http-client's and NIO's errors mapped by ``foundationError(for:)``.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let outgoing = Self.clientRequest(for: request)
        let seconds = Self.seconds(timeout ?? request.timeout ?? Self.defaultTimeout)
        let deadline = NIODeadline.now() + .nanoseconds(Int64(min(max(seconds, 0), 9e9) * 1e9))
        do {
            let response = try await client.execute(outgoing, deadline: deadline)
            let body = try await response.collectBody(limit: maxBodyBytes)
            return TransportResponse(
                statusCode: Int(response.status.code), headerFields: Self.fields(of: response.headers),
                body: Data(body.readableBytesView))
        } catch let tooLarge as ResponseBodyTooLargeError {
            throw tooLarge
        } catch {
            throw Self.foundationError(for: error)
        }
    }

    /// The async-http-client request for a ``SwiftErr/TransportRequest``: its URL, method, header
    /// fields and body.
    /// - Parameter request: The request.
    /// - Returns: The request to execute.
    public static func clientRequest(for request: TransportRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headerFields.sorted(by: { $0.key < $1.key }) {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        return outgoing
    }

    /// Maps async-http-client's and NIO's errors to the `URLError`, `POSIXError` or
    /// `CancellationError` that `URLSession` would report for the same failure, so that
    /// ``SwiftErr/RetryPolicy`` judges both transports alike; the original error is kept under
    /// `NSUnderlyingErrorKey`. Errors with no counterpart are returned unchanged.
    ///
    /// | async-http-client / NIO | reported as |
    /// |---|---|
    /// | `HTTPClientError.cancelled` | `CancellationError` |
    /// | `.remoteConnectionClosed`, `ChannelError.ioOnClosedChannel`, `.eof` | `URLError.networkConnectionLost` |
    /// | `.readTimeout`, `.writeTimeout`, `.connectTimeout`, `.deadlineExceeded`, `.getConnectionFromPoolTimeout`, `.tlsHandshakeTimeout`, `ChannelError.connectTimeout` | `URLError.timedOut` |
    /// | `.invalidURL`, `.emptyHost`, `.emptyScheme`, `.missingSocketPath` | `URLError.badURL` |
    /// | `.bodyLengthMismatch`, `.invalidProxyResponse` | `URLError.badServerResponse` |
    /// | `IOError` with an `errno` | `POSIXError` with that code |
    /// - Parameter error: The error `HTTPClient` threw.
    /// - Returns: The error to report.
    public static func foundationError(for error: any Error) -> any Error {
        if let clientError = error as? HTTPClientError {
            if clientError == .cancelled { return CancellationError() }
            if let code = urlErrorCodes.first(where: { $0.errors.contains(clientError) })?.code {
                return URLError(code, userInfo: [NSUnderlyingErrorKey: clientError])
            }
            return clientError
        }
        if let channelError = error as? ChannelError {
            switch channelError {
            case .ioOnClosedChannel, .eof, .alreadyClosed:
                return URLError(.networkConnectionLost, userInfo: [NSUnderlyingErrorKey: channelError])
            case .connectTimeout:
                return URLError(.timedOut, userInfo: [NSUnderlyingErrorKey: channelError])
            default:
                return channelError
            }
        }
        if let ioError = error as? IOError, let code = POSIXErrorCode(rawValue: ioError.errnoCode) {
            return POSIXError(code, userInfo: [NSUnderlyingErrorKey: ioError])
        }
        return error
    }

    /// Which async-http-client errors map to which `URLError` code.
    private static let urlErrorCodes: [(code: URLError.Code, errors: [HTTPClientError])] = [
        (.networkConnectionLost, [.remoteConnectionClosed]),
        (
            .timedOut,
            [
                .readTimeout, .writeTimeout, .connectTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout,
                .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout,
            ]
        ),
        (.badURL, [.invalidURL, .emptyHost, .emptyScheme, .missingSocketPath]),
        (.badServerResponse, [.bodyLengthMismatch, .invalidProxyResponse]),
    ]

    /// The response's header fields as one value per name, repeated fields joined with `", "` (as
    /// HTTP allows for every field but `Set-Cookie`, whose values are joined the same way here).
    static func fields(of headers: HTTPHeaders) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in headers {
            if let existing = fields[name] {
                fields[name] = existing + ", " + value
            } else {
                fields[name] = value
            }
        }
        return fields
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
