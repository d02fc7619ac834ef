import AsyncHTTPClient
import NIOCore
import SwiftErr

extension HTTPClientResponse {
    /// Collects the body into one buffer, refusing one larger than `limit` bytes.
    ///
    /// A `Content-Length` over the limit is refused before any of the body is read. Otherwise the
    /// body is read part by part and refused as soon as the bytes read pass the limit, so at most the
    /// limit plus one network read is held; the rest of the body is not read (async-http-client
    /// closes the connection).
    ///
    /// <!-- listing: context=server,ahc -->
    /// ```swift
    /// let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
    /// let body = try await response.collectBody(limit: 64 * 1024)
    /// ```
    /// - Parameter limit: The most bytes accepted (values below zero mean zero).
    /// - Returns: The body.
    /// - Throws: ``SwiftErr/ResponseBodyTooLargeError`` when the body is larger than `limit`; the
    ///   client's error when reading fails.
    public func collectBody(limit: Int) async throws -> ByteBuffer {
        let limit = max(0, limit)
        let announced = headers.first(name: "content-length").flatMap { Int64($0) }
        if let announced, announced > Int64(limit) {
            throw ResponseBodyTooLargeError(limit: limit, contentLength: announced)
        }
        var collected: ByteBuffer?
        var received = 0
        for try await part in body {
            received += part.readableBytes
            if received > limit {
                throw ResponseBodyTooLargeError(limit: limit, contentLength: announced, received: received)
            }
            if collected == nil {
                collected = part
            } else {
                var part = part
                collected!.writeBuffer(&part)
            }
        }
        return collected ?? ByteBuffer()
    }
}
