import SwiftErr

// Text from a catalog file (or a command line) as it may be shown on a terminal or written into
// generated source: what is visible stays, everything else is escaped.

/// Which characters may be shown as they are, and quoting of untrusted text for diagnostics.
///
/// A catalog file is untrusted input. Its names and messages end up in diagnostics printed on a
/// terminal and in generated C and Swift, where a raw control character, line or paragraph
/// separator, bidirectional override or other invisible character could redraw the terminal,
/// end a comment, or make source text read differently from how it compiles. Such characters
/// are written as escapes instead.
package enum DisplayText {
    /// Whether `scalar` is shown as it is: a visible character or the ASCII space.
    ///
    /// Not visible: controls (C0, DEL, C1 including NEL), format characters (bidirectional
    /// controls, zero-width characters, the byte order mark, tags), line and paragraph
    /// separators, spaces other than U+0020, private-use and unassigned code points, and a few
    /// letters and marks that draw nothing (Hangul fillers, the combining grapheme joiner,
    /// the Braille blank).
    package static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value >= 0x21 && value <= 0x7E || value == 0x20 { return true }
        if value < 0xA0 { return false }
        switch value {
        case 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0: return false
        default: break
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse, .surrogate,
            .unassigned:
            return false
        default:
            return true
        }
    }

    /// `scalar` as a Swift-style escape, `\u{202E}`.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    /// `text` in double quotes for a diagnostic: `"` and `\` escaped, LF, CR and tab as `\n`,
    /// `\r`, `\t`, any other character that is not visible as `\u{…}`; text longer than `limit`
    /// characters is cut, with `…` after the closing quote.
    /// - Parameters:
    ///   - text: Untrusted text.
    ///   - limit: The most Unicode scalars shown.
    /// - Returns: The quoted text, safe to print on a terminal.
    package static func quoted(_ text: String, limit: Int = 64) -> String {
        let (inside, cut) = escaped(text, quote: "\"", limit: limit)
        return "\"" + inside + (cut ? "\"…" : "\"")
    }

    /// `text` in single quotes, escaped like ``quoted(_:limit:)`` (`'` escaped instead of `"`):
    /// for command-line arguments, which errcat's messages quote that way.
    /// - Parameters:
    ///   - text: A command-line argument.
    ///   - limit: The most Unicode scalars shown.
    /// - Returns: The quoted text, safe to print on a terminal.
    package static func singleQuoted(_ text: String, limit: Int = 64) -> String {
        let (inside, cut) = escaped(text, quote: "'", limit: limit)
        return "'" + inside + (cut ? "'…" : "'")
    }

    /// `line` with every character that is not visible written as `\u{…}` (tabs and newlines
    /// included) and everything else as it is: for a one-line message that quotes untrusted text.
    /// - Parameter line: A message.
    /// - Returns: The message, safe to print on a terminal.
    package static func sanitized(_ line: String) -> String {
        guard !line.unicodeScalars.allSatisfy(isVisible) else { return line }
        var result = ""
        for scalar in line.unicodeScalars {
            if isVisible(scalar) { result.unicodeScalars.append(scalar) } else { result += escape(scalar) }
        }
        return result
    }

    private static func escaped(_ text: String, quote: Unicode.Scalar, limit: Int) -> (String, cut: Bool) {
        var result = ""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown == limit { return (result, true) }
            shown += 1
            switch scalar {
            case quote: result += "\\" + String(quote)
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if isVisible(scalar) { result.unicodeScalars.append(scalar) } else { result += escape(scalar) }
            }
        }
        return (result, false)
    }

    /// `text` as it is when every character is visible and it has no space, quote or backslash
    /// (a path, an argument or a number as typed), otherwise ``quoted(_:limit:)``; text longer
    /// than `limit` characters is cut, with `…` after it.
    /// - Parameters:
    ///   - text: A path, command-line argument or number.
    ///   - limit: The most Unicode scalars shown.
    /// - Returns: Text safe to print on a terminal.
    package static func bare(_ text: String, limit: Int = Int.max) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { isVisible($0) && $0 != " " && $0 != "\"" && $0 != "\\" }
        guard plain else { return quoted(text, limit: limit) }
        var count = 0
        for index in text.unicodeScalars.indices {
            if count == limit { return String(text.unicodeScalars[..<index]) + "…" }
            count += 1
        }
        return text
    }
}
