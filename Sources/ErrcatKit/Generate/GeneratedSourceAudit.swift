// A lexical check of generated sources: every string literal decodes to a text of the catalog,
// every comment holds only safe characters, and nothing outside literals and comments is more
// than the generator's own ASCII. `errcat gen` runs it on its output before writing anything, and
// the catalog fuzz target and the tests use it as their oracle.

import SwiftErr
import SwiftErrCatalogFile

/// Why generated source failed the audit: what and at which byte.
struct AuditFinding: Error, CustomStringConvertible {
    var message: String
    var offset: Int

    var description: String { "\(message) (byte \(offset))" }
}

/// Lexes generated C11 or Swift the way their compilers do, far enough to prove that catalog
/// text cannot have changed what the source means.
///
/// C: no line splice (no backslash outside literals, no `\` before a newline inside one),
/// no trigraph (`??`) outside a literal, no `//` comment, comments of printable ASCII and visible
/// characters that are not combining marks, without a nested `/*`, a `??` or a backslash, string literals whose escapes are the generator's (`\"`, `\\`,
/// `\?`, octal) and whose raw characters are visible, character constants of one printable
/// character or one of those escapes, code of printable ASCII and newlines.
/// Swift: `//` comments of visible characters only, no block comment, no `#` (raw strings,
/// directives) and no interpolation, string literals with the generator's escapes (`\"`, `\\`,
/// `\n`, `\r`, `\t`, `\u{…}`) and visible raw characters, code of printable ASCII and newlines.
/// In both, every identifier outside literals and comments must be one the caller allows (the
/// generator's own words and the catalog's identifiers). C's string literals and character
/// constants must spell exactly the include and the string pool the caller expects; each Swift
/// string literal must be one of the catalog's texts.
enum GeneratedSourceAudit {
    /// Checks generated C.
    /// - Parameters:
    ///   - source: The generated text.
    ///   - include: The header the first string literal names, or nil when there is none.
    ///   - pool: The bytes the other string literals and the character constants spell, in order
    ///     (each text followed by its NUL).
    ///   - identifiers: The identifiers allowed outside literals and comments.
    /// - Throws: `AuditFinding` at the first violation.
    static func checkC(_ source: String, include: String?, pool: [UInt8], identifiers: Set<String>)
        throws(AuditFinding)
    {
        let bytes = Array(source.utf8)
        var found: [[UInt8]] = []
        var characters: [UInt8] = []
        var index = 0
        func fail(_ message: String) -> AuditFinding { AuditFinding(message: message, offset: index) }
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if byte == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
                index += 2
                var previous: UInt8 = 0
                while true {
                    guard index < bytes.count else { throw fail("unterminated comment") }
                    let inner = bytes[index]
                    if previous == UInt8(ascii: "*") && inner == UInt8(ascii: "/") { break }
                    if inner >= 0x80 {
                        // The generator's own text may hold visible non-ASCII characters ("—").
                        let (scalar, length) = try decodeScalar(bytes, at: index, fail: fail)
                        guard DisplayText.isVisible(scalar), scalar.properties.generalCategory != .nonspacingMark,
                            scalar.properties.generalCategory != .enclosingMark
                        else { throw fail("character U+\(String(scalar.value, radix: 16)) in a comment") }
                        index += length
                        previous = 0
                        continue
                    }
                    guard (inner >= 0x20 && inner <= 0x7E && inner != UInt8(ascii: "\\")) || inner == 0x0A else {
                        throw fail("byte \(inner) in a comment")
                    }
                    if previous == UInt8(ascii: "/") && inner == UInt8(ascii: "*") { throw fail("'/*' in a comment") }
                    if previous == UInt8(ascii: "?") && inner == UInt8(ascii: "?") { throw fail("'??' in a comment") }
                    previous = inner
                    index += 1
                }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "/") && next == UInt8(ascii: "/") { throw fail("a // comment") }
            if byte == UInt8(ascii: "\"") {
                index += 1
                var value: [UInt8] = []
                var previous: UInt8 = 0
                while true {
                    guard index < bytes.count else { throw fail("unterminated string literal") }
                    let inner = bytes[index]
                    if inner == UInt8(ascii: "\"") { break }
                    if inner == UInt8(ascii: "\\") {
                        guard index + 1 < bytes.count else { throw fail("unterminated escape") }
                        let escaped = bytes[index + 1]
                        switch escaped {
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "?"):
                            value.append(escaped)
                            index += 2
                        case UInt8(ascii: "0")...UInt8(ascii: "7"):
                            var code = 0
                            var digits = 0
                            index += 1
                            while digits < 3 && index < bytes.count
                                && (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index])
                            {
                                code = code * 8 + Int(bytes[index] - UInt8(ascii: "0"))
                                digits += 1
                                index += 1
                            }
                            guard code <= 0xFF else { throw fail("octal escape above 255") }
                            value.append(UInt8(code))
                        default:
                            throw fail("escape '\\\(Character(Unicode.Scalar(escaped)))' in a string literal")
                        }
                        previous = 0
                        continue
                    }
                    guard inner >= 0x20 && inner != 0x7F else {
                        throw fail("control byte \(inner) in a string literal")
                    }
                    if previous == UInt8(ascii: "?") && inner == UInt8(ascii: "?") {
                        throw fail("'??' (a trigraph) in a string literal")
                    }
                    if inner >= 0x80 {
                        // A raw UTF-8 sequence: decode one scalar and require it to be visible.
                        let (scalar, length) = try decodeScalar(bytes, at: index, fail: fail)
                        guard DisplayText.isVisible(scalar) else {
                            throw fail("invisible character U+\(String(scalar.value, radix: 16)) in a string literal")
                        }
                        value += bytes[index..<index + length]
                        index += length
                        previous = 0
                        continue
                    }
                    value.append(inner)
                    previous = inner
                    index += 1
                }
                found.append(value)
                index += 1
                continue
            }
            if byte == UInt8(ascii: "'") {
                guard let (value, length) = characterConstant(bytes, at: index) else {
                    throw fail("a character constant the generator does not write")
                }
                characters.append(value)
                index += length
                continue
            }
            guard (byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "\\")) || byte == 0x0A else {
                throw fail("byte \(byte) outside literals and comments")
            }
            if byte == UInt8(ascii: "?") && next == UInt8(ascii: "?") { throw fail("'??' outside literals") }
            if isIdentifierStart(byte) {
                let start = index
                while index < bytes.count && isIdentifierByte(bytes[index]) { index += 1 }
                let word = String(decoding: bytes[start..<index], as: UTF8.self)
                guard identifiers.contains(word) else { throw fail("unexpected identifier \(word)") }
                continue
            }
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                // A number with its suffix (`0x00u`, `11001`): letters after a digit are not identifiers.
                while index < bytes.count && isIdentifierByte(bytes[index]) { index += 1 }
                continue
            }
            index += 1
        }
        if let include {
            guard found.first == Array(include.utf8) else {
                throw AuditFinding(message: "the first string literal is not \"\(include)\"", offset: 0)
            }
            found.removeFirst()
        }
        let spelled = found.flatMap { $0 } + characters
        guard spelled == pool else {
            let first =
                zip(spelled, pool).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(spelled.count, pool.count)
            throw AuditFinding(
                message:
                    "the literals spell \(spelled.count) bytes of the catalog's \(pool.count), differing at byte \(first)",
                offset: 0)
        }
    }

    /// Checks generated Swift.
    /// - Parameters:
    ///   - source: The generated text.
    ///   - literals: The texts a string literal may decode to, compared by their UTF-8 bytes
    ///     (not by `==`, which holds "é" and "e\u{301}" equal).
    ///   - identifiers: The identifiers allowed outside literals and comments (without backticks).
    /// - Throws: `AuditFinding` at the first violation.
    static func checkSwift(_ source: String, literals: Set<[UInt8]>, identifiers: Set<String>) throws(AuditFinding) {
        let scalars = Array(source.unicodeScalars)
        var index = 0
        func fail(_ message: String) -> AuditFinding { AuditFinding(message: message, offset: index) }
        while index < scalars.count {
            let scalar = scalars[index]
            let next: Unicode.Scalar = index + 1 < scalars.count ? scalars[index + 1] : "\0"
            if scalar == "/" && next == "*" { throw fail("a block comment") }
            if scalar == "/" && next == "/" {
                while index < scalars.count && scalars[index] != "\n" {
                    guard DisplayText.isVisible(scalars[index]) else {
                        throw fail("character U+\(String(scalars[index].value, radix: 16)) in a comment")
                    }
                    index += 1
                }
                continue
            }
            if scalar == "\"" {
                if next == "\"" && index + 2 < scalars.count && scalars[index + 2] == "\"" {
                    throw fail("a multi-line string literal")
                }
                index += 1
                var value = ""
                while true {
                    guard index < scalars.count else { throw fail("unterminated string literal") }
                    let inner = scalars[index]
                    if inner == "\"" { break }
                    if inner == "\\" {
                        guard index + 1 < scalars.count else { throw fail("unterminated escape") }
                        switch scalars[index + 1] {
                        case "\"": value += "\""
                        case "\\": value += "\\"
                        case "n": value += "\n"
                        case "r": value += "\r"
                        case "t": value += "\t"
                        case "u":
                            guard index + 2 < scalars.count, scalars[index + 2] == "{" else {
                                throw fail("bad \\u escape")
                            }
                            var end = index + 3
                            var code: UInt32 = 0
                            while end < scalars.count, end - index - 3 < 8, let digit = hexValue(scalars[end]) {
                                code = code * 16 + digit
                                end += 1
                            }
                            guard end < scalars.count, scalars[end] == "}", end > index + 3,
                                let decoded = Unicode.Scalar(code)
                            else { throw fail("bad \\u escape") }
                            value.unicodeScalars.append(decoded)
                            index = end + 1
                            continue
                        default: throw fail("escape '\\\(scalars[index + 1])' in a string literal")
                        }
                        index += 2
                        continue
                    }
                    guard DisplayText.isVisible(inner) else {
                        throw fail("invisible character U+\(String(inner.value, radix: 16)) in a string literal")
                    }
                    value.unicodeScalars.append(inner)
                    index += 1
                }
                guard literals.contains(Array(value.utf8)) else {
                    throw fail("string literal \(DisplayText.quoted(value)) is not a text of the catalog")
                }
                index += 1
                continue
            }
            guard (scalar.value >= 0x20 && scalar.value <= 0x7E) || scalar == "\n" else {
                throw fail("character U+\(String(scalar.value, radix: 16)) outside literals and comments")
            }
            if scalar == "#" { throw fail("'#' outside literals") }
            if scalar == "\\" { throw fail("'\\' outside literals") }
            if scalar == "`" {
                // A backticked identifier: the name inside must be allowed.
                var end = index + 1
                while end < scalars.count && scalars[end] != "`" && scalars[end] != "\n" { end += 1 }
                guard end < scalars.count, scalars[end] == "`" else { throw fail("unterminated backtick") }
                let word = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                // Outside comments a backtick only quotes an identifier, which must be allowed.
                guard !word.isEmpty,
                    word.unicodeScalars.allSatisfy({ $0.value < 0x80 && isIdentifierByte(UInt8($0.value)) })
                else { throw fail("backticks around \(DisplayText.quoted(word))") }
                guard identifiers.contains(word) else { throw fail("unexpected identifier `\(word)`") }
                index = end + 1
                continue
            }
            if scalar.value < 0x80, isIdentifierStart(UInt8(scalar.value)) {
                let start = index
                while index < scalars.count && scalars[index].value < 0x80
                    && isIdentifierByte(UInt8(scalars[index].value))
                {
                    index += 1
                }
                let word = String(String.UnicodeScalarView(scalars[start..<index]))
                guard identifiers.contains(word) else { throw fail("unexpected identifier \(word)") }
                continue
            }
            if scalar.value >= 0x30 && scalar.value <= 0x39 {
                while index < scalars.count && scalars[index].value < 0x80
                    && isIdentifierByte(UInt8(scalars[index].value))
                {
                    index += 1
                }
                continue
            }
            index += 1
        }
    }

    /// The identifiers generated C uses besides the table's own `errcore_…` names.
    static let cWords: Set<String> = [
        "include", "undef", "static", "const", "char", "int64_t", "uint32_t", "sizeof", "return", "void", "NULL",
        "INT64_C", "INT64_MIN", "ERRCORE_NO_STRING", "errcore_entry", "errcore_module", "errcore_range",
        "errcore_index_slot",
        "errcore_front_slot", "errcore_front_gap", "errcore_table", "ERRCORE_API", "unsigned",
        "errcore_string_space", "errcore_string_slot", "errcore_string_table",
    ]

    /// The further identifiers of a generated header, besides its guard and function.
    static let cHeaderWords: Set<String> = ["ifndef", "define", "ifdef", "endif", "__cplusplus", "extern"]

    /// The identifiers generated Swift uses besides the catalog's names and module types.
    static let swiftWords: Set<String> = [
        "_", "extension", "public", "static", "let", "var", "enum", "case", "func", "switch", "self", "Self", "return",
        "if", "true", "false", "inlinable", "BaseCode", "rawValue", "ModuleCode", "String", "Int64", "Bool",
        "ClosedRange", "LocalizedText", "english", "simplifiedChinese", "CodeFlags", "ModuleClassifier", "catalog",
        "builtIn", "retryable", "reauthenticate", "showUser", "fatal", "unrecognisedMessage", "import", "SwiftErr",
        "SwiftErrCore", "stringNamespaces", "stringCode", "stringNamespace", "default", "nil",
    ]

    /// The further identifiers of the `--installing` form (the catalog type's code), besides the
    /// catalog type's own name.
    static let swiftInstallingWords: Set<String> = [
        "CatalogDefinition", "EntryDefinition", "success", "base", "modules", "definition",
        "discardableResult", "install", "throws", "try", "CatalogError", "Catalog", "installing", "languages",
        "_exported", "string", "namespace", "shapes", "ShapeDefinition", "name", "kind", "json", "status", "grpc",
        "contentType", "code", "fallbackCodes", "codeType", "defaultCode", "integer", "location", "codePrefix",
        "secondary", "message", "payload", "failure", "flag", "failsWhen", "present", "body", "header", "key",
        "index", "firstWhere", "equals",
    ]

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 0x30
        case "A"..."F": return scalar.value - 0x41 + 10
        case "a"..."f": return scalar.value - 0x61 + 10
        default: return nil
        }
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// The byte a C character constant at `index` (its opening quote) stands for, and the
    /// constant's length: one printable ASCII character but `'` and `\\`, or `'\\''`, `'\\\\'` or
    /// a three-digit octal escape up to 377; `nil` for anything else.
    private static func characterConstant(_ bytes: [UInt8], at index: Int) -> (UInt8, Int)? {
        func byte(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        let quote = UInt8(ascii: "'")
        let backslash = UInt8(ascii: "\\")
        if byte(1) != backslash && byte(1) != quote && byte(1) >= 0x20 && byte(1) <= 0x7E && byte(2) == quote {
            return (byte(1), 3)
        }
        if byte(1) == backslash && (byte(2) == quote || byte(2) == backslash) && byte(3) == quote {
            return (byte(2), 4)
        }
        let octal = UInt8(ascii: "0")...UInt8(ascii: "7")
        if byte(1) == backslash && octal.contains(byte(2)) && octal.contains(byte(3)) && octal.contains(byte(4))
            && byte(5) == quote
        {
            let value = Int(byte(2) - 48) * 64 + Int(byte(3) - 48) * 8 + Int(byte(4) - 48)
            return value <= 0xFF ? (UInt8(value), 6) : nil
        }
        return nil
    }

    /// One UTF-8 scalar at `index` of `bytes` and its length.
    private static func decodeScalar(
        _ bytes: [UInt8], at index: Int, fail: (String) -> AuditFinding
    ) throws(AuditFinding) -> (Unicode.Scalar, Int) {
        var iterator = bytes[index...].makeIterator()
        var decoder = UTF8()
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): return (scalar, String(scalar).utf8.count)
        case .emptyInput, .error: throw fail("invalid UTF-8 in a string literal")
        }
    }
}
