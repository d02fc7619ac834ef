import CErrCore

/// Attribute bits attached to one catalog entry.
///
/// The values are the C core's `ERRCORE_FLAG_*` bits, so a `CodeFlags` read from a
/// ``Classification`` or written into a ``CatalogDefinition`` means the same thing to C
/// and Swift code. The four high bits (``applicationMask``) are left to the application:
/// the core stores them but never reads them.
@frozen
public struct CodeFlags: OptionSet, Sendable, Hashable {
    /// The raw `ERRCORE_FLAG_*` bits.
    public var rawValue: UInt8

    /// Creates flags from raw `ERRCORE_FLAG_*` bits.
    /// - Parameter rawValue: The bits, as stored in `errcore_entry.flags`.
    @inlinable
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Repeating the same request may succeed. The corresponding C flag is `ERRCORE_FLAG_RETRYABLE`.
    public static let retryable = CodeFlags(rawValue: UInt8(ERRCORE_FLAG_RETRYABLE))
    /// The user's credentials are no longer valid and they must sign in again (token expiry).
    /// The corresponding C flag is `ERRCORE_FLAG_REAUTH`.
    public static let reauthenticate = CodeFlags(rawValue: UInt8(ERRCORE_FLAG_REAUTH))
    /// The message is meant for the end user, not only for logs.
    /// The corresponding C flag is `ERRCORE_FLAG_SHOW_USER`.
    public static let showUser = CodeFlags(rawValue: UInt8(ERRCORE_FLAG_SHOW_USER))
    /// End the flow at once and never retry, even if a retry policy would.
    /// The corresponding C flag is `ERRCORE_FLAG_FATAL`.
    public static let fatal = CodeFlags(rawValue: UInt8(ERRCORE_FLAG_FATAL))
    /// The four bits reserved to the application (`ERRCORE_FLAG_APP_MASK`).
    public static let applicationMask = CodeFlags(rawValue: UInt8(ERRCORE_FLAG_APP_MASK))

    /// Creates the single flag with the given catalog name.
    ///
    /// The names are those of `errcore_flag_name()`: `"retryable"`, `"reauthenticate"`,
    /// `"showUser"`, `"fatal"`, and `"app4"` … `"app7"` for the application bits.
    /// - Parameter name: A flag name as written in a catalog file.
    /// - Returns: `nil` when `name` is not a flag name.
    public init?(name: String) {
        var bit: UInt8 = 1
        for _ in 0..<8 {
            if let cName = errcore_flag_name(UInt32(bit)), String(cString: cName) == name {
                self.init(rawValue: bit)
                return
            }
            bit = bit &<< 1
        }
        return nil
    }

    /// The catalog names of the set bits, lowest bit first (for example
    /// `["reauthenticate", "showUser"]`).
    public var names: [String] {
        var result: [String] = []
        var bit: UInt8 = 1
        for _ in 0..<8 {
            if rawValue & bit != 0, let cName = errcore_flag_name(UInt32(bit)) {
                result.append(String(cString: cName))
            }
            bit = bit &<< 1
        }
        return result
    }
}
