import SwiftErr

/// A deliberately simple classifier over a ``CatalogDefinition`` (linear scans, no C), the
/// reference the C-backed tables are compared with.
struct ReferenceClassifier {
    let definition: CatalogDefinition

    /// (tier, module id, entry flags, exact) for a code.
    func classify(_ code: Int64) -> (tier: Classification.Tier, module: UInt16, flags: CodeFlags, exact: Bool) {
        if code == definition.success.code {
            return (.success, 0, definition.success.flags, true)
        }
        for entry in definition.base where entry.code == code {
            return (.base, 0, entry.flags, true)
        }
        for (index, module) in definition.modules.enumerated() {
            let id = UInt16(index + 1)
            for entry in module.codes where entry.code == code {
                return (.module, id, entry.flags, true)
            }
            for range in module.ranges where range.contains(code) {
                return (.module, id, [], false)
            }
        }
        return (.unknown, 0, [], false)
    }
}

/// A small deterministic generator (SplitMix64) so differential tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Codes worth testing for a definition: every entry, range edges and their neighbours,
/// extremes, and random values in and around the ranges.
func interestingCodes(for definition: CatalogDefinition, seed: UInt64 = 42, randomCount: Int = 2000) -> [Int64] {
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
    var rng = SplitMix64(state: seed)
    for _ in 0..<randomCount {
        codes.append(Int64.random(in: 10_000...12_000_000, using: &rng))
    }
    return codes
}
