/// The member names of a response envelope: which key holds the code, the message and the payload.
///
/// Keys are compared with the JSON strings after unescaping, exactly and case-sensitively.
public struct EnvelopeKeys: Sendable, Hashable {
    /// The key of the integer response code, e.g. `"ret"`.
    public var code: String
    /// The key of the message string, e.g. `"msg"`. A ``ModuleRespError`` of a code that is not
    /// success keeps this member's text, cleaned, as ``ModuleRespError/serverMessage``.
    public var message: String
    /// The key of the payload, e.g. `"data"`.
    public var data: String

    /// Creates a key set.
    /// - Parameters:
    ///   - code: The key of the integer response code.
    ///   - message: The key of the message string.
    ///   - data: The key of the payload.
    public init(code: String, message: String, data: String) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// `{"ret": …, "msg": …, "data": …}`: the default envelope.
    public static let `default` = EnvelopeKeys(code: "ret", message: "msg", data: "data")
    /// `{"code": …, "message": …, "data": …}`: the most common alternative.
    public static let codeMessage = EnvelopeKeys(code: "code", message: "message", data: "data")
}
