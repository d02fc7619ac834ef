import Foundation
import HTTPTypes
import SwiftErr

extension HTTPRequest {
    /// The request as SwiftErr's pipeline sees it: the URL (`baseURL` and the request's path and
    /// query), the method and the header fields (repeated fields joined with `", "`); no body, which
    /// the middleware holds only as a stream. What the session's authenticator, the upstream's
    /// keying and the repeatability rule read.
    /// - Parameter baseURL: The server URL.
    /// - Returns: The request.
    func transportRequest(baseURL: URL) -> TransportRequest {
        let base =
            baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        let url = URL(string: base + (path ?? "")) ?? baseURL
        var fields: [String: String] = [:]
        for field in headerFields {
            let name = field.name.rawName
            fields[name] = fields[name].map { $0 + ", " + field.value } ?? field.value
        }
        return TransportRequest(url: url, method: method.rawValue, headerFields: fields)
    }

    /// This request with the header fields the authenticator set (or removed) in `sent`, the
    /// pipeline's request as it goes out: a change to the URL or the body does not reach it.
    /// - Parameters:
    ///   - sent: The pipeline's request, with its credential.
    ///   - baseURL: The server URL.
    /// - Returns: The request to hand to `next`.
    func applying(_ sent: TransportRequest, baseURL: URL) -> HTTPRequest {
        let before = transportRequest(baseURL: baseURL).headerFields
        var outgoing = self
        for (name, value) in sent.headerFields where before[name] != value {
            guard let fieldName = HTTPField.Name(name) else { continue }
            outgoing.headerFields[fieldName] = value
        }
        for name in before.keys where sent.value(forHeader: name) == nil {
            guard let fieldName = HTTPField.Name(name) else { continue }
            outgoing.headerFields[fieldName] = nil
        }
        return outgoing
    }
}
