import CErrCore

/// The outcome of classifying one raw code against a ``Catalog``: a thin wrapper over
/// the C core's packed `errcore_class`.
///
/// Every `Int64` gets exactly one classification. Reading a property is a shift and a mask.
@frozen
public struct Classification: Sendable, Hashable {
    /// The four tiers a code can fall into. The raw values are `errcore_tier`'s.
    public enum Tier: UInt8, Sendable, Hashable, CaseIterable {
        /// Not the success code, not a base entry and outside every module range (`ERRCORE_TIER_UNKNOWN`).
        case unknown = 0
        /// The table's success code (`ERRCORE_TIER_SUCCESS`).
        case success = 1
        /// A base-tier entry: a code any request can get (`ERRCORE_TIER_BASE`).
        case base = 2
        /// A module's entry, or an unlisted code inside a module's range (`ERRCORE_TIER_MODULE`).
        case module = 3

        /// The C core's name of the tier: `"unknown"`, `"success"`, `"base"` or `"module"`.
        public var name: String {
            String(cString: errcore_tier_name(errcore_tier(rawValue: UInt32(rawValue))))
        }
    }

    /// The packed `errcore_class` value.
    public let rawValue: UInt64

    /// Wraps a packed `errcore_class` value returned by the C core.
    /// - Parameter rawValue: A value returned by `errcore_classify()` or `errcore_classify_batch()`.
    @inlinable
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The classification of a code the catalog does not know (``Tier/unknown``, no entry).
    @inlinable
    public static var unknown: Classification {
        Classification(rawValue: UInt64(ERRCORE_NO_ENTRY))
    }

    /// The tier of the code.
    @inlinable
    public var tier: Tier {
        // The C core only produces the four tier values; any other top byte cannot come
        // from errcore_classify() and is reported as unknown rather than trapping.
        Tier(rawValue: UInt8(truncatingIfNeeded: rawValue >> 56)) ?? .unknown
    }

    /// The owning module's id (1-based), or `0` unless ``tier`` is ``Tier/module``.
    @inlinable
    public var moduleID: UInt16 {
        UInt16(truncatingIfNeeded: rawValue >> 32)
    }

    /// The index of the matching entry in the table, or `nil` when no entry matched
    /// (an unknown code, or an unrecognised code inside a module's range).
    @inlinable
    public var entryIndex: UInt32? {
        let index = UInt32(truncatingIfNeeded: rawValue)
        return index == ERRCORE_NO_ENTRY ? nil : index
    }

    /// The matching entry's flags (empty when no entry matched).
    @inlinable
    public var flags: CodeFlags {
        CodeFlags(rawValue: UInt8(truncatingIfNeeded: rawValue >> 48))
    }

    /// Whether the code matched an entry exactly (`false` for unknown and unrecognised codes).
    @inlinable
    public var isExact: Bool {
        UInt32(truncatingIfNeeded: rawValue) != ERRCORE_NO_ENTRY
    }

    /// Whether the code lies in a module's range without being one of its listed codes.
    @inlinable
    public var isUnrecognisedModuleCode: Bool {
        tier == .module && !isExact
    }
}
