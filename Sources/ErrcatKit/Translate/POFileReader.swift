// Reading a gettext .po file into its entries: msgctxt, msgid, msgstr (with continuation strings)
// and the `#,` flags of each, with the lines where they are, for `errcat import po`.

extension POFile {
    /// One entry as read, with the lines of its parts.
    struct Entry {
        /// The line of its first keyword (its msgctxt, or its msgid when it has none).
        var line: Int
        /// The line of its msgid.
        var idLine: Int
        var context: String?
        var id: String
        var translation: String
        /// The flags of its `#,` lines (`fuzzy`, `c-format`, …), in the order written.
        var flags: [String] = []
        /// The line of its first `#,` line, when it has one.
        var flagsLine: Int? = nil

        /// Whether a translator or `msgmerge` marked the translation as unchecked (`#, fuzzy`).
        var isFuzzy: Bool { flags.contains("fuzzy") }
    }

    /// A problem with a line (1-based): an error (nothing is written) or a warning (the entry is
    /// left out, the others are imported).
    struct Problem: Error {
        enum Severity: String {
            case error, warning
        }

        var line: Int
        var message: String
        var severity: Severity = .error
    }

    /// The file read: its `Language:` header and its entries (the header entry left out).
    struct Parsed {
        var language: String?
        var entries: [Entry]
    }

