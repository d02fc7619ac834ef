import Foundation

/// A response body was larger than the limit its reader was given, so it was refused rather than
/// buffered; carried by ``ModuleRespError/transportFailed(underlying:)``.
///
/// Transports and middleware that collect a body into memory (the async-http-client transport, the
/// OpenAPI middleware, a gateway) stop at a limit and throw this error: when the server announced
/// a larger `Content-Length`, before reading any of the body; otherwise as soon as the bytes read
/// pass the limit. The same request gets the same body again, so ``RetryPolicy`` never retries it,
/// as `URLSession` does not retry `URLError.dataLengthExceedsMaximum`.
///
/// <!-- listing: context=app -->
/// ```swift
/// do {
///     let item = try await client.send(request, returning: ClassItem.self, module: StudyGroupCode.self)
/// } catch .transportFailed(let tooLarge as ResponseBodyTooLargeError) {
///     log("refused a body over \(tooLarge.limit) bytes")
/// } catch {
///     log("request failed: \(error)")
/// }
/// ```
public struct ResponseBodyTooLargeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The most bytes the reader accepts.
    public let limit: Int
    /// The length the server announced in `Content-Length`, or `nil` when it announced none (a
    /// chunked body): then the body was refused while it was being read.
    public let contentLength: Int64?
    /// The bytes read before the body was refused: `0` when `Content-Length` was over the limit,
    /// otherwise more than ``limit`` (the read that passed it included).
    public let received: Int

    /// Creates the error.
    /// - Parameters:
    ///   - limit: The most bytes the reader accepts.
    ///   - contentLength: The announced length, if any.
    ///   - received: The bytes read before refusing.
    public init(limit: Int, contentLength: Int64? = nil, received: Int = 0) {
        self.limit = limit
        self.contentLength = contentLength
        self.received = received
    }

    /// `response body of 5000000 bytes (Content-Length) exceeds the limit of 1048576 bytes` or
    /// `response body exceeds the limit of 1048576 bytes (1050000 bytes received)`.
    public var description: String {
        if let contentLength {
            return "response body of \(contentLength) bytes (Content-Length) exceeds the limit of \(limit) bytes"
        }
        return "response body exceeds the limit of \(limit) bytes (\(received) bytes received)"
    }
}

extension ResponseBodyTooLargeError: LocalizedError {
    /// "The server's response is too large." / "服务器的响应过大。", in the current language (`Language.current`).
    public var errorDescription: String? {
        Language.current.usesSimplifiedChinese ? "服务器的响应过大。" : "The server's response is too large."
    }
}
