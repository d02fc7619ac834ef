// Writing a CatalogDefinition as a catalog file (swifterr-catalog/2, with the definition's
// languages), for tests that edit a catalog in Swift and hand the result to errcat.

import Foundation
import SwiftErr

enum CatalogFileWriter {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 {
                    let digits = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A text's member: its translation in each of `languages` it has, in that order.
    static func text(_ text: LocalizedText, in languages: [Language]) -> String {
        "{"
            + languages.compactMap { language in text[language].map { "\(json(language.tag)): \(json($0))" } }
            .joined(separator: ", ") + "}"
    }

    static func entry(_ entry: EntryDefinition, in languages: [Language]) -> String {
        let flags = entry.flags.names.map { json($0) }.joined(separator: ", ")
        return
            "{\"code\": \(entry.code), \"name\": \(json(entry.name)), \"flags\": [\(flags)], \"message\": \(text(entry.message, in: languages))}"
    }

    /// The catalog file of `definition`, one entry or module per line.
    static func file(_ definition: CatalogDefinition) -> String {
        let languages = definition.allLanguages
        let entry = { (item: EntryDefinition) in Self.entry(item, in: languages) }
        var lines = [
            "{", "\"format\": \"swifterr-catalog/2\",", "\"name\": \(json(definition.name)),",
            "\"languages\": [\(languages.map { json($0.tag) }.joined(separator: ", "))],",
            "\"success\": \(entry(definition.success)),", "\"base\": [",
        ]
        lines.append(definition.base.map(entry).joined(separator: ",\n"))
        lines.append("],")
        lines.append("\"modules\": [")
        let modules = definition.modules.map { module in
            let ranges = module.ranges.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", ")
            return
                "{\"name\": \(json(module.name)), \"title\": \(text(module.title, in: languages)), \"ranges\": [\(ranges)], \"codes\": [\n"
                + module.codes.map(entry).joined(separator: ",\n") + "\n]}"
        }
        lines.append(modules.joined(separator: ",\n"))
        lines.append("]")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `definition` to a new temporary file.
    static func temporaryFile(_ definition: CatalogDefinition, name: String) throws -> URL {
        try ErrcatRunner.temporaryFile(Data(file(definition).utf8), name: name)
    }
}
