// Translators' files: `errcat gen po` / `errcat import po` lose nothing in a round trip, the
// catalog writer writes back what the reader read, and `errcat gen xcstrings` holds every text in
// every language. A property test over the random hostile catalogs of the gen property test (with
// texts in further languages, some missing), and the whole path as a user drives it, errcat as a
// process on the default catalog.

import Foundation
import Testing

@testable import ErrcatKit
@testable import SwiftErr
@testable import SwiftErrCatalogFile

@Suite("errcat gen po / import po / gen xcstrings: round trips")
struct TranslationRoundTripTests {
    static let seed = UInt64(ProcessInfo.processInfo.environment["ERRCAT_PROPERTY_SEED"] ?? "") ?? 1
    static let extraLanguages: [Language] = ["zh-Hant", "hi", "pt-BR", "sr-Latn-RS"]

    /// Random catalog `number` with random texts in the extra languages, about a third missing.
    static func catalog(_ number: Int, generator: inout HostileCatalogGenerator, random: inout SplitMix64)
        -> CatalogDefinition
    {
        var definition = generator.catalog(number: number).definition
        let languages = extraLanguages.filter { _ in random.below(2) == 0 }
        func translate(_ text: inout LocalizedText) {
            for language in languages where random.below(3) != 0 {
                // The source text reversed, so texts differ by language and keep its hostile pieces.
                text[language] = String(text.english.reversed()) + " (\(language.tag))"
            }
        }
        translate(&definition.success.message)
        for index in definition.base.indices { translate(&definition.base[index].message) }
        for module in definition.modules.indices {
            translate(&definition.modules[module].title)
            for index in definition.modules[module].codes.indices {
                translate(&definition.modules[module].codes[index].message)
            }
        }
        definition.languages = definition.allLanguages
        return definition
    }

    /// `definition` with each text in `language` replaced by `transform(msgctxt, text)`.
    static func mapping(
        _ language: Language, in definition: CatalogDefinition, _ transform: (String, String?) -> String?
    ) -> CatalogDefinition {
        var copy = definition
        func map(_ text: inout LocalizedText, _ context: String) { text[language] = transform(context, text[language]) }
        map(&copy.success.message, "code \(copy.success.code)")
        for index in copy.base.indices { map(&copy.base[index].message, "code \(copy.base[index].code)") }
        for module in copy.modules.indices {
            map(&copy.modules[module].title, "module \(copy.modules[module].name) title")
            for index in copy.modules[module].codes.indices {
                map(&copy.modules[module].codes[index].message, "code \(copy.modules[module].codes[index].code)")
            }
        }
        return copy
    }

    /// `definition` without its texts in `language` (its language list unchanged).
    static func stripping(_ language: Language, from definition: CatalogDefinition) -> CatalogDefinition {
        var copy = definition
        copy.success.message[language] = nil
        for index in copy.base.indices { copy.base[index].message[language] = nil }
        for module in copy.modules.indices {
            copy.modules[module].title[language] = nil
            for index in copy.modules[module].codes.indices {
                copy.modules[module].codes[index].message[language] = nil
            }
        }
        return copy
    }

