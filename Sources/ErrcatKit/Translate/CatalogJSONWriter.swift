// A catalog definition as catalog-file JSON (format swifterr-catalog/3), laid out as
// catalog/default.json is: two-space indentation, one member or element a line, text as UTF-8
// with only quotes, backslashes and control characters escaped. `errcat import po` writes the
// catalog it updates this way.

import SwiftErr
import SwiftErrCatalogFile

/// Writes a ``CatalogDefinition`` as a `swifterr-catalog/3` file.
enum CatalogJSONWriter {
    /// A JSON value, members in the order written.
    indirect enum Value {
        case object([(String, Value)])
        case array([Value])
        case string(String)
        case integer(Int64)
        case bool(Bool)
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
        // An entry's namespace is written unless it is the one a reader gives it without: its
        // module's first, or the catalog's own.
        func entry(_ entry: EntryDefinition, defaultNamespace: String? = nil) -> Value {
            var members: [(String, Value)] = [("code", .integer(entry.code)), ("name", .string(entry.name))]
            if let string = entry.string {
                members.append(("string", .string(string)))
                let namespace = entry.namespace.flatMap { $0.isEmpty ? nil : $0 }
                if namespace != defaultNamespace {
                    members.append(("namespace", .string(namespace ?? "")))
                }
            }
            if let names = flags.names(for: entry) {
                members.append(("flags", .array(names.map { .string($0) })))
            }
            members.append(("message", localized(entry.message)))
            return .object(members)
        }
        let modules: [Value] = definition.modules.map { module in
            var members: [(String, Value)] = [
                ("name", .string(module.name)),
                ("title", localized(module.title)),
                ("ranges", .array(module.ranges.map { .array([.integer($0.lowerBound), .integer($0.upperBound)]) })),
            ]
            if !module.namespaces.isEmpty {
                members.append(("namespaces", .array(module.namespaces.map { .string($0) })))
            }
            members.append(("codes", .array(module.codes.map { entry($0, defaultNamespace: module.namespaces.first) })))
            return .object(members)
        }
        var root: [(String, Value)] = [
            ("format", .string(CatalogDefinition.fileFormat)),
            ("name", .string(definition.name)),
            ("languages", .array(languages.map { .string($0.tag) })),
        ]
        if !definition.shapes.isEmpty {
            root.append(("shapes", .array(definition.shapes.map(shape))))
        }
        root += [
            ("success", entry(definition.success)),
            ("base", .array(definition.base.map { entry($0) })),
            ("modules", .array(modules)),
        ]
        return pretty(.object(root))
    }

    /// A shape as the file writes it: only what differs from a reader's defaults.
    static func shape(_ shape: ShapeDefinition) -> Value {
        func location(_ location: ShapeDefinition.Location) -> Value {
            switch location {
            case .header(let name):
                return .object([("header", .string(name))])
            case .body(let steps):
                return .object([
                    (
                        "path",
                        .array(
                            steps.map { step in
                                switch step {
                                case .key(let key): return .string(key)
                                case .index(let index): return .integer(Int64(index))
                                case .firstWhere(let key, let value): return .object([(key, .string(value))])
                                }
                            })
                    )
                ])
            }
        }
        var members: [(String, Value)] = [("name", .string(shape.name))]
        if shape.kind != .json { members.append(("kind", .string(shape.kind.rawValue))) }
        if let contentType = shape.contentType { members.append(("contentType", .string(contentType))) }
        if let code = shape.code { members.append(("code", location(code))) }
        if !shape.fallbackCodes.isEmpty {
            members.append(("fallbackCodes", .array(shape.fallbackCodes.map(location))))
        }
        if shape.kind == .json, shape.codeType != .integer {
            members.append(("codeType", .string(shape.codeType.rawValue)))
        }
        switch shape.defaultCode {
        case .none: break
        case .integer(let value)?: members.append(("defaultCode", .integer(value)))
        case .string(let text)?: members.append(("defaultCode", .string(text)))
        }
        switch shape.namespace {
        case .none: break
        case .codePrefix: members.append(("namespace", .string("codePrefix")))
        case .location(let place): members.append(("namespace", location(place)))
        }
        if let secondary = shape.secondary { members.append(("secondary", location(secondary))) }
        if let message = shape.message { members.append(("message", location(message))) }
        if let payload = shape.payload { members.append(("payload", location(payload))) }
        switch shape.failure {
        case .status: if shape.kind == .json { members.append(("failure", .string("status"))) }
        case .code: members.append(("failure", .string("code")))
        case .flag(let place, let failsWhen):
            members.append(("failure", .object([("flag", location(place)), ("failsWhen", .bool(failsWhen))])))
        case .present(let place):
            members.append(("failure", .object([("present", location(place))])))
        }
        return .object(members)
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
        case .bool(let value):
            out += value ? "true" : "false"
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
