// gettext .po files for translators: one language of a catalog out (`errcat gen po`), the
// translations back in (`errcat import po`). Each message and module title is one entry whose
// msgctxt names it stably ("code 11001", "module studyGroup title"), whose msgid is its text in
// the catalog's default language and whose msgstr is the translation ("" when there is none).

import SwiftErr
import SwiftErrCatalogFile

/// One translatable text of a catalog: what it is and where it lives.
struct TranslationUnit {
    enum Place: Hashable {
        /// The message of the entry with this code.
        case message(code: Int64)
        /// The title of the module with this name.
        case title(module: String)
    }

    var place: Place
    /// A note for the translator: the entry's or module's name and tier.
    var note: String
    var text: LocalizedText

    /// The stable msgctxt: "code 11001" or "module studyGroup title".
    var context: String {
        switch place {
        case .message(let code): return "code \(code)"
        case .title(let module): return "module \(module) title"
        }
    }

    /// Every translatable text of `definition`, in file order.
    static func all(in definition: CatalogDefinition) -> [TranslationUnit] {
        var units = [
            TranslationUnit(
                place: .message(code: definition.success.code), note: "success \(definition.success.name)",
                text: definition.success.message)
        ]
        for entry in definition.base {
            units.append(
                TranslationUnit(place: .message(code: entry.code), note: "base \(entry.name)", text: entry.message))
        }
        for module in definition.modules {
            units.append(
                TranslationUnit(place: .title(module: module.name), note: "module \(module.name)", text: module.title))
            for entry in module.codes {
                units.append(
                    TranslationUnit(
                        place: .message(code: entry.code), note: "\(module.name) \(entry.name)", text: entry.message))
            }
        }
        return units
    }
}

/// Writes and reads `.po` files.
enum POFile {
    /// The `.po` text of `definition` for `language`: a header naming the language, then one entry
    /// per message and module title.
    static func text(_ definition: CatalogDefinition, language: Language) -> String {
        let source = definition.allLanguages.first ?? .english
        var out = "# The \"\(comment(definition.name))\" catalog's texts in \(language.tag), from \(source.tag).\n"
        out += "# Written by errcat gen po; errcat import po writes the translations back into the catalog.\n"
        out += "msgid \"\"\n"
        out += "msgstr \"\"\n"
        out += "\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
        out += "\"Language: \(language.tag)\\n\"\n"
        out += "\"X-Source-Language: \(source.tag)\\n\"\n"
        for unit in TranslationUnit.all(in: definition) {
            out += "\n#. \(comment(unit.note))\n"
            out += "msgctxt \(quoted(unit.context))\n"
            out += "msgid \(quoted(unit.text[source] ?? ""))\n"
            out += "msgstr \(quoted(unit.text[language] ?? ""))\n"
        }
        return out
    }

