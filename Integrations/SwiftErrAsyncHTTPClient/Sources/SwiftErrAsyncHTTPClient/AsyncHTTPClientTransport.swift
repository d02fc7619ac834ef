import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SwiftErr

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``SwiftErr/HTTPTransport`` over async-http-client's `HTTPClient`: plugged into a
/// ``SwiftErr/ResponseClient``, it gives the same one-call request as on `URLSession` (status with
/// `Retry-After` → envelope → classification with the base handler once → retry → decode), with
/// the response body collected up to a limit.
///
/// ```swift
/// let client = ResponseClient(
///     transport: AsyncHTTPClientTransport(client: .shared, maxBodyBytes: 1 << 20),
///     decoder: ResponseDecoder(baseHandler: .reauthenticate { _ in tokens.refresh() }),
///     timeouts: .init(attempt: .seconds(5), overall: .seconds(15)))
/// let item = try await client.send(URLRequest(url: url), returning: ClassItem.self, module: StudyGroupCode.self)
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
/// The `URLRequest`'s URL, method, header fields and `httpBody` are sent; each attempt has until
/// the request's `timeoutInterval` (or ``timeout``, when set) to complete, body included. A request
/// with an `httpBodyStream` is refused with `URLError.unsupportedURL` (the stream cannot be read
/// twice, and a retry would need it again): set `httpBody`.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The client requests are sent through.
    public let client: HTTPClient
    /// The most bytes of a response body that are collected (1 MiB by default).
    public var maxBodyBytes: Int
    /// The time each attempt has to complete, or `nil` to use the request's `timeoutInterval`.
    public var timeout: Duration?

    /// The default body limit: 1 MiB.
    public static let defaultMaxBodyBytes = 1 << 20

    /// Creates a transport.
    /// - Parameters:
    ///   - client: The client (`HTTPClient.shared` by default). The caller owns it and shuts it down.
    ///   - maxBodyBytes: The most bytes of a response body that are collected (1 MiB by default).
    ///     Values below zero mean zero.
    ///   - timeout: The time each attempt has to complete, or `nil` for the request's
    ///     `timeoutInterval`.
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
    public func send(_ request: URLRequest) async throws -> TransportResponse {
        let outgoing = try Self.clientRequest(for: request)
        let seconds = timeout.map(Self.seconds) ?? request.timeoutInterval
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

    /// The async-http-client request for a `URLRequest`: its URL, method (GET when it has none),
    /// header fields and `httpBody`.
    /// - Parameter request: The request.
    /// - Returns: The request to execute.
    /// - Throws: `URLError.badURL` for a request without a URL, `URLError.unsupportedURL` for one
    ///   with an `httpBodyStream`.
    public static func clientRequest(for request: URLRequest) throws -> HTTPClientRequest {
        guard let url = request.url else {
            throw URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: "The request has no URL."])
        }
        if request.httpBodyStream != nil {
            throw URLError(
                .unsupportedURL,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "AsyncHTTPClientTransport sends httpBody only; the request has an httpBodyStream."
                ])
        }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: (request.httpMethod ?? "GET").uppercased())
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.httpBody {
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
