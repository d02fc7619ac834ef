// Writing a CatalogDefinition as a catalog file (swifterr-catalog/1), for tests that edit a
// catalog in Swift and hand the result to errcat.

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

    static func text(_ text: LocalizedText) -> String {
        "{\"en\": \(json(text.english))" + (text.simplifiedChinese.map { ", \"zh-Hans\": \(json($0))" } ?? "") + "}"
    }

    static func entry(_ entry: EntryDefinition) -> String {
        let flags = entry.flags.names.map { json($0) }.joined(separator: ", ")
        return
            "{\"code\": \(entry.code), \"name\": \(json(entry.name)), \"flags\": [\(flags)], \"message\": \(text(entry.message))}"
    }

    /// The catalog file of `definition`, one entry or module per line.
    static func file(_ definition: CatalogDefinition) -> String {
        var lines = [
            "{", "\"format\": \"swifterr-catalog/1\",", "\"name\": \(json(definition.name)),",
            "\"success\": \(entry(definition.success)),", "\"base\": [",
        ]
        lines.append(definition.base.map(entry).joined(separator: ",\n"))
        lines.append("],")
        lines.append("\"modules\": [")
        let modules = definition.modules.map { module in
            let ranges = module.ranges.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", ")
            return
                "{\"name\": \(json(module.name)), \"title\": \(text(module.title)), \"ranges\": [\(ranges)], \"codes\": [\n"
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
