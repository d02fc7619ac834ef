// Most server messages are already clean: a short text with single spaces and no controls. Such a
// text is recognised in one pass over its UTF-8 bytes and kept as it is, instead of being read one
// scalar at a time and rebuilt; anything else takes the general reader. Both give the same text.

extension ServerMessage {
    /// Whether cleaning (``sanitized(_:)``) leaves the UTF-8 bytes `base[0 ..< count]` unchanged:
    /// they are valid UTF-8 of 1 to ``maximumUTF8Count`` bytes, with no control, bidirectional
    /// control or white space other than single spaces between other characters.
    ///
    /// `false` says only that the general reader must decide; it is also the answer for some
    /// scalars the cleaning keeps (the format characters around the ones it removes), so that the
    /// test stays a handful of comparisons.
    static func isUnchangedByCleaning(_ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard count > 0, count <= maximumUTF8Count else { return false }
        // A space at either end is dropped by the cleaning.
        guard base[0] != UInt8(ascii: " "), base[count &- 1] != UInt8(ascii: " ") else { return false }
        var index = 0
        var afterSpace = false
        while index < count {
            let lead = base[index]
            if lead < 0x80 {
                if lead == UInt8(ascii: " ") {
                    // Two spaces in a row become one.
                    if afterSpace { return false }
                    afterSpace = true
                } else {
                    // C0 controls and DEL become spaces.
                    if lead < 0x20 || lead == 0x7F { return false }
                    afterSpace = false
                }
                index &+= 1
                continue
            }
            afterSpace = false
            guard let (value, length) = utf8Sequence(base, count, at: index), isKeptAsIs(value) else {
                return false
            }
            index &+= length
        }
        return true
    }

    /// The scalar value and length of the valid multi-byte UTF-8 sequence at `index`, or `nil` when
    /// there is none (a bad lead or continuation byte, an overlong form, a surrogate, a value
    /// beyond `U+10FFFF`, a sequence cut short).
    @inline(__always)
    private static func utf8Sequence(_ base: UnsafePointer<UInt8>, _ count: Int, at index: Int) -> (UInt32, Int)? {
        let lead = base[index]
        guard let shape = UTF8SequenceShape(lead: lead) else { return nil }
        let length = shape.length
        guard count &- index >= length else { return nil }
        let second = base[index &+ 1]
        guard second >= shape.lower && second <= shape.upper else { return nil }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        value = value << 6 | UInt32(second & 0x3F)
        var offset = 2
        while offset < length {
            let byte = base[index &+ offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
            offset &+= 1
        }
        return (value, length)
    }

    /// Whether the cleaning keeps the scalar `value` (`U+0080` or above) as it is wherever it
    /// stands, as far as a few ranges can tell: `false` for the C1 controls, every white space
    /// (`U+00A0`, `U+1680`, `U+2000`–`U+200A`, `U+2028`, `U+2029`, `U+202F`, `U+205F`, `U+3000`),
    /// the bidirectional controls (`U+061C`, `U+200E`, `U+200F`, `U+202A`–`U+202E`,
    /// `U+2066`–`U+2069`), and, to keep the ranges few, the format characters next to them
    /// (`U+180E`, `U+200B`–`U+200D`, `U+2060`–`U+2065`, `U+206A`–`U+206F`).
    @inline(__always)
    private static func isKeptAsIs(_ value: UInt32) -> Bool {
        // Most letters of most scripts (CJK, Hangul, kana, emoji) lie above all of the ranges below.
        if value > 0x3000 { return true }
        switch value {
        case 0x80...0xA0, 0x061C, 0x1680, 0x180E, 0x2000...0x200F, 0x2028...0x202F, 0x205F...0x206F, 0x3000:
            return false
        default:
            return true
        }
    }

    /// The message in the JSON string whose contents (the bytes between its quotes) are `range` of
    /// `bytes`, as ``sanitized(_:)`` keeps it: the bytes themselves when the string has no escape
    /// and the cleaning leaves it unchanged, otherwise the scalars read one at a time, escapes
    /// resolved, only as far as the bound.
    /// - Parameters:
    ///   - bytes: The body.
    ///   - range: The string's contents.
    ///   - escaped: Whether the string contains an escape.
    /// - Returns: The cleaned message, or `nil` when nothing worth showing is left.
    static func sanitized(jsonString bytes: UnsafeRawBufferPointer, contents range: Range<Int>, escaped: Bool)
        -> String?
    {
        if !escaped, range.lowerBound >= 0, range.upperBound <= bytes.count,
            let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        {
            let start = base + range.lowerBound
            if isUnchangedByCleaning(start, range.count) {
                return String(decoding: UnsafeBufferPointer(start: start, count: range.count), as: UTF8.self)
            }
        }
        var scalars = JSONStringScalars(bytes, contents: range)
        return sanitized(&scalars)
    }
}
