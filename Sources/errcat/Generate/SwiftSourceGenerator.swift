// `errcat gen swift`: a catalog's modules as Swift `ModuleCode` enums, the form of the
// facade's Sources/SwiftErr/Core/<Module>Code.swift files (generated from catalog/default.json).

import SwiftErr

/// Why a module cannot be written as a Swift enum.
struct SwiftGenerationError: Error {
    var message: String
}

/// Writes the Swift enum of each module of one catalog.
struct SwiftSourceGenerator {
    let definition: CatalogDefinition

    /// The raw value of the `other` case: the seeds' client-side sentinel.
    static let sentinel: Int64 = -99999

    /// One generated file per module, in module order: (type name, source text).
    /// - Throws: `SwiftGenerationError` when a module lists a case named `other`, the
    ///   sentinel code -99999, or a code that does not fit in `Int`.
    func generateFiles() throws(SwiftGenerationError) -> [(typeName: String, source: String)] {
        var files: [(typeName: String, source: String)] = []
        for (index, module) in definition.modules.enumerated() {
            files.append((SwiftLiteral.typeName(module: module.name), try generate(module, id: index + 1)))
        }
        return files
    }

    /// The source of one module's enum.
    func generate(_ module: ModuleDefinition, id: Int) throws(SwiftGenerationError) -> String {
        for entry in module.codes {
            if entry.name == "other" {
                throw SwiftGenerationError(message: "module \"\(module.name)\" has an entry named \"other\", the name of the generated fallback case")
            }
            if entry.code == SwiftSourceGenerator.sentinel {
                throw SwiftGenerationError(message: "module \"\(module.name)\" lists code \(entry.code), the raw value of the generated fallback case")
            }
            if Int(exactly: entry.code) == nil {
                throw SwiftGenerationError(message: "code \(entry.code) of module \"\(module.name)\" does not fit in Int")
            }
        }
        let type = SwiftLiteral.typeName(module: module.name)
        let titleText = module.title.simplifiedChinese.map { "\(module.title.english) / \($0)" } ?? module.title.english
        let rangeText = module.ranges.map { "`\($0.lowerBound)...\($0.upperBound)`" }.joined(separator: ", ")
        let rangeValue = module.ranges.map { "\($0.lowerBound)...\($0.upperBound)" }.joined(separator: ", ")
        let builtIn = definition.name == "default"
        var out = ""
        out += "/// The codes of the \(SwiftLiteral.docLine(definition.name)) catalog's `\(module.name)` module (\(SwiftLiteral.docLine(titleText))),\n"
        out += "/// owning \(rangeText).\n"
        out += "///\n"
        out += "/// Each case's raw value is the server code. A code inside the range that the module does\n"
        out += "/// not list is ``other``, whose raw value `-99999` is the seeds' client-side sentinel, never a\n"
        if builtIn {
            out += "/// server code. Classified through ``ResponseCatalog/builtIn`` (`errcore_default_table()`,\n"
            out += "/// module id \(id)).\n"
        } else {
            out += "/// server code.\n"
        }
        out += "public enum \(type): Int, ModuleCode {\n"
        for entry in module.codes {
            out += "    /// \(SwiftLiteral.docLine(entry.message.english)) (`\(entry.code)`)\n"
            out += "    case \(SwiftLiteral.identifier(entry.name)) = \(entry.code)\n"
        }
        out += "    /// A code in the module's range that this version does not list.\n"
        out += "    case other = -99999\n\n"
        out += "    /// `\"\(module.name)\"`\n"
        out += "    public static var moduleName: String { \(SwiftLiteral.string(module.name)) }\n"
        out += "    /// \(SwiftLiteral.docLine(titleText))\n"
        out += "    public static var moduleTitle: LocalizedText { \(SwiftLiteral.localizedText(module.title)) }\n"
        out += "    /// \(rangeText)\n"
        out += "    public static var codeRanges: [ClosedRange<Int64>] { [\(rangeValue)] }\n"
        out += "    /// ``other``\n"
        out += "    @inlinable\n"
        out += "    public static var unrecognised: Self { .other }\n"
        if builtIn {
            // Other catalogs' modules use ModuleCode's default classifier (the module registry).
            out += "    /// Classified through ``ResponseCatalog/builtIn``, the C core's static default table.\n"
            out += "    public static let classifier = ModuleClassifier<Self>(catalog: .builtIn)\n"
        }
        out += "\n"
        out += switchProperty("The case's catalog identifier (the case name).", "name: String", module.codes,
                              other: "\"other\"") { SwiftLiteral.string($0.name) }
        out += "\n"
        out += switchProperty("The case's catalog flags.", "flags: CodeFlags", module.codes,
                              other: "[]") { SwiftLiteral.flags($0.flags) }
        out += "\n"
        out += switchProperty("The case's catalog message.", "message: LocalizedText", module.codes,
                              other: "Self.unrecognisedMessage") { SwiftLiteral.localizedText($0.message) }
        out += "}\n"
        return out
    }

    /// A computed property that switches over the cases: one `case` per entry, then `.other`.
    private func switchProperty(_ doc: String, _ signature: String, _ entries: [EntryDefinition],
                                       other: String, value: (EntryDefinition) -> String) -> String {
        var out = "    /// \(doc)\n"
        out += "    public var \(signature) {\n"
        out += "        switch self {\n"
        for entry in entries {
            out += "        case .\(SwiftLiteral.identifier(entry.name)): return \(value(entry))\n"
        }
        out += "        case .other: return \(other)\n"
        out += "        }\n"
        out += "    }\n"
        return out
    }
}
