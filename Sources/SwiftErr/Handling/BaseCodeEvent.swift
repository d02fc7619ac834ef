/// A base-tier code received for some module's request: what the central handler sees.
public struct BaseCodeEvent: Sendable, Hashable {
    /// The base code.
    public var code: BaseCode
    /// Its flags in the catalog it was classified through.
    public var flags: CodeFlags
    /// The `ModuleCode.moduleName` of the module whose request got it.
    public var module: String
    /// The envelope's message, when the code came from an envelope that had one.
    public var serverMessage: String?

    /// Creates an event.
    /// - Parameters:
    ///   - code: The base code.
    ///   - flags: Its catalog flags.
    ///   - module: The requesting module's name.
    ///   - serverMessage: The envelope's message, if any.
    public init(code: BaseCode, flags: CodeFlags, module: String, serverMessage: String? = nil) {
        self.code = code
        self.flags = flags
        self.module = module
        self.serverMessage = serverMessage
    }

    /// Whether the user must sign in again (the code is flagged `CodeFlags.reauthenticate`).
    public var requiresReauthentication: Bool {
        flags.contains(.reauthenticate)
    }
}
