// The pieces that keep generated sources safe: C comments and literals, Swift doc lines and
// literals, the source audit that gen runs on its own output, the reserved names derived from
// what the generator and the protocols declare, and the one rule for counts and sizes.

import Foundation
import SwiftErrCatalogFile
import SwiftErrDefaultCatalog
import Testing

@testable import ErrcatKit
@testable import SwiftErr

@Suite("generated source safety")
struct GeneratedSourceTests {
    static let hostile =
        HostileCatalogTests.hostileTexts + ["*/", "/*", "*", "/", "??", "\\", "a\\\nb", "\r\n", "é\u{301}*/"]

    @Test("C comment text is printable ASCII that cannot end, nest or splice a comment", arguments: hostile)
    func cComment(text: String) {
        let comment = CLiteral.comment(text)
        #expect(comment.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value <= 0x7E })
        #expect(
            !comment.contains("*/") && !comment.contains("/*") && !comment.contains("??") && !comment.contains("\\"))
        #expect(!("/* " + comment + " */").dropFirst(2).dropLast(2).contains("*/"))
    }

    @Test("C string contents decode back to the text and hold only visible characters", arguments: hostile)
    func cString(text: String) throws {
        let literal = "\"" + CLiteral.stringContents(text) + "\""
        #expect(!literal.unicodeScalars.contains { !DisplayText.isVisible($0) })
        #expect(!literal.contains("??"))
        try GeneratedSourceAudit.checkC(literal, include: nil, pool: Array(text.utf8), identifiers: [])
        let characters = "{" + Array(text.utf8).map(CLiteral.character).joined(separator: ", ") + "}"
        try GeneratedSourceAudit.checkC(characters, include: nil, pool: Array(text.utf8), identifiers: [])
    }

    @Test("Swift string literals decode back to the text; doc lines hold only visible characters", arguments: hostile)
    func swiftText(text: String) throws {
        let literal = SwiftLiteral.string(text)
        try GeneratedSourceAudit.checkSwift(literal, literals: [Array(text.utf8)], identifiers: [])
        let doc = SwiftLiteral.docLine(text)
        #expect(doc.unicodeScalars.allSatisfy(DisplayText.isVisible))
        try GeneratedSourceAudit.checkSwift("/// " + doc + "\n", literals: [], identifiers: [])
    }

    static let injectedC: [(String, String)] = [
        ("/* a */ int PWNED = 42;", "unexpected identifier int"),
        ("/* a *\\\n/ int PWNED; /* */", "in a comment"),
        ("/* ??/\n */", "'??' in a comment"),
        ("/* /* */", "'/*' in a comment"),
        ("\"a\\\nb\"", "escape"),
        ("\"a\u{202E}b\"", "invisible character"),
        ("\"a\rb\"", "control byte 13"),
        ("\"?\u{3F}=\"", "trigraph"),
        ("// x", "a // comment"),
        ("\"x\"", "the literals spell 1 bytes of the catalog's 0"),
        ("'ab'", "a character constant the generator does not write"),
        ("'\\n'", "a character constant the generator does not write"),
        ("/* x\r */", "in a comment"),
        ("/* e\u{301} */", "in a comment"),
    ]

    @Test("the C audit rejects what would change a source's meaning", arguments: injectedC)
    func cAudit(source: String, reason: String) {
        #expect {
            try GeneratedSourceAudit.checkC(source, include: nil, pool: [], identifiers: [])
        } throws: { error in
            (error as? AuditFinding)?.message.contains(reason) == true
        }
    }

    static let injectedSwift: [(String, String)] = [
        ("/// a\r    public static let PWNED = 42", "in a comment"),
        ("/// a\u{2028}b", "in a comment"),
        ("let x = \"\\(PWNED)\"", "escape '\\('"),
        ("let x = #\"a\"#", "'#' outside literals"),
        ("let x = \"\"\"\n\"\"\"", "multi-line"),
        ("/* */", "block comment"),
        ("let PWNED = 1", "unexpected identifier PWNED"),
        ("let x = \"a\u{202E}\"", "invisible character"),
        ("let `x y` = 1", "backticks"),
        ("let x = \"unknown\"", "is not a text of the catalog"),
    ]

    @Test("the Swift audit rejects what would change a source's meaning", arguments: injectedSwift)
    func swiftAudit(source: String, reason: String) {
        #expect {
            try GeneratedSourceAudit.checkSwift(source, literals: [], identifiers: ["let", "x"])
        } throws: { error in
            (error as? AuditFinding)?.message.contains(reason) == true
        }
    }

    /// Identifiers declared or named in `source` outside comments and string literals.
    static func words(in source: String) -> [String] {
        var words: [String] = []
        for line in source.split(separator: "\n") {
            var code = String(line)
            if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
            var inString = false
            var current = ""
            var previous: Character = " "
            for character in code {
                if character == "\"" && previous != "\\" { inString.toggle() }
                previous = character
                if inString { continue }
                if character.isLetter || character.isNumber || character == "_" {
                    current.append(character)
                } else {
                    if let first = current.first, !first.isNumber { words.append(current) }
                    current = ""
                }
            }
            if let first = current.first, !first.isNumber { words.append(current) }
        }
        return words
    }

    @Test(
        "reserved names: every member the generated enum declares, and every type it names, is reserved",
        arguments: ["files", "built-in files", "installing"])
    func reservedFromGenerator(form: String) throws {
        var catalog = try CatalogDefinition(json: Array(ErrcatRunner.fixture("small-catalog.json")))
        if form == "built-in files" { catalog.name = "default" }
        let generator = SwiftSourceGenerator(definition: catalog, sourcePath: "x.json")
        let module: String
        if form == "installing" {
            // The installing form is one file: BillingCode's enum is from its declaration to the next.
            let source = try generator.generateInstalling()
            let start = try #require(source.range(of: "public enum BillingCode: ModuleCode {"))
            let end = try #require(source.range(of: "\n}\n", range: start.upperBound..<source.endIndex))
            module = String(source[start.lowerBound..<end.upperBound])
        } else {
            let files = try generator.generateFiles()
            module = try #require(files.first { $0.fileName == "BillingCode.swift" }).source
        }
        let caseNames = Set(catalog.modules[0].codes.map(\.name))
        // Members: the word after case/var/let/func in the enum's own declarations.
        let declarations = module.split(separator: "\n").compactMap { line -> String? in
            let words = Self.words(in: String(line))
            guard let keyword = words.firstIndex(where: { ["case", "var", "let", "func"].contains($0) }),
                keyword + 1 < words.count, line.hasPrefix("    ") && !line.hasPrefix("        ")
            else { return nil }
            return words[keyword + 1]
        }
        let members = Set(declarations).subtracting(caseNames)
        #expect(
            members
                == Set(GeneratedNames.generatedModuleMembers.keys).subtracting(form == "files" ? ["classifier"] : []))
        // Types: capitalised words outside the import line; the installing form's catalog type is
        // reserved by a rule of its own (a case may not be named like the catalog's type).
        let code = module.split(separator: "\n").filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
        let catalogType = GeneratedNames.catalogTypeName(catalog: catalog.name)
        let types = Set(Self.words(in: code).filter { $0.first!.isUppercase })
            .subtracting(["BillingCode", "Self", catalogType])
        #expect(
            types.isSubset(of: GeneratedNames.referencedTypes),
            "\(types.subtracting(GeneratedNames.referencedTypes))")
        for name in members.union(types) { #expect(GeneratedNames.caseNameProblem(name) != nil, "\(name)") }
        if form == "installing" {
            #expect(module.contains("ModuleClassifier<Self>(installing: \(catalogType).definition)"))
            var poisoned = catalog
            poisoned.modules[0].codes[0].name = catalogType
            #expect(throws: SwiftGenerationError.self) {
                try SwiftSourceGenerator(definition: poisoned, sourcePath: "x.json").generateInstalling()
            }
        }
    }

    @Test("reserved names: every public member of ModuleCode and BaseCode is reserved where it applies")
    func reservedFromProtocols() throws {
        func publicMembers(_ path: String) throws -> Set<String> {
            let text = try String(contentsOf: ErrcatRunner.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
            var names: Set<String> = []
            for line in text.split(separator: "\n") {
                let words = Self.words(in: String(line))
                if let keyword = words.firstIndex(where: { ["var", "func"].contains($0) }), keyword + 1 < words.count,
                    line.contains("public") || line.hasPrefix("    static") || line.hasPrefix("    var")
                {
                    names.insert(words[keyword + 1])
                }
                if words.contains("init") && line.contains("public") { names.insert("init") }
            }
            return names
        }
        let moduleMembers = try publicMembers("Sources/SwiftErrCore/Modules/ModuleCode.swift")
            .union(try publicMembers("Sources/SwiftErr/Modules/ModuleCode+Defaults.swift"))
        #expect(
            moduleMembers.isSuperset(of: ["moduleName", "definition", "catalog", "classify", "unrecognisedMessage"]))
        for name in moduleMembers { #expect(GeneratedNames.caseNameProblem(name) != nil, "ModuleCode.\(name)") }
        let baseMembers = try publicMembers("Sources/SwiftErrCore/Modules/BaseCode.swift").union(["rawValue"])
        #expect(baseMembers.isSuperset(of: ["name", "flags", "message", "init"]))
        for name in baseMembers { #expect(GeneratedNames.baseNameProblem(name) != nil, "BaseCode.\(name)") }
    }
}
