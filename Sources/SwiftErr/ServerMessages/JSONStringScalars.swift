/// The Unicode scalars of a JSON string's contents (the bytes between its quotes), decoded one at
/// a time: escapes resolved, UTF-8 decoded, so that a reader that stops early (the server message's
/// ``ServerMessage/sanitized(_:)``) never decodes or copies the rest.
///
/// The bytes are normally a string the envelope scanner has validated; anything it would have
/// rejected (invalid UTF-8, a broken escape) still gives `U+FFFD` and moves on, never a crash.
struct JSONStringScalars: IteratorProtocol {
    private let base: UnsafePointer<UInt8>?
    private let end: Int
    private var position: Int

    /// The scalars of the string contents `range` of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer, contents range: Range<Int>) {
        // An empty buffer may have no base address; nothing is read from it then.
        base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        end = min(range.upperBound, bytes.count)
        position = max(0, range.lowerBound)
    }

    mutating func next() -> Unicode.Scalar? {
        guard let base, position < end else { return nil }
        let lead = base[position]
        if lead == UInt8(ascii: "\\") {
            let escapeStart = position
            guard let value = try? JSONScanner.scanEscape(base, end, &position), let scalar = Unicode.Scalar(value)
            else {
                position = max(position, escapeStart + 1)
                return Self.replacement
            }
            return scalar
        }
        if lead < 0x80 {
            position += 1
            return Unicode.Scalar(lead)
        }
        return decodeMultibyte(lead, in: base)
    }

    /// `U+FFFD`, for bytes that are not a scalar.
    private static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// One UTF-8 sequence of two to four bytes starting with `lead`; `U+FFFD` for one byte when
    /// the sequence is not valid (bad lead, missing or bad continuation, overlong, surrogate, or
    /// beyond `U+10FFFF`).
    private mutating func decodeMultibyte(_ lead: UInt8, in base: UnsafePointer<UInt8>) -> Unicode.Scalar {
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF:
            length = 2
            value = UInt32(lead & 0x1F)
        case 0xE0...0xEF:
            length = 3
            value = UInt32(lead & 0x0F)
        case 0xF0...0xF4:
            length = 4
            value = UInt32(lead & 0x07)
        default:
            position += 1
            return Self.replacement
        }
        guard position + length <= end else {
            position += 1
            return Self.replacement
        }
        for offset in 1..<length {
            let byte = base[position + offset]
            guard byte & 0xC0 == 0x80 else {
                position += 1
                return Self.replacement
            }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= smallest, let scalar = Unicode.Scalar(value) else {
            position += 1
            return Self.replacement
        }
        position += length
        return scalar
    }
}
