// Spelling values as Swift source: string literals, identifiers, flag sets.

import SwiftErr
import SwiftErrCatalogFile

enum SwiftLiteral {
    /// `text` as a Swift string literal with quotes: `"` and `\` escaped, LF, CR and tab as `\n`,
    /// `\r`, `\t`, and every other character that is not visible (``DisplayText/isVisible(_:)``:
    /// controls, NEL, U+2028, U+2029, bidirectional controls, other invisible characters) as
    /// `\u{…}`. Visible characters, non-ASCII included, stay as they are.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if DisplayText.isVisible(scalar) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += DisplayText.escape(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Words that must be written in backticks to be a case name.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "Type",
    ]

    /// `name` as a case identifier, in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The type name of a module's enum: `studyGroup` gives `StudyGroupCode`.
    static func typeName(module name: String) -> String {
        GeneratedNames.typeName(module: name)
    }

    /// The name part of a catalog's base-tier file: `default` gives `Default`.
    static func typeName(catalog name: String) -> String {
        GeneratedNames.typeName(catalog: name)
    }

    /// A closed range literal; negative bounds are parenthesised (`(-200)...(-100)`), because
    /// Swift would read `...-` as one operator.
    static func range(_ range: ClosedRange<Int64>) -> String {
        func bound(_ value: Int64) -> String { value < 0 ? "(\(value))" : "\(value)" }
        return "\(bound(range.lowerBound))...\(bound(range.upperBound))"
    }

    /// A `CodeFlags` array literal, lowest bit first: `[.reauthenticate, .showUser]`.
    static func flags(_ flags: CodeFlags) -> String {
        let named: [(CodeFlags, String)] = [
            (.retryable, ".retryable"), (.reauthenticate, ".reauthenticate"),
            (.showUser, ".showUser"), (.fatal, ".fatal"),
        ]
        var parts: [String] = []
        for (flag, spelling) in named where flags.contains(flag) { parts.append(spelling) }
        var bit: UInt8 = 0x10
        while bit != 0 {
            if flags.rawValue & bit != 0 {
                parts.append("CodeFlags(rawValue: 0x\(String(bit, radix: 16, uppercase: true)))")
            }
            bit = bit &<< 1
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }

    /// A `LocalizedText(...)` expression: `LocalizedText(english:simplifiedChinese:)` for a text in
    /// those two languages or fewer, else `LocalizedText([tag: text, …])` in ``languageOrder(_:)``.
    static func localizedText(_ text: LocalizedText) -> String {
        let languages = text.languages
        if languages.contains(where: { $0 != .english && $0 != .simplifiedChinese }) || text[.english] == nil {
            let pairs = languageOrder(languages).map { "\(string($0.tag)): \(string(text[$0] ?? ""))" }
            return "LocalizedText([" + pairs.joined(separator: ", ") + "])"
        }
        if let chinese = text.simplifiedChinese {
            return "LocalizedText(english: \(string(text.english)), simplifiedChinese: \(string(chinese)))"
        }
        return "LocalizedText(english: \(string(text.english)))"
    }

    /// `languages` in a stable order: the built-in catalog's (``Language/builtIn``), then the others
    /// by tag.
    static func languageOrder(_ languages: [Language]) -> [Language] {
        let known = Language.builtIn.filter { languages.contains($0) }
        return known + languages.filter { !Language.builtIn.contains($0) }.sorted { $0.tag < $1.tag }
    }

    /// `text` on one line, for a `//` or `///` comment: line and paragraph separators (LF, CR,
    /// NEL, U+2028, U+2029) and tabs become spaces, and every other character that is not visible
    /// (``DisplayText/isVisible(_:)``) is written as `\u{…}`, so the comment shows what the
    /// catalog holds and nothing in it can end the line or reorder how it is displayed.
    static func docLine(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: result.unicodeScalars.append(" ")
            default:
                if DisplayText.isVisible(scalar) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += DisplayText.escape(scalar)
                }
            }
        }
        return result
    }

    /// A `ShapeDefinition(...)` expression: every argument, the defaults too.
    static func shape(_ shape: ShapeDefinition) -> String {
        func optional(_ location: ShapeDefinition.Location?) -> String {
            location.map(Self.location) ?? "nil"
        }
        let namespace: String
        switch shape.namespace {
        case .none: namespace = "nil"
        case .codePrefix: namespace = ".codePrefix"
        case .location(let place): namespace = ".location(\(location(place)))"
        }
        let failure: String
        switch shape.failure {
        case .status: failure = ".status"
        case .code: failure = ".code"
        case .flag(let place, let failsWhen): failure = ".flag(\(location(place)), failsWhen: \(failsWhen))"
        case .present(let place): failure = ".present(\(location(place)))"
        }
        // The members a shape rarely has are written only when it has them.
        let fallbackCodes =
            shape.fallbackCodes.isEmpty
            ? "" : "fallbackCodes: [\(shape.fallbackCodes.map(location).joined(separator: ", "))], "
        let defaultCode: String
        switch shape.defaultCode {
        case .none: defaultCode = ""
        case .integer(let value)?: defaultCode = "defaultCode: .integer(\(value)), "
        case .string(let text)?: defaultCode = "defaultCode: .string(\(string(text))), "
        }
        return "ShapeDefinition(name: \(string(shape.name)), kind: .\(shape.kind.rawValue), "
            + "contentType: \(shape.contentType.map(string) ?? "nil"), code: \(optional(shape.code)), "
            + fallbackCodes + "codeType: .\(shape.codeType.rawValue), " + defaultCode
            + "namespace: \(namespace), secondary: \(optional(shape.secondary)), "
            + "message: \(optional(shape.message)), payload: \(optional(shape.payload)), failure: \(failure))"
    }

    /// A `ShapeDefinition.Location` expression.
    static func location(_ location: ShapeDefinition.Location) -> String {
        switch location {
        case .header(let name):
            return ".header(\(string(name)))"
        case .body(let steps):
            let parts = steps.map { step -> String in
                switch step {
                case .key(let key): return ".key(\(string(key)))"
                case .index(let index): return ".index(\(index))"
                case .firstWhere(let key, let value):
                    return ".firstWhere(key: \(string(key)), equals: \(string(value)))"
                }
            }
            return ".body([\(parts.joined(separator: ", "))])"
        }
    }
}
