// `errcat gen swift`: a catalog's base tier as `BaseCode` constants and its modules as
// `ModuleCode` enums, the form of Sources/SwiftErrCore/Generated/*.swift (generated from
// catalog/default.json).

import SwiftErr
import SwiftErrCatalogFile

/// Why a catalog cannot be written as Swift.
struct SwiftGenerationError: Error {
    var message: String
}

/// Writes the Swift source of one catalog: one file for the base tier, one per module.
struct SwiftSourceGenerator {
    let definition: CatalogDefinition
    /// The catalog file's path as given on the command line (named in the banner).
    let sourcePath: String

    /// The name of the generated unrecognised case.
    static let fallbackCase = GeneratedNames.fallbackCase

    /// Whether the catalog is the built-in one, whose modules classify through `Catalog.builtIn`.
    private var isBuiltIn: Bool { definition.name == "default" }

    /// The generated files in order: the base tier, then one per module, as (file name, source).
    /// - Throws: `SwiftGenerationError` when a name cannot be generated (``validate()``).
    func generateFiles() throws(SwiftGenerationError) -> [(fileName: String, source: String)] {
        try validate()
        var files = [
            (fileName: "BaseCode+\(SwiftLiteral.typeName(catalog: definition.name)).swift", source: generateBase())
        ]
        for (index, module) in definition.modules.enumerated() {
            files.append((SwiftLiteral.typeName(module: module.name) + ".swift", generate(module, id: index + 1)))
        }
        return files
    }

    /// Checks the names the catalog file reader checks (``GeneratedNames``), for a definition
    /// that did not come from a file: every name an identifier, none reserved, no two module
    /// files that differ only in letter case.
    /// - Throws: `SwiftGenerationError` naming the first name that cannot be generated.
    func validate() throws(SwiftGenerationError) {
        func fail(_ message: String) -> SwiftGenerationError { SwiftGenerationError(message: message) }
        let catalog = definition.name
        guard GeneratedNames.isIdentifier(catalog) else {
            throw fail("the catalog name \(DisplayText.quoted(catalog)) is not an identifier")
        }
        for entry in definition.base {
            guard GeneratedNames.isIdentifier(entry.name) else {
                throw fail("the base entry name \(DisplayText.quoted(entry.name)) is not an identifier")
            }
            if let why = GeneratedNames.baseNameProblem(entry.name) {
                throw fail("the base entry name \(DisplayText.quoted(entry.name)) is reserved: it is \(why)")
            }
        }
        var files: [String: String] = [:]
        for module in definition.modules {
            guard GeneratedNames.isIdentifier(module.name) else {
                throw fail("the module name \(DisplayText.quoted(module.name)) is not an identifier")
            }
            let type = SwiftLiteral.typeName(module: module.name)
            if let why = GeneratedNames.reservedTypeNames[type] {
                throw fail("the module name \(DisplayText.quoted(module.name)) is reserved: \(type) is \(why)")
            }
            if let earlier = files.updateValue(module.name, forKey: type.lowercased()) {
                throw fail(
                    "modules \(DisplayText.quoted(earlier)) and \(DisplayText.quoted(module.name)) would both be written to \(type).swift (letter case aside)"
                )
            }
            for entry in module.codes {
                guard GeneratedNames.isIdentifier(entry.name) else {
                    throw fail(
                        "the name \(DisplayText.quoted(entry.name)) of an entry of module \(DisplayText.quoted(module.name)) is not an identifier"
                    )
                }
                if let why = GeneratedNames.caseNameProblem(entry.name) {
                    throw fail(
                        "module \(DisplayText.quoted(module.name)) has an entry named \(DisplayText.quoted(entry.name)), which in \(type) is \(why)"
                    )
                }
            }
        }
    }

    /// ``generateFiles()``, after ``GeneratedSourceAudit`` has proved of every file that its
    /// string literals are texts of the catalog, its comments hold only visible characters, and
    /// the only words in its code are the generator's own and the catalog's identifiers.
    /// - Throws: `SwiftGenerationError` when a name cannot be generated or a file fails the audit
    ///   (a generator bug: nothing is written).
    func generateFilesChecked() throws(SwiftGenerationError) -> [(fileName: String, source: String)] {
        let files = try generateFiles()
        var literals: Set<[UInt8]> = [Array(Self.fallbackCase.utf8)]
        var identifiers = GeneratedSourceAudit.swiftWords
        identifiers.formUnion(GeneratedNames.generatedModuleMembers.keys)
        func add(_ text: LocalizedText) {
            literals.insert(Array(text.english.utf8))
            if let chinese = text.simplifiedChinese { literals.insert(Array(chinese.utf8)) }
        }
        for entry in definition.base {
            identifiers.insert(entry.name)
        }
        for module in definition.modules {
            literals.insert(Array(module.name.utf8))
            add(module.title)
            identifiers.insert(SwiftLiteral.typeName(module: module.name))
            for entry in module.codes {
                literals.insert(Array(entry.name.utf8))
                add(entry.message)
                identifiers.insert(entry.name)
            }
        }
        for file in files {
            do {
                try GeneratedSourceAudit.checkSwift(file.source, literals: literals, identifiers: identifiers)
            } catch {
                throw SwiftGenerationError(message: "internal error: \(file.fileName) fails the source audit: \(error)")
            }
        }
        return files
    }

    /// The banner every generated file starts with.
    private var banner: String {
        "// GENERATED by `errcat gen swift` from \(SwiftLiteral.docLine(sourcePath)) (catalog \(SwiftLiteral.string(definition.name))).\n"
            + "// Do not edit: change the catalog and regenerate (a test fails on drift).\n"
            + "// swift-format-ignore-file\n\n"
    }

