import CErrCore

/// A base-tier response code: a code any request can get, handled centrally (token expiry,
/// verification codes, …).
///
/// SwiftErr itself names no base code. A catalog's codes are `static let` constants that
/// `errcat gen swift` (or the SwiftErrCatalogPlugin) generates from the catalog file, e.g.
/// `BaseCode.sessionExpired` of an app's catalog, or `BaseCode.tokenExpire` of the built-in
/// catalog in the `SwiftErrDefaultCatalog` product.
///
/// ## Why a struct and not an enum
///
/// `BaseCode` is an open struct over the raw code with static members, like swift-system's
/// `Errno`, rather than a closed enum, because the base tier is data, not a Swift type: it lives
/// in the C table (``Catalog``), which C code shares and which an app can build from its own
/// catalog file with more base codes than this library knows. A closed enum would need an
/// "other" case and lose the raw value of every base code it does not list; the struct keeps
/// every code exactly, reads names, flags and messages from the table, and still matches in
/// `switch` and `catch` patterns (`case .base(.tokenExpire)`), through `Equatable` and `~=`.
/// The cost is that `switch` over a `BaseCode` needs a `default:`, which is right for a tier
/// that can grow without a release.
@frozen
public struct BaseCode: RawRepresentable, Hashable, Sendable {
    /// The raw code.
    public let rawValue: Int64

    /// Wraps a raw code. Any value is accepted; `Catalog.classify(_:)` says whether it is
    /// a base code of a given table.
    /// - Parameter rawValue: The raw code.
    @inlinable
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The code's identifier in `catalog`, e.g. `"tokenExpire"`.
    /// - Parameter catalog: The catalog to look in (SwiftErr's process-wide one is
    ///   `Catalog.current`).
    /// - Returns: The name, or `nil` when the code is not a base entry of `catalog`.
    public func name(in catalog: Catalog) -> String? {
        let classification = catalog.classify(rawValue)
        guard classification.tier == .base, let index = classification.entryIndex else { return nil }
        return catalog.entryName(at: index)
    }

    /// The code's flags in `catalog` (empty when it is not a base entry there).
    /// - Parameter catalog: The catalog to look in.
    /// - Returns: The entry's flags.
    public func flags(in catalog: Catalog) -> CodeFlags {
        let classification = catalog.classify(rawValue)
        return classification.tier == .base ? classification.flags : []
    }

    /// The text a person should see for the code (`errcore_describe()`).
    /// - Parameters:
    ///   - language: The language wanted; English is the fallback.
    ///   - catalog: The catalog to look in.
    /// - Returns: The entry's message, or the C core's "Unknown response code …" text.
    public func message(in language: Language, catalog: Catalog) -> String {
        catalog.describe(rawValue, in: language)
    }
}
