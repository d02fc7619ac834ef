import SwiftErr

/// A deliberately simple classifier over a ``CatalogDefinition``: linear scans in Swift, no C,
/// no index. Compare a ``Catalog`` with it to check that a catalog classifies every code as its
/// definition says (a differential test).
///
/// <!-- listing: context=shop,tests -->
/// ```swift
/// let reference = ReferenceClassifier(definition)
/// for code in reference.interestingCodes() {
///     #expect(reference.classify(code) == ReferenceClassifier.Answer(catalog.classify(code)))
/// }
/// ```
public struct ReferenceClassifier: Sendable {
    /// What a code is, by the definition.
    public struct Answer: Sendable, Hashable, CustomStringConvertible {
        /// The tier.
        public var tier: Classification.Tier
        /// The module id (1-based position in the definition's modules), `0` outside modules.
        public var moduleID: UInt16
        /// The matching entry's flags (empty when no entry matched).
        public var flags: CodeFlags
        /// Whether the code matched an entry exactly.
        public var isExact: Bool

        /// Creates an answer.
        /// - Parameters:
        ///   - tier: The tier.
        ///   - moduleID: The module id, `0` outside modules.
        ///   - flags: The entry's flags.
        ///   - isExact: Whether an entry matched.
        public init(tier: Classification.Tier, moduleID: UInt16, flags: CodeFlags, isExact: Bool) {
            self.tier = tier
            self.moduleID = moduleID
            self.flags = flags
            self.isExact = isExact
        }

        /// The same facts read from a catalog's classification.
        /// - Parameter classification: A classification made by a ``Catalog``.
        public init(_ classification: Classification) {
            self.init(
                tier: classification.tier, moduleID: classification.moduleID, flags: classification.flags,
                isExact: classification.isExact)
        }

        /// "tier module flags exact", for test failure messages.
        public var description: String { "\(tier) module \(moduleID) flags \(flags.rawValue) exact \(isExact)" }
    }

    /// The definition classified against.
    public let definition: CatalogDefinition

    /// A reference for `definition`.
    /// - Parameter definition: The catalog definition.
    public init(_ definition: CatalogDefinition) {
        self.definition = definition
    }

    /// Classifies a code by scanning the definition.
    /// - Parameter code: Any code.
    /// - Returns: What the definition says the code is.
    public func classify(_ code: Int64) -> Answer {
        if code == definition.success.code {
            return Answer(tier: .success, moduleID: 0, flags: definition.success.flags, isExact: true)
        }
        for entry in definition.base where entry.code == code {
            return Answer(tier: .base, moduleID: 0, flags: entry.flags, isExact: true)
        }
        for (index, module) in definition.modules.enumerated() {
            let id = UInt16(index + 1)
            for entry in module.codes where entry.code == code {
                return Answer(tier: .module, moduleID: id, flags: entry.flags, isExact: true)
            }
            for range in module.ranges where range.contains(code) {
                return Answer(tier: .module, moduleID: id, flags: [], isExact: false)
            }
        }
        return Answer(tier: .unknown, moduleID: 0, flags: [], isExact: false)
    }

    /// Codes worth testing: every entry and its neighbours, range edges and their neighbours,
    /// extremes of `Int64`, codes that differ from a base code in the high 32 bits, and
    /// `randomCount` random codes in `10_000...12_000_000`, reproducible from `seed`.
    /// - Parameters:
    ///   - seed: The seed of the random part.
    ///   - randomCount: How many random codes to add.
    /// - Returns: The codes (with repeats).
    public func interestingCodes(seed: UInt64 = 42, randomCount: Int = 2000) -> [Int64] {
        var codes: [Int64] = [0, 1, -1, .min, .max, .min + 1, .max - 1, -99999, (1 << 32) + 11001, 11001 - (1 << 32)]
        codes.append(definition.success.code)
        for entry in definition.base {
            codes += [entry.code, entry.code &- 1, entry.code &+ 1]
        }
        for module in definition.modules {
            for entry in module.codes { codes += [entry.code, entry.code &- 1, entry.code &+ 1] }
            for range in module.ranges {
                codes += [range.lowerBound, range.upperBound, range.lowerBound &- 1, range.upperBound &+ 1]
            }
        }
        var random = SplitMix64(seed: seed)
        for _ in 0..<randomCount {
            codes.append(Int64.random(in: 10_000...12_000_000, using: &random))
        }
        return codes
    }
}
