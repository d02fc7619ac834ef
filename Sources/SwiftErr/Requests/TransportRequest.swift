import Foundation

/// An HTTP request as every ``HTTPTransport`` receives it: method, URL, header fields, body and
/// an optional time limit.
///
/// It is the request model of the whole pipeline, independent of any HTTP client, so `SwiftErr`
/// needs no networking library: a transport turns it into its client's own request
/// (`URLRequest` in `SwiftErrURLSession`, `HTTPClientRequest` on async-http-client). What sits
/// between the caller and the transport (a ``ResponseClient``, an authenticator setting a
/// credential) reads and changes it through ``value(forHeader:)`` and
/// ``setValue(_:forHeader:)``, which treat field names without regard to case, as HTTP does.
///
/// <!-- listing: context=app -->
/// ```swift
/// var request = TransportRequest(url: baseURL.appending(path: "class/join"), method: "POST")
/// request.setValue("application/json", forHeader: "Content-Type")
/// request.body = try JSONEncoder().encode(JoinClass(code: code))
/// let item = try await client.send(request, returning: ClassItem.self, module: StudyGroupCode.self)
/// ```
public struct TransportRequest: Sendable, Hashable {
    /// The method, upper case (`GET`, `POST`, …).
    public var method: String {
        didSet { method = method.uppercased() }
    }
    /// The URL, with its query.
    public var url: URL
    /// The header fields. Read and set them with ``value(forHeader:)`` and
    /// ``setValue(_:forHeader:)``, which ignore the case of names.
    public var headerFields: [String: String]
    /// The body, or `nil` for none.
    public var body: Data?
    /// The longest one send of this request may take in the transport, or `nil` for the
    /// transport's own default. A ``ResponseClient``'s ``ResponseClient/Timeouts`` apply on top.
    public var timeout: Duration?

    /// Creates a request.
    /// - Parameters:
    ///   - url: The URL.
    ///   - method: The method (`GET` by default); stored upper case.
    ///   - headerFields: The header fields (none by default).
    ///   - body: The body (none by default).
    ///   - timeout: The transport's time limit for one send (`nil`: its default).
    public init(
        url: URL, method: String = "GET", headerFields: [String: String] = [:], body: Data? = nil,
        timeout: Duration? = nil
    ) {
        self.url = url
        self.method = method.uppercased()
        self.headerFields = headerFields
        self.body = body
        self.timeout = timeout
    }

    /// A header field's value, whatever the case of its name.
    /// - Parameter name: The field name (`Authorization`, `authorization`).
    /// - Returns: The value, or `nil` when the request has no such field.
    public func value(forHeader name: String) -> String? {
        if let exact = headerFields[name] { return exact }
        let wanted = name.lowercased()
        return headerFields.first { $0.key.lowercased() == wanted }?.value
    }

    /// Sets a header field, replacing any field of the same name in another case, or removes it.
    /// - Parameters:
    ///   - value: The value, or `nil` to remove the field.
    ///   - name: The field name.
    public mutating func setValue(_ value: String?, forHeader name: String) {
        let wanted = name.lowercased()
        for key in headerFields.keys where key.lowercased() == wanted {
            headerFields[key] = nil
        }
        if let value { headerFields[name] = value }
    }
}
