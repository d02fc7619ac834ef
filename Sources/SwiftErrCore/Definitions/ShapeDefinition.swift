/// One way a backend writes its errors, as a catalog declares it: where a response's code is,
/// whether it is an integer or a string, its namespace, a second identifier, the message and the
/// payload, how a failure is told from a success, and the `Content-Type` that selects the shape.
///
/// A catalog may declare several shapes (``CatalogDefinition/shapes``); a response is read with
/// the one shape that fits it. The kinds cover the bodies backends answer with:
///
/// | backend | code | namespace | failure |
/// |---|---|---|---|
/// | `{"ret": 11001, "msg": …}` | `ret`, integer | — | ``Failure/code`` |
/// | Stripe | `error.code`, string | `error.type` | ``Failure/status`` |
/// | Slack | `error`, string | — | `ok` is `false` |
/// | Google AIP-193 | `error.details[@type=ErrorInfo].reason`, else `error.status` | its `domain` | `error` present |
/// | RFC 9457 Problem Details | `type`, string; `about:blank` when absent | a prefix of `type` | ``Failure/status`` |
/// | a body that says nothing | the HTTP status | — | ``Failure/status`` |
/// | gRPC | the status (0–16) | `ErrorInfo`'s `domain` | status not 0 |
///
/// Google's, RFC 9457's and Stripe's shapes. A code may be looked for in more than one place
/// (``fallbackCodes``), and a failure that names none may stand for a fixed code (``defaultCode``):
///
/// <!-- listing: context=app -->
/// ```swift
/// let errorInfo = ShapeDefinition.PathStep.firstWhere(
///     key: "@type", equals: "type.googleapis.com/google.rpc.ErrorInfo")
/// let aip193 = ShapeDefinition(
///     name: "aip193",
///     code: .body([.key("error"), .key("details"), errorInfo, .key("reason")]),
///     fallbackCodes: [.body([.key("error"), .key("status")])], codeType: .string,
///     namespace: .location(.body([.key("error"), .key("details"), errorInfo, .key("domain")])),
///     failure: .present(.body([.key("error")])))
/// let problem = ShapeDefinition(
///     name: "problem", contentType: "application/problem+json",
///     code: .body([.key("type")]), codeType: .string, defaultCode: .string("about:blank"),
///     namespace: .codePrefix, message: .body([.key("detail")]), failure: .status)
/// let stripe = ShapeDefinition(
///     name: "stripe",
///     code: .body([.key("error"), .key("code")]), codeType: .string,
///     namespace: .location(.body([.key("error"), .key("type")])),
///     secondary: .body([.key("error"), .key("decline_code")]),
///     message: .body([.key("error"), .key("message")]),
///     failure: .status)
/// ```
public struct ShapeDefinition: Sendable, Hashable {
    /// What carries a shape's code.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A JSON body: the code is at ``ShapeDefinition/code``.
        case json
        /// The HTTP status alone, for bodies that say nothing (an HTML 503 page): the status is
        /// the integer code.
        case status
        /// gRPC: the status code (0–16) is the integer code; the `google.rpc.ErrorInfo` of
        /// `grpc-status-details-bin` gives the string code (`reason`) and its namespace
        /// (`domain`), and `grpc-message` the message.
        case grpc
    }

    /// One step of a path into a JSON body.
    public enum PathStep: Sendable, Hashable {
        /// An object's member.
        case key(String)
        /// An array's element, `0` the first.
        case index(Int)
        /// The first element of an array that is an object whose member `key` is the string
        /// `equals` (AIP-193's `ErrorInfo` among `details`: `@type` is
        /// `type.googleapis.com/google.rpc.ErrorInfo`).
        case firstWhere(key: String, equals: String)
    }

    /// Where a value is in a response.
    public enum Location: Sendable, Hashable {
        /// A path into the JSON body, at least one step.
        case body([PathStep])
        /// A response header, by name (names ignore case).
        case header(String)
    }

    /// A code a shape names itself (``ShapeDefinition/defaultCode``): an integer for a shape of
    /// integer codes, a string for one of string codes.
    public enum CodeValue: Sendable, Hashable {
        /// An integer code.
        case integer(Int64)
        /// A string code, in the namespace the response gives (or the catalog's own).
        case string(String)
    }

    /// Whether a code is a JSON integer or a string.
    public enum CodeType: String, Sendable, Hashable, CaseIterable {
        /// An integer code: the catalog's own codes.
        case integer
        /// A string code (`"card_declined"`): the catalog maps it to an entry's integer code
        /// (``EntryDefinition/string``).
        case string
    }

    /// Where a string code's namespace is.
    public enum NamespaceSource: Sendable, Hashable {
        /// The namespace is the value at a location (Stripe's `error.type`, an `ErrorInfo`'s
        /// `domain`).
        case location(Location)
        /// The namespace is the longest of the catalog's namespaces that the code starts with,
        /// and the string code is the rest (a Problem Details `type` URI such as
        /// `https://example.com/probs/out-of-credit` under the namespace
        /// `https://example.com/probs/`).
        case codePrefix
    }

    /// How a failed response is told from a successful one.
    public enum Failure: Sendable, Hashable {
        /// An HTTP status of 400 or more is a failure (a body without a code is classified by the
        /// status alone).
        case status
        /// A code other than the catalog's success code is a failure, whatever the status (the
        /// `{"ret": …}` envelope).
        case code
        /// The boolean at a location equals `failsWhen` (Slack's `"ok": false`, Vapor's
        /// `"error": true`).
        case flag(Location, failsWhen: Bool)
        /// A value at a location, of any type, is present (AIP-193's `error` object).
        case present(Location)
    }

    /// The shape's name, an identifier unique in its catalog (`errcat classify --shape NAME`).
    public var name: String
    /// What carries the code.
    public var kind: Kind
    /// The media type that selects the shape (`application/problem+json`), compared without
    /// parameters and ignoring case; `nil`: any.
    public var contentType: String?
    /// Where the code is; `nil` for ``Kind/status`` and ``Kind/grpc``, whose protocol fixes it.
    public var code: Location?
    /// Where else the code may be, tried in order when ``code`` finds none (AIP-193's
    /// `error.status` for an error whose `details` carry no `ErrorInfo`); each holds a code of
    /// ``codeType``, in the namespace ``namespace`` gives. Empty: nowhere else.
    public var fallbackCodes: [Location]
    /// Whether the code is an integer or a string.
    public var codeType: CodeType
    /// The code of a failure in which neither ``code`` nor ``fallbackCodes`` finds one (RFC 9457's
    /// `about:blank`, which a Problem Details body without `type` means); `nil`: such a failure
    /// has no code and is unknown. It applies to failures only, so never with ``Failure/code``.
    public var defaultCode: CodeValue?
    /// Where a string code's namespace is; `nil`: the catalog's own namespace (codes without
    /// one, such as Slack's).
    public var namespace: NamespaceSource?
    /// A second identifier kept on the error beside the code (Stripe's `decline_code`, Microsoft
    /// Graph's `innerError.code`); `nil`: none.
    public var secondary: Location?
    /// Where the server's message is; `nil`: none.
    public var message: Location?
    /// Where the payload is (any JSON value); `nil`: none.
    public var payload: Location?
    /// How a failure is told from a success.
    public var failure: Failure

    /// Creates a shape.
    /// - Parameters:
    ///   - name: An identifier unique in the catalog.
    ///   - kind: What carries the code; ``Kind/json`` by default.
    ///   - contentType: The media type that selects the shape, or `nil` for any.
    ///   - code: Where the code is (required for ``Kind/json``, `nil` for the other kinds).
    ///   - fallbackCodes: Where else the code may be, in order; none by default.
    ///   - codeType: Integer or string; integer by default.
    ///   - defaultCode: The code of a failure that names none, or `nil`.
    ///   - namespace: Where a string code's namespace is, or `nil`.
    ///   - secondary: A second identifier's location, or `nil`.
    ///   - message: The server's message's location, or `nil`.
    ///   - payload: The payload's location, or `nil`.
    ///   - failure: How a failure is told from a success.
    public init(
        name: String, kind: Kind = .json, contentType: String? = nil, code: Location?,
        fallbackCodes: [Location] = [], codeType: CodeType = .integer, defaultCode: CodeValue? = nil,
        namespace: NamespaceSource? = nil, secondary: Location? = nil, message: Location? = nil,
        payload: Location? = nil, failure: Failure
    ) {
        self.name = name
        self.kind = kind
        self.contentType = contentType
        self.code = code
        self.fallbackCodes = fallbackCodes
        self.codeType = codeType
        self.defaultCode = defaultCode
        self.namespace = namespace
        self.secondary = secondary
        self.message = message
        self.payload = payload
        self.failure = failure
    }

    /// Whether a response can always tell `self` and `other` apart: they differ in kind, in
    /// `Content-Type`, in where the code is or its type, or in how a failure is told. Two shapes
    /// that differ in none of these match the same responses, and a catalog with both is
    /// ambiguous (a build error).
    /// - Parameter other: Another shape of the catalog.
    /// - Returns: `false` when no response can tell the two apart.
    public func isDistinguishable(from other: ShapeDefinition) -> Bool {
        kind != other.kind || !Self.sameMediaType(contentType, other.contentType)
            || code != other.code || codeType != other.codeType || failure != other.failure
    }

    /// Whether two media types are the same, ignoring ASCII case (media types are ASCII; no
    /// Unicode case tables, which an Embedded Swift build of this module would have to carry).
    static func sameMediaType(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        return a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { folded($0) == folded($1) }
    }
}
