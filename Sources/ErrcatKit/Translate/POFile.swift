// gettext .po files for translators: one language of a catalog out (`errcat gen po`), the
// translations back in (`errcat import po`, POFileReader.swift and POFileImport.swift). Each
// message and module title is one entry whose msgctxt names it stably ("code 11001", "module
// studyGroup title"), whose msgid is its text in the catalog's default language and whose msgstr
// is the translation ("" when there is none).

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
    /// The `.po` text of `definition` for `language`: a header, then one entry per message and
    /// module title.
    ///
    /// The header has every field `msgfmt --check-header` asks for, with values that depend on the
    /// catalog and the language only, so the same catalog always gives the same file (`gen po
    /// --check` compares it): `Project-Id-Version` the catalog's name, `PO-Revision-Date` the
    /// epoch (errcat writes no date; a translator's editor sets it on saving), `Last-Translator`
    /// and `Language-Team` empty, `Language`, `MIME-Version`, `Content-Type` (UTF-8),
    /// `Content-Transfer-Encoding`, and `X-Source-Language` (the default language). A catalog has no
    /// plural messages, so there is no `Plural-Forms`.
    static func text(_ definition: CatalogDefinition, language: Language) -> String {
        let source = definition.allLanguages.first ?? .english
        var out = "# The \"\(oneLine(definition.name))\" catalog's texts in \(language.tag), from \(source.tag).\n"
        out += "# Written by errcat gen po; errcat import po writes the translations back into the catalog.\n"
        out += "msgid \"\"\n"
        out += "msgstr \"\"\n"
        for field in headerFields(definition, language: language, source: source) {
            out += quoted(field + "\n") + "\n"
        }
        for unit in TranslationUnit.all(in: definition) {
            out += "\n#. \(oneLine(unit.note))\n"
            out += "msgctxt \(quoted(unit.context))\n"
            out += "msgid \(quoted(unit.text[source] ?? ""))\n"
            out += "msgstr \(quoted(unit.text[language] ?? ""))\n"
        }
        return out
    }

    /// The header's fields, "Name: value" each.
    static func headerFields(_ definition: CatalogDefinition, language: Language, source: Language) -> [String] {
        [
            "Project-Id-Version: \(oneLine(definition.name))",
            "PO-Revision-Date: 1970-01-01 00:00+0000",
            "Last-Translator: ",
            "Language-Team: ",
            "Language: \(language.tag)",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=UTF-8",
            "Content-Transfer-Encoding: 8bit",
            "X-Source-Language: \(source.tag)",
        ]
    }

    /// `text` on one line, for a `#` comment or a header field (each ends at its line's end).
    private static func oneLine(_ text: String) -> String {
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
}
