/// One named code of a catalog, as written in a catalog file or a module enum.
public struct EntryDefinition: Sendable, Hashable {
    /// The raw code the server sends.
    public var code: Int64
    /// The identifier, e.g. `"tokenExpire"`. Must not be empty.
    public var name: String
    /// The entry's attribute bits.
    public var flags: CodeFlags
    /// The message shown or logged for this code.
    public var message: LocalizedText

    /// Creates an entry definition.
    /// - Parameters:
    ///   - code: The raw code.
    ///   - name: The identifier (non-empty).
    ///   - flags: The attribute bits; none by default.
    ///   - message: The message in English and, optionally, Simplified Chinese.
    public init(code: Int64, name: String, flags: CodeFlags = [], message: LocalizedText) {
        self.code = code
        self.name = name
        self.flags = flags
        self.message = message
    }
}