    @Test("random catalogs: write/read, gen po/import po for every language, and xcstrings keep every text")
    func randomCatalogs() throws {
        var generator = HostileCatalogGenerator(seed: Self.seed)
        var random = SplitMix64(seed: Self.seed ^ 0x5EED)
        var texts = 0
        var leftOutTotal = 0
        for number in 0..<24 {
            let definition = Self.catalog(number, generator: &generator, random: &random)
            let context = "seed \(Self.seed), catalog \(number)"

            // The catalog writer: what the reader reads back is the definition.
            let json = CatalogJSONWriter.text(definition)
            let read = try CatalogDefinition(json: Array(json.utf8))
            #expect(read == definition, "\(context): written and read back")

            // Each language but the default through a .po file into the catalog without it.
            for language in definition.languages.dropFirst() {
                let po = POFile.text(definition, language: language)
                let parsed = try POFile.parse(po)
                #expect(parsed.language == language.tag, "\(context)")
                let imported = POFile.apply(
                    parsed, language: language, to: Self.stripping(language, from: definition))
                #expect(imported.problems.isEmpty, "\(context): \(language): \(imported.problems)")
                #expect(imported.definition == definition, "\(context): \(language) through a .po file")
                texts += parsed.entries.count

                // The same file with new translations, some entries marked fuzzy, some translating
                // another text, some both, into the catalog as it is: exactly those are left out,
                // each with one warning per reason; the others replace the catalog's texts.
                var fuzzy: Set<String> = []
                var outdated: Set<String> = []
                for unit in TranslationUnit.all(in: definition) {
                    switch random.below(12) {
                    case 0: fuzzy.insert(unit.context)
                    case 1: outdated.insert(unit.context)
                    case 2:
                        fuzzy.insert(unit.context)
                        outdated.insert(unit.context)
                    default: break
                    }
                }
                let fuzzyLines = Set(fuzzy.map { "msgctxt \(POFile.quoted($0))" })
                let marked = po.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
                    fuzzyLines.contains(String(line)) ? ["#, fuzzy", String(line)] : [String(line)]
                }
                var changed = try POFile.parse(marked.joined(separator: "\n"))
                for index in changed.entries.indices {
                    changed.entries[index].translation = "<" + changed.entries[index].translation + ">"
                    if outdated.contains(changed.entries[index].context ?? "") {
                        changed.entries[index].id += " (old)"
                    }
                }
                let partial = POFile.apply(changed, language: language, to: definition)
                let leftOut = fuzzy.union(outdated)
                leftOutTotal += leftOut.count
                #expect(partial.errors.isEmpty, "\(context): \(language): \(partial.errors)")
                #expect(partial.warnings.count == fuzzy.count + outdated.count, "\(context): \(language)")
                #expect(partial.leftOut == leftOut.count, "\(context): \(language)")
                #expect(partial.applied == changed.entries.count - leftOut.count, "\(context): \(language)")
                let expected = Self.mapping(language, in: definition) { unit, text in
                    leftOut.contains(unit) ? text : "<" + (text ?? "") + ">"
                }
                #expect(partial.definition == expected, "\(context): \(language), fuzzy and outdated entries")
            }

            // The String Catalog: every text of every language under its key, read with the
            // catalog reader's strict JSON parser (Foundation's drops a leading U+FEFF of a string).
            let xcstrings = XCStringsWriter.text(definition)
            let root = try Array(xcstrings.utf8).withUnsafeBytes { raw in try JSONTreeParser.parse(raw) }
            #expect(Self.members(root)["sourceLanguage"].flatMap(Self.string) == definition.languages.first?.tag)
            let strings = try #require(Self.members(root)["strings"].map(Self.members), "\(context)")
            let units = TranslationUnit.all(in: definition)
            #expect(strings.count == units.count, "\(context): one key per text")
            for unit in units {
                var found: [String: String] = [:]
                let entry: [String: JSONNode] = strings[XCStringsWriter.key(unit)].map(Self.members) ?? [:]
                let localizations: [String: JSONNode] = entry["localizations"].map(Self.members) ?? [:]
                for member in localizations {
                    let unit: [String: JSONNode] = Self.members(member.value)["stringUnit"].map(Self.members) ?? [:]
                    found[member.key] = unit["value"].flatMap(Self.string)
                }
                var expected: [String: String] = [:]
                for (language, text) in unit.text.texts { expected[language.tag] = text }
                #expect(found == expected, "\(context): \(unit.context)")
            }
        }
        #expect(texts > 0)
        #expect(leftOutTotal > 0, "no entry was marked fuzzy or outdated: the test tested nothing")
    }

    static func members(_ node: JSONNode) -> [String: JSONNode] {
        guard case .object(let list) = node.value else { return [:] }
        var result: [String: JSONNode] = [:]
        for member in list { result[member.key] = member.value }
        return result
    }

    static func string(_ node: JSONNode) -> String? {
        guard case .string(let text) = node.value else { return nil }
        return text
    }

    @Test("a language new to the catalog is added after its languages")
    func newLanguage() throws {
        let definition = try CatalogDefinition(json: try RepositoryBytes.read("catalog/default.json"))
        let po = POFile.text(definition, language: "fr").replacingOccurrences(
            of: "msgctxt \"code 11001\"\nmsgid \"Your session has expired. Please sign in again.\"\nmsgstr \"\"",
            with:
                "msgctxt \"code 11001\"\nmsgid \"Your session has expired. Please sign in again.\"\nmsgstr \"Votre session a expiré.\""
        )
        let result = POFile.apply(try POFile.parse(po), language: "fr", to: definition)
        #expect(result.problems.isEmpty)
        let imported = result.definition
        #expect(imported.languages.map(\.tag) == ["en", "zh-Hans", "zh-Hant", "hi", "fr"])
        #expect(imported.base.first?.message["fr"] == "Votre session a expiré.")
        #expect(imported.base.dropFirst().allSatisfy { $0.message["fr"] == nil })
    }

    @Test("catalog/default.json written back by the catalog writer is the same bytes")
    func writerKeepsTheDefaultCatalog() throws {
        let bytes = try RepositoryBytes.read("catalog/default.json")
        #expect(Array(CatalogJSONWriter.text(try CatalogDefinition(json: bytes)).utf8) == bytes)
    }

    @Test("errcat gen po hi, then errcat import po into the catalog without Hindi, gives back catalog/default.json")
    func processRoundTrip() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("errcat-po-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try RepositoryBytes.read("catalog/default.json")
        let withoutHindi = Self.stripping(.hindi, from: try CatalogDefinition(json: original))
        let catalog = directory.appendingPathComponent("catalog.json").path
        try CatalogJSONWriter.text(withoutHindi).write(toFile: catalog, atomically: true, encoding: .utf8)
        let po = directory.appendingPathComponent("hi.po").path

        let gen = try ErrcatRunner.run(["gen", "po", "hi", "catalog/default.json", "--output", po])
        #expect(gen.status == 0, "\(gen.errors)")
        let check = try ErrcatRunner.run(["check", catalog])
        #expect(check.errors.contains("warning: code 11001 (tokenExpire) has no \"hi\" message"))
        let imported = try ErrcatRunner.run(["import", "po", po, catalog])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: catalog))) == original)
    }

    @Test("a .po entry for a code the catalog does not have is reported with its line, and nothing is written")
    func unknownCode() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("errcat-po-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent("catalog.json").path
        let original = try RepositoryBytes.read("catalog/default.json")
        try Data(original).write(to: URL(fileURLWithPath: catalog))
        let po = directory.appendingPathComponent("hi.po").path
        let text = """
            msgid ""
            msgstr "Language: hi\\n"

            msgctxt "code 11001"
            msgid "Your session has expired. Please sign in again."
            msgstr "नया अनुवाद"

            msgctxt "code 99999"
            msgid "Gone"
            msgstr "गया"

            msgctxt "module nowhere title"
            msgid "Nowhere"
            msgstr "कहीं नहीं"
            """
        try text.write(toFile: po, atomically: true, encoding: .utf8)
        let result = try ErrcatRunner.run(["import", "po", po, catalog])
        #expect(result.status == 1)
        #expect(result.errors.contains("hi.po:8: error: the catalog has no code 99999"))
        #expect(result.errors.contains("hi.po:12: error: the catalog has no module \"nowhere\""))
        #expect(result.errors.contains("2 problems; nothing written"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: catalog))) == original)

        try "msgid \"\"\nmsgstr \"Language: hi\\n\"\n\nmsgctxt \"code 11001\"\nmsgid \"x\nmsgstr \"y\"\n"
            .write(toFile: po, atomically: true, encoding: .utf8)
        let broken = try ErrcatRunner.run(["import", "po", po, catalog])
        #expect(broken.status == 1)
        #expect(broken.errors.contains("hi.po:5: error: expected one string in double quotes"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: catalog))) == original)

        var invalid = Array("msgid \"\"\nmsgstr \"Language: hi\\n\"\n\nmsgctxt \"code 11001\"\n".utf8)
        invalid += Array("msgid \"x\"\nmsgstr \"".utf8) + [0xE0, 0x80] + Array("\"\n".utf8)
        try Data(invalid).write(to: URL(fileURLWithPath: po))
        let notUTF8 = try ErrcatRunner.run(["import", "po", po, catalog])
        #expect(notUTF8.status == 1)
        #expect(notUTF8.errors.contains("hi.po:6: error: invalid UTF-8 at byte \(invalid.count - 4); nothing written"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: catalog))) == original)
    }

    @Test("gen xcstrings of the default catalog: four languages for every key, English the source")
    func defaultXCStrings() throws {
        let result = try ErrcatRunner.run(["gen", "xcstrings", "catalog/default.json"])
        #expect(result.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(root["sourceLanguage"] as? String == "en")
        let strings = try #require(root["strings"] as? [String: [String: Any]])
        #expect(strings.count == 32 + 7)
        for (key, value) in strings {
            let localizations = value["localizations"] as? [String: Any]
            #expect(Set(localizations?.keys.map { $0 } ?? []) == ["en", "zh-Hans", "zh-Hant", "hi"], "\(key)")
        }
        let usage = try ErrcatRunner.run(["gen", "po", "zh_TW", "catalog/default.json"])
        #expect(usage.status == 2)
        #expect(usage.errors.contains("malformed language tag 'zh_TW'"))
    }
}

/// Bytes of a file of the repository.
enum RepositoryBytes {
    static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: ErrcatRunner.repositoryRoot.appendingPathComponent(path)))
    }
}