    /// The base tier as static `BaseCode` constants.
    func generateBase() -> String {
        var out = banner
        out += "extension BaseCode {\n"
        for (index, entry) in definition.base.enumerated() {
            if index > 0 { out += "\n" }
            out += "    /// \(SwiftLiteral.docLine(entry.message.english))\n"
            out += "    ///\n"
            let flags = entry.flags.names.map { "``CodeFlags/\($0)``" }
            out += "    /// Code `\(entry.code)`\(flags.isEmpty ? "" : "; flags: " + flags.joined(separator: ", ")).\n"
            out += "    public static let \(SwiftLiteral.identifier(entry.name)) = BaseCode(rawValue: \(entry.code))\n"
        }
        out += "}\n"
        return out
    }

    /// The source of one module's enum (its names are checked by ``validate()``).
    private func generate(_ module: ModuleDefinition, id: Int) -> String {
        let type = SwiftLiteral.typeName(module: module.name)
        let titleText = module.title.simplifiedChinese.map { "\(module.title.english) / \($0)" } ?? module.title.english
        let rangeText = module.ranges.map { "`\($0.lowerBound)...\($0.upperBound)`" }.joined(separator: ", ")
        let rangeValue = module.ranges.map { SwiftLiteral.range($0) }.joined(separator: ", ")
        var out = banner
        out +=
            "/// The codes of the \(SwiftLiteral.docLine(definition.name)) catalog's `\(SwiftLiteral.docLine(module.name))` module (\(SwiftLiteral.docLine(titleText))),\n"
        out += "/// owning \(rangeText).\n"
        out += "///\n"
        out += "/// A code inside the module's ranges that it does not list is ``other(_:)``, which carries the\n"
        if isBuiltIn {
            out += "/// server's number. Classified through ``Catalog/builtIn`` (`errcore_default_table()`, module\n"
            out += "/// id \(id)).\n"
        } else {
            out += "/// server's number.\n"
        }
        out += "public enum \(type): ModuleCode {\n"
        for entry in module.codes {
            out += "    /// \(SwiftLiteral.docLine(entry.message.english)) (`\(entry.code)`)\n"
            out += "    case \(SwiftLiteral.identifier(entry.name))\n"
        }
        out += "    /// A code in the module's ranges that this version does not list; the payload is the code.\n"
        out += "    case other(Int64)\n\n"
        out += "    /// `\(SwiftLiteral.docLine(SwiftLiteral.string(module.name)))`\n"
        out += "    public static var moduleName: String { \(SwiftLiteral.string(module.name)) }\n"
        out += "    /// \(SwiftLiteral.docLine(titleText))\n"
        out += "    public static var moduleTitle: LocalizedText { \(SwiftLiteral.localizedText(module.title)) }\n"
        out += "    /// \(rangeText)\n"
        out += "    public static var codeRanges: [ClosedRange<Int64>] { [\(rangeValue)] }\n"
        out += "    /// Every case but ``other(_:)``, in catalog order.\n"
        let listed = module.codes.map { "." + SwiftLiteral.identifier($0.name) }.joined(separator: ", ")
        out += "    public static let listedCases: [Self] = [\(listed)]\n"
        out += "    /// ``other(_:)`` carrying `code`.\n"
        out += "    @inlinable\n"
        out += "    public static func unrecognised(_ code: Int64) -> Self { .other(code) }\n"
        if isBuiltIn {
            // Other catalogs' modules use SwiftErr's default classifier (the module registry).
            out += "    /// Classified through ``Catalog/builtIn``, the C core's static default table.\n"
            out += "    public static let classifier = ModuleClassifier<Self>(catalog: .builtIn)\n"
        }
        out += "\n"
        out += switchProperty("The server's code.", "code: Int64", module.codes, other: "code") { "\($0.code)" }
        out += "\n"
        out += "    /// Whether this is ``other(_:)``.\n"
        out += "    public var isUnrecognised: Bool {\n"
        out += "        if case .other = self { return true }\n"
        out += "        return false\n"
        out += "    }\n\n"
        out += switchProperty(
            "The case's catalog identifier (the case name).", "name: String", module.codes,
            other: SwiftLiteral.string(Self.fallbackCase)
        ) { SwiftLiteral.string($0.name) }
        out += "\n"
        out += switchProperty(
            "The case's catalog flags.", "flags: CodeFlags", module.codes,
            other: "[]"
        ) { SwiftLiteral.flags($0.flags) }
        out += "\n"
        out += switchProperty(
            "The case's catalog message.", "message: LocalizedText", module.codes,
            other: "Self.unrecognisedMessage"
        ) { SwiftLiteral.localizedText($0.message) }
        out += "}\n"
        return out
    }

    /// A computed property that switches over the cases: one `case` per entry, then `.other`
    /// (binding its payload as `code`).
    private func switchProperty(
        _ doc: String, _ signature: String, _ entries: [EntryDefinition],
        other: String, value: (EntryDefinition) -> String
    ) -> String {
        var out = "    /// \(doc)\n"
        out += "    public var \(signature) {\n"
        out += "        switch self {\n"
        for entry in entries {
            out += "        case .\(SwiftLiteral.identifier(entry.name)): return \(value(entry))\n"
        }
        out +=
            other == "code" ? "        case .other(let code): return code\n" : "        case .other: return \(other)\n"
        out += "        }\n"
        out += "    }\n"
        return out
    }
}