    /// Reads a `.po` file. Comments other than `#,` flags, obsolete entries (`#~`, which gettext's
    /// tools keep only as a memory of old translations) and blank lines are skipped; plural entries
    /// are refused (a catalog has none). A `#,` line belongs to the entry that follows it.
    /// - Throws: every ``Problem`` found (a malformed line, a string that is not a closed literal,
    ///   a keyword out of place, a `#,` line inside an entry or with no entry after it), in line
    ///   order.
    static func parse(_ text: String) throws(ProblemList) -> Parsed {
        var problems: [Problem] = []
        var entries: [Entry] = []
        var language: String? = nil
        // The entry being read: its flags and keywords' values so far and which keyword
        // continuation strings extend.
        var flags: [String] = []
        var flagsLine: Int? = nil
        var context: String? = nil
        var id: String? = nil
        var translation: String? = nil
        var startLine = 0
        var idLine = 0
        var current: String? = nil

        func finish() {
            if let id, let translation {
                if id.isEmpty && context == nil {
                    for field in translation.split(separator: "\n") where field.hasPrefix("Language:") {
                        language = Self.trimmed(field.dropFirst("Language:".count))
                    }
                } else {
                    entries.append(
                        Entry(
                            line: startLine, idLine: idLine, context: context, id: id, translation: translation,
                            flags: flags, flagsLine: flagsLine))
                }
            } else if id != nil || context != nil {
                problems.append(Problem(line: startLine, message: "entry without msgid or msgstr"))
            } else if let flagsLine {
                problems.append(Problem(line: flagsLine, message: "a #, flags line with no entry after it"))
            }
            flags = []
            flagsLine = nil
            context = nil
            id = nil
            translation = nil
            current = nil
        }

        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = Self.trimmed(line)
            if trimmed.isEmpty {
                continue
            }
            if trimmed.hasPrefix("#") {
                // Comments come before the keywords of their entry: one after a whole entry
                // starts the next.
                if translation != nil { finish() }
                if trimmed.hasPrefix("#,") {
                    if context != nil || id != nil {
                        problems.append(
                            Problem(
                                line: lineNumber,
                                message: "a #, flags line inside an entry (it goes before the entry's msgctxt or msgid)"
                            ))
                    } else {
                        if flagsLine == nil { flagsLine = lineNumber }
                        flags += trimmed.dropFirst(2).split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
                    }
                } else if trimmed.hasPrefix("#~") && context == nil && id == nil {
                    // An obsolete entry: the flags before it are its own.
                    flags = []
                    flagsLine = nil
                }
                continue
            }
            if trimmed.hasPrefix("\"") {
                guard let keyword = current else {
                    problems.append(Problem(line: lineNumber, message: "a string outside msgctxt, msgid or msgstr"))
                    continue
                }
                do {
                    let value = try unquote(trimmed)
                    switch keyword {
                    case "msgctxt": context = (context ?? "") + value
                    case "msgid": id = (id ?? "") + value
                    default: translation = (translation ?? "") + value
                    }
                } catch {
                    problems.append(Problem(line: lineNumber, message: error.message))
                }
                continue
            }
            let keyword = String(trimmed.prefix { $0 != " " && $0 != "\t" && $0 != "\"" })
            let rest = Self.trimmed(trimmed.dropFirst(keyword.count))
            switch keyword {
            case "msgctxt", "msgid":
                if translation != nil || (keyword == "msgctxt" && (context != nil || id != nil))
                    || (keyword == "msgid" && id != nil)
                {
                    finish()
                }
                if context == nil && id == nil { startLine = lineNumber }
                if keyword == "msgid" { idLine = lineNumber }
            case "msgstr":
                guard id != nil, translation == nil else {
                    problems.append(Problem(line: lineNumber, message: "msgstr without its msgid"))
                    current = nil
                    continue
                }
            case "msgid_plural", "msgstr[0]", "msgstr[1]":
                problems.append(
                    Problem(line: lineNumber, message: "plural entries are not supported (a catalog has none)"))
                current = nil
                continue
            default:
                problems.append(Problem(line: lineNumber, message: "unknown keyword \(quoted(keyword))"))
                current = nil
                continue
            }
            current = keyword
            do {
                let value = try unquote(rest)
                switch keyword {
                case "msgctxt": context = value
                case "msgid": id = value
                default: translation = value
                }
            } catch {
                problems.append(Problem(line: lineNumber, message: error.message))
            }
        }
        finish()
        guard problems.isEmpty else { throw ProblemList(problems: problems.sorted { $0.line < $1.line }) }
        return Parsed(language: language, entries: entries)
    }

    /// `text` without spaces and tabs at either end.
    private static func trimmed(_ text: Substring) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) })
        else {
            return ""
        }
        return String(text[first...last])
    }

    private static func trimmed(_ text: String) -> String { trimmed(Substring(text)) }

    /// Every problem of a file, in line order.
    struct ProblemList: Error {
        var problems: [Problem]
    }

    private struct LiteralError: Error {
        var message: String
    }

    /// The value of one string literal that makes up the whole of `text`.
    private static func unquote(_ text: String) throws(LiteralError) -> String {
        var scalars = Array(text.unicodeScalars)
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else {
            throw LiteralError(message: "expected one string in double quotes")
        }
        scalars = Array(scalars.dropFirst().dropLast())
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\"" { throw LiteralError(message: "an unescaped \" inside a string") }
            guard scalar == "\\" else {
                out.append(scalar)
                continue
            }
            guard index < scalars.count else { throw LiteralError(message: "a string ends with a lone backslash") }
            let escape = scalars[index]
            index += 1
            switch escape {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "a": out.append("\u{7}")
            case "b": out.append("\u{8}")
            case "f": out.append("\u{C}")
            case "v": out.append("\u{B}")
            case "\"", "\\", "'", "?": out.append(escape)
            case "0"..."7":
                var value = escape.value - 0x30
                var digits = 1
                while digits < 3, index < scalars.count, ("0"..."7").contains(scalars[index]) {
                    value = value * 8 + scalars[index].value - 0x30
                    index += 1
                    digits += 1
                }
                guard value <= 0x7F, let decoded = Unicode.Scalar(value) else {
                    throw LiteralError(message: "an octal escape above \\177 (write the character as UTF-8)")
                }
                out.append(decoded)
            default:
                throw LiteralError(message: "unknown escape \\\(Character(escape))")
            }
        }
        return String(out)
    }
}
