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
    /// The string code the server sends for this entry (`"card_declined"`), or `nil`. A catalog
    /// maps it, in ``namespace``, to ``code``: the integer stays the key of every lookup.
    public var string: String?
    /// The namespace of ``string`` (Stripe's error `type`, an `ErrorInfo` `domain`), or `nil`
    /// for the catalog's own namespace (strings that come without one). A module entry's
    /// namespace is one its module owns (``ModuleDefinition/namespaces``), a base entry's one no
    /// module owns.
    public var namespace: String?

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

    /// Creates an entry definition with a string code.
    /// - Parameters:
    ///   - code: The raw code: the integer the string stands for.
    ///   - name: The identifier (non-empty).
    ///   - string: The string code the server sends (non-empty).
    ///   - namespace: Its namespace, or `nil` for the catalog's own.
    ///   - flags: The attribute bits; none by default.
    ///   - message: The message.
    public init(
        code: Int64, name: String, string: String, namespace: String? = nil, flags: CodeFlags = [],
        message: LocalizedText
    ) {
        self.init(code: code, name: name, flags: flags, message: message)
        self.string = string
        self.namespace = namespace
    }
}
