/// Counts of classified codes per tier and per module.
public struct CodeTally: Sendable, Hashable {
    /// Codes seen.
    public var total: UInt64 = 0
    /// Codes classified ``Classification/Tier/unknown``.
    public var unknown: UInt64 = 0
    /// Codes classified ``Classification/Tier/success``.
    public var success: UInt64 = 0
    /// Codes classified ``Classification/Tier/base``.
    public var base: UInt64 = 0
    /// Codes classified ``Classification/Tier/module`` (listed or unrecognised).
    public var module: UInt64 = 0
    /// Module-tier codes that no entry lists (also counted in ``module``).
    public var unrecognised: UInt64 = 0
    /// Module-tier codes per module id; element 0 is unused.
    public var perModule: [UInt64]

    /// Creates zeroed counters for a table with `moduleCount` modules.
    /// - Parameter moduleCount: The table's ``Catalog/moduleCount``.
    public init(moduleCount: Int) {
        perModule = [UInt64](repeating: 0, count: moduleCount + 1)
    }
}
