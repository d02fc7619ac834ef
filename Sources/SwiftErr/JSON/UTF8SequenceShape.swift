/// The shape of a well-formed multi-byte UTF-8 sequence, told by its lead byte (the Unicode
/// Standard's table of well-formed byte sequences): its length, and the range its second byte must
/// fall in, which rules out overlong forms, surrogates and values beyond `U+10FFFF`. The bytes after
/// the second are continuation bytes (`0x80 ... 0xBF`).
struct UTF8SequenceShape {
    /// 2, 3 or 4 bytes.
    let length: Int
    /// The smallest second byte.
    let lower: UInt8
    /// The largest second byte.
    let upper: UInt8

    /// The shape of the sequence that `lead` begins, or `nil` when `lead` cannot begin one (ASCII,
    /// a continuation byte, `0xC0`, `0xC1`, `0xF5` and above).
    @inline(__always)
    init?(lead: UInt8) {
        switch lead {
        case 0xC2...0xDF: (length, lower, upper) = (2, 0x80, 0xBF)
        case 0xE0: (length, lower, upper) = (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, lower, upper) = (3, 0x80, 0xBF)
        case 0xED: (length, lower, upper) = (3, 0x80, 0x9F)
        case 0xF0: (length, lower, upper) = (4, 0x90, 0xBF)
        case 0xF1...0xF3: (length, lower, upper) = (4, 0x80, 0xBF)
        case 0xF4: (length, lower, upper) = (4, 0x80, 0x8F)
        default: return nil
        }
    }
}
