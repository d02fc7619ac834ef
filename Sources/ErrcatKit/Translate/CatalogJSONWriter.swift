// A catalog definition as catalog-file JSON (format swifterr-catalog/2), laid out as
// catalog/default.json is: two-space indentation, one member or element a line, text as UTF-8
// with only quotes, backslashes and control characters escaped. `errcat import po` writes the
// catalog it updates this way.

import SwiftErr
import SwiftErrCatalogFile

/// Writes a ``CatalogDefinition`` as a `swifterr-catalog/2` file.
enum CatalogJSONWriter {
    /// A JSON value, members in the order written.
    indirect enum Value {
        case object([(String, Value)])
        case array([Value])
        case string(String)
        case integer(Int64)
    }

    /// The file's text, ending with a newline. Messages and titles list their texts in the order
    /// of the catalog's languages (``CatalogDefinition/allLanguages``). An entry's `"flags"` are
    /// those `flags` has for its code, as its file wrote them, else in canonical order; an entry
    /// without flags has no `"flags"` unless its file had it.
    static func text(_ definition: CatalogDefinition, flags: WrittenFlags = WrittenFlags()) -> String {
        let languages = definition.allLanguages
        func localized(_ text: LocalizedText) -> Value {
            .object(languages.compactMap { language in text[language].map { (language.tag, Value.string($0)) } })
        }
        func entry(_ entry: EntryDefinition) -> Value {
            var members: [(String, Value)] = [("code", .integer(entry.code)), ("name", .string(entry.name))]
            if let names = flags.names(for: entry) {
                members.append(("flags", .array(names.map { .string($0) })))
            }
            members.append(("message", localized(entry.message)))
            return .object(members)
        }
        let modules: [Value] = definition.modules.map { module in
            .object([
                ("name", .string(module.name)),
                ("title", localized(module.title)),
                ("ranges", .array(module.ranges.map { .array([.integer($0.lowerBound), .integer($0.upperBound)]) })),
                ("codes", .array(module.codes.map(entry))),
            ])
        }
        let root = Value.object([
            ("format", .string(CatalogDefinition.fileFormat)),
            ("name", .string(definition.name)),
            ("languages", .array(languages.map { .string($0.tag) })),
            ("success", entry(definition.success)),
            ("base", .array(definition.base.map(entry))),
            ("modules", .array(modules)),
        ])
        return pretty(root)
    }

    /// `value` laid out as the catalog file is, ending with a newline.
    static func pretty(_ value: Value) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        out += "\n"
        return out
    }

    private static func write(_ value: Value, indent: Int, into out: inout String) {
        let inner = String(repeating: " ", count: 2 * (indent + 1))
        switch value {
        case .string(let text):
            writeString(text, into: &out)
        case .integer(let number):
            out += String(number)
        case .array(let elements):
            guard !elements.isEmpty else {
                out += "[]"
                return
            }
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += inner
                write(element, indent: indent + 1, into: &out)
                out += index == elements.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: 2 * indent) + "]"
        case .object(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            out += "{\n"
            for (index, (key, member)) in members.enumerated() {
                out += inner
                writeString(key, into: &out)
                out += ": "
                write(member, indent: indent + 1, into: &out)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: 2 * indent) + "}"
        }
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\r`, `\t`, `\b`, `\f` or
    /// `\u00XX`; everything else as it is.
    static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
