// A small deterministic PRNG (SplitMix64), so `sample --seed S` prints the same lines everywhere.

/// SplitMix64 (Steele, Lea and Flood 2014): 64-bit state, one add and a mix per number.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (bound > 0), by multiply-shift; the bias is below 2^-32 for
    /// the small bounds used here.
    mutating func below(_ bound: UInt64) -> UInt64 {
        UInt64((UInt128(next()) * UInt128(bound)) >> 64)
    }
}
