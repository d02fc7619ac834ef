import Foundation
import SwiftErr

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransportRequest {
    /// The request a `URLRequest` describes: its URL, method (`GET` when it has none), header
    /// fields, `httpBody` and `timeoutInterval`.
    /// - Parameter request: The `URLRequest`.
    /// - Throws: `URLError.badURL` when the request has no URL; `URLError.unsupportedURL` when it
    ///   has an `httpBodyStream` (a stream can be read once, and a request may be sent more than
    ///   once: set `httpBody`).
    public init(_ request: URLRequest) throws(URLError) {
        guard let url = request.url else {
            throw URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: "The request has no URL."])
        }
        if request.httpBodyStream != nil {
            throw URLError(
                .unsupportedURL,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "A request with an httpBodyStream cannot be sent more than once; set httpBody instead."
                ])
        }
        self.init(
            url: url, method: request.httpMethod ?? "GET", headerFields: request.allHTTPHeaderFields ?? [:],
            body: request.httpBody,
            timeout: request.timeoutInterval > 0
                ? .milliseconds(Int64((request.timeoutInterval * 1000).rounded())) : nil)
    }
}

extension URLRequest {
    /// The `URLRequest` for a ``SwiftErr/TransportRequest``: its URL, method, header fields, body
    /// and, when it has one, its time limit as `timeoutInterval` (otherwise `URLRequest`'s default).
    /// - Parameter request: The request.
    public init(_ request: TransportRequest) {
        self.init(url: request.url)
        httpMethod = request.method
        for (name, value) in request.headerFields {
            setValue(value, forHTTPHeaderField: name)
        }
        httpBody = request.body
        if let timeout = request.timeout {
            let (seconds, attoseconds) = timeout.components
            timeoutInterval = max(Double(seconds) + Double(attoseconds) / 1e18, 0.001)
        }
    }
}
