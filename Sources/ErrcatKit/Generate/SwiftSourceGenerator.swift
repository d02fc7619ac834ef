// `errcat gen swift`: a catalog's base tier as `BaseCode` constants and its modules as
// `ModuleCode` enums, in two forms: one file each (Sources/SwiftErrDefaultCatalog/Generated/*.swift
// is this for catalog/default.json), or with `--installing` one file that also holds the catalog as
// Swift data, which its modules install as the process-wide catalog (the SwiftErrCatalogPlugin's
// output).

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

    /// Whether the catalog is the built-in one, whose modules (in the one-file-each form) classify
    /// through `Catalog.builtIn`, the static table of the `SwiftErrDefaultCatalog` product.
    private var isBuiltIn: Bool { definition.name == "default" }

    /// How a generated module enum is classified.
    private enum Classification {
        /// Through the process-wide catalog (SwiftErr's default `ModuleCode.classifier`): no
        /// `classifier` is written.
        case processCatalog
        /// Through `Catalog.builtIn`, the static default table.
        case builtInTable
        /// Through the process-wide catalog, installing the catalog type's definition first.
        case installing(catalogType: String)
    }

    /// The type that holds the catalog in the `--installing` form: `shop` gives `ShopCatalog`.
    var catalogType: String { GeneratedNames.catalogTypeName(catalog: definition.name) }

    /// The generated files in order: the base tier, then one per module, as (file name, source).
    /// - Throws: `SwiftGenerationError` when a name cannot be generated (``validate()``).
    func generateFiles() throws(SwiftGenerationError) -> [(fileName: String, source: String)] {
        try validate()
        var files = [
            (fileName: "BaseCode+\(SwiftLiteral.typeName(catalog: definition.name)).swift", source: generateBase())
        ]
        let classification: Classification = isBuiltIn ? .builtInTable : .processCatalog
        for (index, module) in definition.modules.enumerated() {
            files.append(
                (
                    SwiftLiteral.typeName(module: module.name) + ".swift",
                    banner + generate(module, id: index + 1, classification: classification)
                ))
        }
        return files
    }

    /// The `--installing` form, one source: the base tier, the catalog type (``catalogType``) with the
    /// catalog's definition and `install()`, and each module's enum, whose classifier installs that
    /// definition as the process-wide catalog on first use.
    /// - Throws: `SwiftGenerationError` when a name cannot be generated (``validate()``).
    func generateInstalling() throws(SwiftGenerationError) -> String {
        try validate(installing: true)
        var out = installingBanner
        out += generateBaseConstants()
        out += "\n"
        out += generateCatalogType()
        for (index, module) in definition.modules.enumerated() {
            out += "\n"
            out += generate(module, id: index + 1, classification: .installing(catalogType: catalogType))
        }
        return out
    }

    /// Checks the names the catalog file reader checks (``GeneratedNames``), for a definition
    /// that did not come from a file: every name an identifier, none reserved, no two module
    /// files that differ only in letter case.
    /// - Parameter installing: Also check the names of the `--installing` form (no case named like
    ///   the catalog type).
    /// - Throws: `SwiftGenerationError` naming the first name that cannot be generated.
    func validate(installing: Bool = false) throws(SwiftGenerationError) {
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
                if installing, entry.name == catalogType {
                    throw fail(
                        "module \(DisplayText.quoted(module.name)) has an entry named \(DisplayText.quoted(entry.name)), which in \(type) would hide the catalog type \(catalogType)"
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
        let allowed = auditAllowance(installing: false)
        for file in files {
            do {
                try GeneratedSourceAudit.checkSwift(
                    file.source, literals: allowed.literals, identifiers: allowed.identifiers)
            } catch {
                throw SwiftGenerationError(message: "internal error: \(file.fileName) fails the source audit: \(error)")
            }
        }
        return files
    }

    /// ``generateInstalling()``, after ``GeneratedSourceAudit`` has proved what
    /// ``generateFilesChecked()`` proves, with the words of the catalog type added and the catalog's
    /// name, success entry and base entries as its only further literals.
    /// - Throws: `SwiftGenerationError` when a name cannot be generated or the source fails the audit.
    func generateInstallingChecked() throws(SwiftGenerationError) -> String {
        let source = try generateInstalling()
        let allowed = auditAllowance(installing: true)
        do {
            try GeneratedSourceAudit.checkSwift(source, literals: allowed.literals, identifiers: allowed.identifiers)
        } catch {
            throw SwiftGenerationError(message: "internal error: the generated source fails the source audit: \(error)")
        }
        return source
    }

    /// What the audit lets generated Swift hold: as string literals, the texts the generator writes
    /// from the catalog; as identifiers, the generator's own words and the catalog's names.
    private func auditAllowance(installing: Bool) -> (literals: Set<[UInt8]>, identifiers: Set<String>) {
        var literals: Set<[UInt8]> = [Array(Self.fallbackCase.utf8)]
        var identifiers = GeneratedSourceAudit.swiftWords
        identifiers.formUnion(GeneratedNames.generatedModuleMembers.keys)
        func add(_ text: LocalizedText) {
            literals.insert(Array(text.english.utf8))
            for (language, value) in text.texts {
                literals.insert(Array(language.tag.utf8))
                literals.insert(Array(value.utf8))
            }
        }
        for language in definition.allLanguages {
            literals.insert(Array(language.tag.utf8))
        }
        for entry in definition.base {
            identifiers.insert(entry.name)
        }
        // String codes and namespaces: in module enums, and in the installing form's base entries.
        for entry in [definition.success] + definition.base + definition.modules.flatMap(\.codes) {
            if let string = entry.string { literals.insert(Array(string.utf8)) }
            if let namespace = entry.namespace { literals.insert(Array(namespace.utf8)) }
        }
        for module in definition.modules {
            literals.insert(Array(module.name.utf8))
            add(module.title)
            identifiers.insert(SwiftLiteral.typeName(module: module.name))
            for namespace in module.namespaces { literals.insert(Array(namespace.utf8)) }
            for entry in module.codes {
                literals.insert(Array(entry.name.utf8))
                add(entry.message)
                identifiers.insert(entry.name)
            }
        }
        if installing {
            identifiers.formUnion(GeneratedSourceAudit.swiftInstallingWords)
            identifiers.insert(catalogType)
            literals.insert(Array(definition.name.utf8))
            // Shapes: names, media types, header names, path keys and the values steps match.
            func addLocation(_ location: ShapeDefinition.Location?) {
                switch location {
                case .none: break
                case .header(let name): literals.insert(Array(name.utf8))
                case .body(let steps):
                    for step in steps {
                        switch step {
                        case .key(let key): literals.insert(Array(key.utf8))
                        case .index: break
                        case .firstWhere(let key, let value):
                            literals.insert(Array(key.utf8))
                            literals.insert(Array(value.utf8))
                        }
                    }
                }
            }
            for shape in definition.shapes {
                literals.insert(Array(shape.name.utf8))
                if let contentType = shape.contentType { literals.insert(Array(contentType.utf8)) }
                for location in [shape.code, shape.secondary, shape.message, shape.payload] + shape.fallbackCodes {
                    addLocation(location)
                }
                if case .string(let text)? = shape.defaultCode { literals.insert(Array(text.utf8)) }
                if case .location(let place) = shape.namespace { addLocation(place) }
                switch shape.failure {
                case .flag(let place, _), .present(let place): addLocation(place)
                case .status, .code: break
                }
            }
            for entry in [definition.success] + definition.base {
                literals.insert(Array(entry.name.utf8))
                add(entry.message)
            }
        }
        return (literals, identifiers)
    }

    /// The banner every generated file of the one-file-each form starts with, and its import: the
    /// built-in catalog's modules need only SwiftErrCore (they build as Embedded Swift), other
    /// catalogs' modules SwiftErr, whose process-wide catalog classifies them.
    private var banner: String {
        "// GENERATED by `errcat gen swift` from \(SwiftLiteral.docLine(sourcePath)) (catalog \(SwiftLiteral.string(definition.name))).\n"
            + "// Do not edit: change the catalog and regenerate (a test fails on drift).\n"
            + "// swift-format-ignore-file\n\n"
            + "import \(isBuiltIn ? "SwiftErrCore" : "SwiftErr")\n\n"
    }

    /// The banner of the `--installing` form, with the import its code needs, re-exported: an app
    /// that imports the target holding its catalog needs no `import SwiftErr` of its own.
    private var installingBanner: String {
        "// GENERATED by `errcat gen swift --installing` from \(SwiftLiteral.docLine(sourcePath)) (catalog \(SwiftLiteral.string(definition.name))).\n"
            + "// Do not edit: change the catalog file; the SwiftErrCatalogPlugin writes this file again when it changes.\n"
            + "// swift-format-ignore-file\n\n"
            + "// Re-exported: importing the target that holds the catalog gives SwiftErr's API too.\n"
            + "@_exported import SwiftErr\n\n"
    }

    /// The base tier as static `BaseCode` constants, one file.
    func generateBase() -> String {
        banner + generateBaseConstants()
    }

    /// The `extension BaseCode` with one static constant per base entry.
    private func generateBaseConstants() -> String {
        var out = "extension BaseCode {\n"
        for (index, entry) in definition.base.enumerated() {
            if index > 0 { out += "\n" }
            out += "    /// \(SwiftLiteral.docLine(entry.message.english))\n"
            out += "    ///\n"
            // Code font, not a symbol link: generated sources live outside SwiftErrCore, where
            // DocC does not resolve its symbols.
            let flags = entry.flags.names.map { "`CodeFlags.\($0)`" }
            out += "    /// Code `\(entry.code)`\(flags.isEmpty ? "" : "; flags: " + flags.joined(separator: ", ")).\n"
            out += "    public static let \(SwiftLiteral.identifier(entry.name)) = BaseCode(rawValue: \(entry.code))\n"
        }
        out += "}\n"
        return out
    }

    /// The catalog type of the `--installing` form: the catalog's definition (its success entry and
    /// base tier as data, its modules from their enums) and `install()`.
    private func generateCatalogType() -> String {
        let name = SwiftLiteral.docLine(definition.name)
        var out = "/// The `\(name)` catalog as Swift data: its success code, its base tier and its modules.\n"
        out += "///\n"
        out += "/// Install it at start-up with ``install()``; the module enums below install it on their first use\n"
        out += "/// anyway. The C core builds the catalog's table from ``definition`` then, once.\n"
        out += "public enum \(catalogType) {\n"
        out += "    /// The catalog as its file defines it; each module's part comes from its enum.\n"
        out += "    public static let definition = CatalogDefinition(\n"
        out += "        name: \(SwiftLiteral.string(definition.name)),\n"
        out += "        success: \(entryExpression(definition.success)),\n"
        if definition.base.isEmpty {
            out += "        base: [],\n"
        } else {
            out += "        base: [\n"
            for entry in definition.base {
                out += "            \(entryExpression(entry)),\n"
            }
            out += "        ],\n"
        }
        let modules = definition.modules.map { SwiftLiteral.typeName(module: $0.name) + ".definition" }
        out += "        modules: [\(modules.joined(separator: ", "))],\n"
        let tags = definition.allLanguages.map { SwiftLiteral.string($0.tag) }
        if definition.shapes.isEmpty {
            out += "        languages: [\(tags.joined(separator: ", "))])\n\n"
        } else {
            out += "        languages: [\(tags.joined(separator: ", "))],\n"
            out += "        shapes: [\n"
            for shape in definition.shapes {
                out += "            \(SwiftLiteral.shape(shape)),\n"
            }
            out += "        ])\n\n"
        }
        out += "    /// Installs the catalog as the process-wide catalog (`Catalog.install(_:)`): call it once at\n"
        out += "    /// start-up, before the first classification.\n"
        out += "    /// - Returns: The process-wide catalog.\n"
        out += "    /// - Throws: `CatalogError` when another catalog is in use already.\n"
        out += "    @discardableResult\n"
        out += "    public static func install() throws(CatalogError) -> Catalog {\n"
        out += "        try Catalog.install(definition)\n"
        out += "    }\n"
        out += "}\n"
        return out
    }

    /// An `EntryDefinition(...)` expression.
    private func entryExpression(_ entry: EntryDefinition) -> String {
        var string = ""
        if let code = entry.string {
            string =
                ", string: \(SwiftLiteral.string(code)), namespace: \(entry.namespace.map(SwiftLiteral.string) ?? "nil")"
        }
        return
            "EntryDefinition(code: \(entry.code), name: \(SwiftLiteral.string(entry.name))\(string), flags: \(SwiftLiteral.flags(entry.flags)), message: \(SwiftLiteral.localizedText(entry.message)))"
    }

    /// The source of one module's enum (its names are checked by ``validate()``).
    private func generate(_ module: ModuleDefinition, id: Int, classification: Classification) -> String {
        let type = SwiftLiteral.typeName(module: module.name)
        let titleText = module.title.simplifiedChinese.map { "\(module.title.english) / \($0)" } ?? module.title.english
        let rangeText = module.ranges.map { "`\($0.lowerBound)...\($0.upperBound)`" }.joined(separator: ", ")
        let rangeValue = module.ranges.map { SwiftLiteral.range($0) }.joined(separator: ", ")
        var out = ""
        out +=
            "/// The codes of the \(SwiftLiteral.docLine(definition.name)) catalog's `\(SwiftLiteral.docLine(module.name))` module (\(SwiftLiteral.docLine(titleText))),\n"
        out += "/// owning \(rangeText).\n"
        out += "///\n"
        out += "/// A code inside the module's ranges that it does not list is ``other(_:)``, which carries the\n"
        switch classification {
        case .builtInTable:
            out +=
                "/// server's number. Classified through ``SwiftErrCore/Catalog/builtIn`` (`errcore_default_table()`,\n"
            out += "/// module id \(id)).\n"
        case .processCatalog:
            out += "/// server's number.\n"
        case .installing(let catalogType):
            out += "/// server's number. Classified through the process-wide catalog, which its first use installs\n"
            out += "/// (``\(catalogType)/install()``).\n"
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
        switch classification {
        case .builtInTable:
            out += "    /// Classified through ``SwiftErrCore/Catalog/builtIn``, the C core's static default table.\n"
            out += "    public static let classifier = ModuleClassifier<Self>(catalog: .builtIn)\n"
        case .processCatalog:
            // SwiftErr's default classifier: the process-wide catalog.
            break
        case .installing(let catalogType):
            out += "    /// Classified through the process-wide catalog, with ``\(catalogType)`` installed.\n"
            out += "    public static let classifier = ModuleClassifier<Self>(installing: \(catalogType).definition)\n"
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
        let strings = module.codes.filter { $0.string != nil }
        if !module.namespaces.isEmpty || !strings.isEmpty {
            out += "\n"
            out += "    /// The string namespaces the module owns.\n"
            out +=
                "    public static var stringNamespaces: [String] { [\(module.namespaces.map(SwiftLiteral.string).joined(separator: ", "))] }\n"
            out += "\n"
            out += optionalSwitchProperty("The case's string code.", "stringCode", strings) { $0.string }
            out += "\n"
            out += optionalSwitchProperty("The namespace of the case's string code.", "stringNamespace", strings) {
                $0.namespace
            }
        }
        out += "}\n"
        return out
    }

    /// A computed `String?` property that switches over the cases with a value: one `case` each,
    /// then `default` (`.other` and the cases without one) giving `nil`.
    private func optionalSwitchProperty(
        _ doc: String, _ name: String, _ entries: [EntryDefinition], value: (EntryDefinition) -> String?
    ) -> String {
        var out = "    /// \(doc)\n"
        out += "    public var \(name): String? {\n"
        out += "        switch self {\n"
        for entry in entries {
            out +=
                "        case .\(SwiftLiteral.identifier(entry.name)): return \(value(entry).map(SwiftLiteral.string) ?? "nil")\n"
        }
        out += "        default: return nil\n"
        out += "        }\n"
        out += "    }\n"
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
