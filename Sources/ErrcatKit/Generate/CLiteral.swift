// Spelling values as C11 source: string literals, comments and int64_t constants.

import SwiftErr
import SwiftErrCatalogFile

enum CLiteral {
    /// `text` as the inside of a C string literal (no quotes).
    ///
    /// `"` and `\` are escaped, a `?` after a `?` is written `\?` (so no `??x` trigraph can form),
    /// and every byte of a character that is not visible (``DisplayText/isVisible(_:)``: controls,
    /// line and paragraph separators, bidirectional controls, other invisible characters) is a
    /// three-digit octal escape, which never takes a following digit. Visible characters,
    /// UTF-8 included, stay as they are, so the literal reads as the catalog's text.
    static func stringContents(_ text: String) -> String {
        var out: [UInt8] = []
        var previous: UInt8 = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x22 {
                out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            } else if value == 0x5C {
                out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            } else if value == 0x3F && previous == UInt8(ascii: "?") {
                out += [UInt8(ascii: "\\"), UInt8(ascii: "?")]
            } else if DisplayText.isVisible(scalar) {
                out += Array(String(scalar).utf8)
            } else {
                for byte in String(scalar).utf8 {
                    out.append(UInt8(ascii: "\\"))
                    out.append(UInt8(ascii: "0") + (byte >> 6))
                    out.append(UInt8(ascii: "0") + ((byte >> 3) & 7))
                    out.append(UInt8(ascii: "0") + (byte & 7))
                }
            }
            previous = value < 0x80 ? UInt8(value) : 0
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The most characters a string literal may hold (after concatenation, before its NUL) for
    /// every C11 compiler to accept it (C11 5.2.4.1; `-Woverlength-strings` under `-Wpedantic`).
    static let maximumStringLength = 4095

    /// `byte` as a C character constant: `'a'` for printable ASCII, `'\''` and `'\\'` escaped,
    /// every other byte (NUL, controls, UTF-8) a three-digit octal escape such as `'\345'`,
    /// which as a `char` is the byte itself whether `char` is signed or not.
    static func character(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "'"): return "'\\''"
        case UInt8(ascii: "\\"): return "'\\\\'"
        case 0x20...0x7E: return "'" + String(UnicodeScalar(byte)) + "'"
        default:
            return "'\\" + String(byte >> 6) + String((byte >> 3) & 7) + String(byte & 7) + "'"
        }
    }

    /// An int64_t constant: plain digits when the value fits in 32 bits, `INT64_C(...)`
    /// otherwise, `INT64_MIN` for the one value that has no literal.
    static func int64(_ value: Int64) -> String {
        if value == Int64.min { return "INT64_MIN" }
        if value >= Int64(Int32.min) + 1 && value <= Int64(Int32.max) { return String(value) }
        return "INT64_C(\(value))"
    }

    /// `text` as the inside of a `/* ... */` comment: printable ASCII only.
    ///
    /// Nothing in the result can end the comment, open a nested one (`-Wcomment`), splice
    /// lines (a backslash or a `??/` trigraph before a newline) or start a new line: `*/`, `/*`
    /// and `??` get a space between their characters, a backslash is written `<U+5C>`, and
    /// every character outside printable ASCII (controls, CR, LF, NEL, U+2028, U+2029,
    /// combining marks, bidirectional controls, any non-ASCII letter) is written `<U+XXXX>`.
    static func comment(_ text: String) -> String {
        var result = ""
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            let value = scalar.value
            guard value >= 0x20 && value <= 0x7E && value != 0x5C else {
                result += "<U+\(String(value, radix: 16, uppercase: true))>"
                previous = ">"
                continue
            }
            if (previous == "*" && scalar == "/") || (previous == "/" && scalar == "*")
                || (previous == "?" && scalar == "?")
            {
                result += " "
            }
            result.unicodeScalars.append(scalar)
            previous = scalar
        }
        // A trailing `*` or `/` would join the caller's `*/`, `/*` or `/`.
        if previous == "*" || previous == "/" { result += " " }
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