    /// Text for a `#` comment: on one line.
    private static func comment(_ text: String) -> String {
        String(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }

    /// A C-style string literal as gettext reads it: `"` and `\` escaped, control characters as
    /// `\n`, `\t`, `\r` or three-digit octal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{0}"..."\u{1F}", "\u{7F}":
                let octal = String(scalar.value, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// One entry as read, with the line of its first keyword.
    struct Entry {
        var line: Int
        var context: String?
        var id: String
        var translation: String
    }

    /// A problem with a line (1-based).
    struct Problem: Error {
        var line: Int
        var message: String
    }

    /// The file read: its `Language:` header and its entries (the header entry left out).
    struct Parsed {
        var language: String?
        var entries: [Entry]
    }

    /// Reads a `.po` file. Comments, obsolete entries (`#~`) and blank lines are skipped; plural
    /// entries are refused (a catalog has none).
    /// - Throws: every ``Problem`` found (a malformed line, a string that is not a closed literal,
    ///   a keyword out of place), in line order.
    static func parse(_ text: String) throws(ProblemList) -> Parsed {
        var problems: [Problem] = []
        var entries: [Entry] = []
        var language: String? = nil
        // The entry being read: its keywords' values so far and which keyword continuation
        // strings extend.
        var context: String? = nil
        var id: String? = nil
        var translation: String? = nil
        var startLine = 0
        var current: String? = nil

        func finish() {
            if let id, let translation {
                if id.isEmpty && context == nil {
                    for field in translation.split(separator: "\n") where field.hasPrefix("Language:") {
                        language = Self.trimmed(field.dropFirst("Language:".count))
                    }
                } else {
                    entries.append(Entry(line: startLine, context: context, id: id, translation: translation))
                }
            } else if id != nil || context != nil {
                problems.append(Problem(line: startLine, message: "entry without msgid or msgstr"))
            }
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
            if trimmed.isEmpty || trimmed.hasPrefix("#") {
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
        guard problems.isEmpty else { throw ProblemList(problems: problems) }
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

    /// `definition` with the translations of `parsed` into `language`: each entry's msgstr is the
    /// text of the message or title its msgctxt names ("" removes it: untranslated); texts the file
    /// does not name are kept; `language` is added to the catalog's languages when new.
    /// - Throws: every problem, each with its line: an entry without a msgctxt errcat writes, one
    ///   naming a code or module the catalog does not have, a msgctxt twice, or a translation into
    ///   the default language (edit the catalog for that).
    static func apply(_ parsed: Parsed, language: Language, to definition: CatalogDefinition) throws(ProblemList)
        -> CatalogDefinition
    {
        var result = definition
        var problems: [Problem] = []
        if language == definition.allLanguages.first {
            problems.append(
                Problem(line: 1, message: "\(language.tag) is the catalog's default language: edit the catalog itself"))
        }
        var entryPlaces: [Int64: (module: Int?, index: Int)] = [result.success.code: (nil, -1)]
        for (index, entry) in result.base.enumerated() { entryPlaces[entry.code] = (nil, index) }
        var modulePlaces: [String: Int] = [:]
        for (moduleIndex, module) in result.modules.enumerated() {
            modulePlaces[module.name] = moduleIndex
            for (index, entry) in module.codes.enumerated() { entryPlaces[entry.code] = (moduleIndex, index) }
        }
        var seen: [String: Int] = [:]
        for entry in parsed.entries {
            guard let context = entry.context else {
                problems.append(
                    Problem(
                        line: entry.line,
                        message: "entry without a msgctxt (errcat writes \"code N\" or \"module NAME title\")"))
                continue
            }
            if let earlier = seen[context] {
                problems.append(
                    Problem(
                        line: entry.line, message: "msgctxt \(quoted(context)) appears twice (first at line \(earlier))"
                    ))
                continue
            }
            seen[context] = entry.line
            let value: String? = entry.translation.isEmpty ? nil : entry.translation
            if context.hasPrefix("code "), let code = Int64(context.dropFirst("code ".count)) {
                guard let place = entryPlaces[code] else {
                    problems.append(Problem(line: entry.line, message: "the catalog has no code \(code)"))
                    continue
                }
                switch place.module {
                case nil where place.index < 0: result.success.message[language] = value
                case nil: result.base[place.index].message[language] = value
                case let module?: result.modules[module].codes[place.index].message[language] = value
                }
            } else if context.hasPrefix("module "), context.hasSuffix(" title") {
                let name = String(context.dropFirst("module ".count).dropLast(" title".count))
                guard let module = modulePlaces[name] else {
                    problems.append(Problem(line: entry.line, message: "the catalog has no module \(quoted(name))"))
                    continue
                }
                result.modules[module].title[language] = value
            } else {
                problems.append(
                    Problem(
                        line: entry.line,
                        message:
                            "msgctxt \(quoted(context)) names no message or title (errcat writes \"code N\" or \"module NAME title\")"
                    ))
            }
        }
        guard problems.isEmpty else { throw ProblemList(problems: problems.sorted { $0.line < $1.line }) }
        if !result.languages.contains(language) {
            result.languages = result.allLanguages.filter { $0 != language } + [language]
        }
        return result
    }
}
