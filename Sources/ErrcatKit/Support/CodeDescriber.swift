// What `explain` says about one code, as text or as a JSON object; also used by
// `classify --each` and the summary's top codes. Entry parts are rendered once per table.

import SwiftErr

/// Renders classifications of one table in one language.
struct CodeDescriber {
    let table: Catalog
    let language: Language
    /// Per entry: the JSON members after `"code":N,` (through the closing brace).
    private let entryJSONTails: [[UInt8]]
    /// Per entry: the text after "CODE: " (first line, message line).
    private let entryText: [String]

    init(table: Catalog, language: Language) {
        self.table = table
        self.language = language
        var tails: [[UInt8]] = []
        var texts: [String] = []
        for index in 0..<UInt32(table.entryCount) {
            let code = table.code(at: index) ?? 0
            let classification = table.classify(code)
            let parts = CodeDescriber.parts(
                table: table, language: language, code: code, classification: classification)
            var buffer = OutputBuffer(descriptor: -1, threshold: Int.max)
            CodeDescriber.writeJSONTail(parts, into: &buffer)
            tails.append(buffer.bytes)
            texts.append(CodeDescriber.text(parts))
        }
        entryJSONTails = tails
        entryText = texts
    }

    /// The facts about one code, as strings.
    struct Parts {
        var code: Int64
        var tier: String
        var module: String?
        var name: String?
        var message: String
        var flags: [String]
        var exact: Bool
    }

    static func parts(table: Catalog, language: Language, code: Int64, classification: Classification) -> Parts {
        let moduleID = classification.moduleID
        return Parts(
            code: code,
            tier: classification.tier.name,
            module: moduleID == 0 ? nil : table.moduleName(moduleID),
            name: classification.entryIndex.flatMap { table.entryName(at: $0) },
            message: table.describe(code, in: language),
            flags: classification.flags.names,
            exact: classification.isExact)
    }

    /// The parts of `code`.
    func parts(_ code: Int64, _ classification: Classification) -> Parts {
        CodeDescriber.parts(table: table, language: language, code: code, classification: classification)
    }

    private static func writeJSONTail(_ parts: Parts, into out: inout OutputBuffer) {
        out.write(",\"tier\":")
        out.write(jsonString: parts.tier)
        out.write(",\"module\":")
        out.write(jsonOptionalString: parts.module)
        out.write(",\"name\":")
        out.write(jsonOptionalString: parts.name)
        out.write(",\"message\":")
        out.write(jsonString: parts.message)
        out.write(",\"flags\":")
        out.write(jsonStrings: parts.flags)
        out.write(",\"exact\":")
        out.write(parts.exact ? "true" : "false")
        out.write(byte: UInt8(ascii: "}"))
    }

    /// Writes the explain object's members from `"code"` on (the caller wrote `{` and any
    /// members before it): `"code":N,"tier":…,"module":…,"name":…,"message":…,"flags":[…],"exact":…}`.
    func writeJSONMembers(_ code: Int64, _ classification: Classification, into out: inout OutputBuffer) {
        out.write("\"code\":")
        out.write(integer: code)
        if let index = classification.entryIndex, Int(index) < entryJSONTails.count {
            entryJSONTails[Int(index)].withUnsafeBytes { out.write(raw: $0) }
        } else {
            CodeDescriber.writeJSONTail(parts(code, classification), into: &out)
        }
    }

    private static func text(_ parts: Parts) -> String {
        var head = parts.tier
        if let module = parts.module {
            head += " " + module + (parts.name.map { "." + $0 } ?? ", unrecognised")
        } else if let name = parts.name, name != parts.tier {
            head += " " + name
        }
        if !parts.flags.isEmpty { head += " [" + parts.flags.joined(separator: ", ") + "]" }
        return head + "\n  " + parts.message
    }

    /// Writes the human-readable form: "CODE: tier module.name [flags]" (or "tier name" outside modules) and the message, indented.
    func writeText(_ code: Int64, _ classification: Classification, into out: inout OutputBuffer) {
        out.write(integer: code)
        out.write(": ")
        if let index = classification.entryIndex, Int(index) < entryText.count {
            out.write(entryText[Int(index)])
        } else {
            out.write(CodeDescriber.text(parts(code, classification)))
        }
        out.endLine()
    }
}
