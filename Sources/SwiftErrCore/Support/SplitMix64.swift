/// SplitMix64 (Steele, Lea and Flood 2014): a small deterministic random number generator, 64
/// bits of state, one add and a mix per number. Used wherever a run must be reproducible from a
/// seed: `errcat sample --seed`, differential tests and benchmarks inputs.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound > 0`) by multiply-shift; the bias is below `bound / 2^64`.
    package mutating func below(_ bound: UInt64) -> UInt64 {
        next().multipliedFullWidth(by: bound).high
    }
}
