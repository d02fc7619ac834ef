// Spelling values as C11 source: string literals and int64_t constants.

enum CLiteral {
    /// `text` as the inside of a C string literal (no quotes): `"` and `\` escaped, control
    /// bytes as three-digit octal escapes, a `?` after a `?` escaped (so no `??x` trigraph),
    /// other bytes (UTF-8 included) as they are.
    static func stringContents(_ text: String) -> String {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case UInt8(ascii: "?") where index > 0 && bytes[index - 1] == UInt8(ascii: "?"):
                out += Array("\\?".utf8)
            case 0x00..<0x20, 0x7F:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "0") + (byte >> 6))
                out.append(UInt8(ascii: "0") + ((byte >> 3) & 7))
                out.append(UInt8(ascii: "0") + (byte & 7))
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An int64_t constant: plain digits when the value fits in 32 bits, `INT64_C(...)`
    /// otherwise, `INT64_MIN` for the one value that has no literal.
    static func int64(_ value: Int64) -> String {
        if value == Int64.min { return "INT64_MIN" }
        if value >= Int64(Int32.min) + 1 && value <= Int64(Int32.max) { return String(value) }
        return "INT64_C(\(value))"
    }

    /// `text` made safe inside a `/* ... */` comment.
    static func comment(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "\n" || character == "\r" {
                result.append(" ")
            } else {
                result.append(character)
            }
            if result.hasSuffix("*/") {
                result.removeLast()
                result.append(" /")
            }
        }
        return result
    }

    /// A C identifier made from `name`: ASCII letters and digits kept, anything else `_`,
    /// a leading digit prefixed with `_`.
    static func identifier(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII, let byte = UInt8(exactly: scalar.value),
                (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= 48 && byte <= 57)
            {
                result.unicodeScalars.append(scalar)
            } else {
                result.append("_")
            }
        }
        if let first = result.utf8.first, first >= 48 && first <= 57 { result = "_" + result }
        return result.isEmpty ? "_" : result
    }
}
