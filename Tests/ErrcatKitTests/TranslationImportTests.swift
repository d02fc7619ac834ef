// `errcat import po` as a translator's workflow meets it: entries marked fuzzy and translations of
// texts the catalog no longer has are reported with their lines and left out (or, with --strict,
// stop the import), the catalog's flags keep the order its file gives them, and the files
// `errcat gen po` writes pass gettext's own checker, `msgfmt -c`.

import Foundation
import Testing

@Suite("errcat import po: fuzzy and outdated entries, flags as written; gen po under msgfmt -c")
struct TranslationImportTests {
    /// A folder with catalog/default.json as `catalog.json` (with the texts in `language` removed
    /// when `without` is set) and errcat's `.po` file of the default catalog for `language`.
    struct Workspace {
        var directory: URL
        var catalog: String
        var po: String
        var original: [UInt8]

        init(language: String) throws {
            directory = try ErrcatRunner.temporaryDirectory()
            catalog = directory.appendingPathComponent("catalog.json").path
            po = directory.appendingPathComponent("\(language).po").path
            original = try RepositoryBytes.read("catalog/default.json")
            try Data(original).write(to: URL(fileURLWithPath: catalog))
            let gen = try ErrcatRunner.run(["gen", "po", language, "catalog/default.json", "--output", po])
            #expect(gen.status == 0, "\(gen.errors)")
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        var poText: String {
            get throws { try String(contentsOfFile: po, encoding: .utf8) }
        }

        func write(po text: String) throws { try text.write(toFile: po, atomically: true, encoding: .utf8) }

        /// The catalog file as it is now, parsed.
        func catalogJSON() throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: catalog))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }

        /// The `language` message of the base entry with `code` in the catalog file as it is now.
        func baseMessage(_ code: Int, _ language: String) throws -> String? {
            let base = try #require(try catalogJSON()["base"] as? [[String: Any]])
            let entry = try #require(base.first { $0["code"] as? Int == code })
            return (entry["message"] as? [String: String])?[language]
        }
    }

    /// The 1-based number of the first line of `text` equal to `line`.
    static func lineNumber(of line: String, in text: String) throws -> Int {
        let lines = text.components(separatedBy: "\n")
        return try #require(lines.firstIndex(of: line), "no line \(line)") + 1
    }

    /// `text` with `old` replaced once (the test fails when it is not there).
    static func replacing(_ old: String, with new: String, in text: String) throws -> String {
        let range = try #require(text.range(of: old), "no \(old)")
        return text.replacingCharacters(in: range, with: new)
    }

    /// The entry of `code` as errcat gen po writes it, up to the opening quote of its msgstr.
    static func entry(_ code: Int, _ english: String) -> String {
        "msgctxt \"code \(code)\"\nmsgid \"\(english)\"\nmsgstr \""
    }

    static let english11002 = "The verification code has expired. Request a new one."
    static let english11003 = "The verification code is incorrect."
    static let english11004 = "Automatic sign-in failed. Please sign in again."

    @Test("a fuzzy entry is reported with its line and msgctxt and not imported; the other entries are")
    func fuzzyEntry() throws {
        let space = try Workspace(language: "hi")
        defer { space.remove() }
        var text = try space.poText
        // Translations the catalog does not have yet, one of them marked fuzzy (among other flags).
        text = try Self.replacing(
            Self.entry(11002, Self.english11002), with: Self.entry(11002, Self.english11002) + "नया 11002: ", in: text)
        text = try Self.replacing(
            Self.entry(11003, Self.english11003),
            with: "#, c-format, fuzzy\n" + Self.entry(11003, Self.english11003) + "नया 11003: ", in: text)
        // An obsolete entry marked fuzzy: its flag stays with it, the entry after it is imported.
        text = try Self.replacing(
            "#. base autoLoginFailed\n",
            with:
                "#, fuzzy\n#~ msgctxt \"code 11999\"\n#~ msgid \"Gone\"\n#~ msgstr \"गया\"\n\n#. base autoLoginFailed\n",
            in: text)
        text = try Self.replacing(
            Self.entry(11004, Self.english11004), with: Self.entry(11004, Self.english11004) + "नया 11004: ", in: text)
        try space.write(po: text)
        let flagLine = try Self.lineNumber(of: "#, c-format, fuzzy", in: text)
        let old11003 = try #require(try space.baseMessage(11003, "hi"))

        let strict = try ErrcatRunner.run(["import", "po", space.po, space.catalog, "--strict"])
        #expect(strict.status == 1)
        #expect(
            strict.errorLines.first
                == "\(space.po):\(flagLine): warning: msgctxt \"code 11003\" is marked fuzzy: not imported (check the translation, then remove \"fuzzy\" from its #, line)"
        )
        #expect(strict.errorLines.last == "\(space.po): 1 warning, and --strict makes them errors; nothing written")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: space.catalog))) == space.original)

        let result = try ErrcatRunner.run(["import", "po", space.po, space.catalog])
        #expect(result.status == 0, "\(result.errors)")
        #expect(
            result.errorLines == [
                "\(space.po):\(flagLine): warning: msgctxt \"code 11003\" is marked fuzzy: not imported (check the translation, then remove \"fuzzy\" from its #, line)",
                "\(space.po): 1 warning; 38 entries imported, 1 not imported",
            ])
        #expect(try space.baseMessage(11003, "hi") == old11003)
        #expect(try space.baseMessage(11002, "hi")?.hasPrefix("नया 11002: ") == true)
        #expect(try space.baseMessage(11004, "hi")?.hasPrefix("नया 11004: ") == true)
    }

    @Test("an entry whose msgid is not the catalog's current text is reported with both texts and not imported")
    func outdatedEntry() throws {
        let space = try Workspace(language: "hi")
        defer { space.remove() }
        var text = try space.poText
        let current = "Your session has expired. Please sign in again."
        text = try Self.replacing(
            "msgid \"\(current)\"\nmsgstr \"", with: "msgid \"Your token has expired.\"\nmsgstr \"पुराना: ", in: text)
        text = try Self.replacing(
            Self.entry(11002, Self.english11002), with: Self.entry(11002, Self.english11002) + "नया 11002: ", in: text)
        try space.write(po: text)
        let idLine = try Self.lineNumber(of: "msgid \"Your token has expired.\"", in: text)
        let old11001 = try #require(try space.baseMessage(11001, "hi"))

        let result = try ErrcatRunner.run(["import", "po", space.po, space.catalog])
        #expect(result.status == 0, "\(result.errors)")
        #expect(
            result.errorLines == [
                "\(space.po):\(idLine): warning: msgctxt \"code 11001\" translates \"Your token has expired.\", but the catalog's en text is \"\(current)\": not imported (errcat gen po hi writes the catalog's texts)",
                "\(space.po): 1 warning; 38 entries imported, 1 not imported",
            ])
        #expect(try space.baseMessage(11001, "hi") == old11001)
        #expect(try space.baseMessage(11002, "hi")?.hasPrefix("नया 11002: ") == true)

        // A module title's outdated msgid is caught the same way.
        try Self.replacing(
            "msgctxt \"module studyGroup title\"\nmsgid \"Study group\"",
            with: "msgctxt \"module studyGroup title\"\nmsgid \"Study groups\"", in: try space.poText
        ).write(toFile: space.po, atomically: true, encoding: .utf8)
        let title = try ErrcatRunner.run(["import", "po", space.po, space.catalog, "--strict"])
        #expect(title.status == 1)
        #expect(
            title.errors.contains(
                "warning: msgctxt \"module studyGroup title\" translates \"Study groups\", but the catalog's en text is \"Study group\""
            ), "\(title.errors)")
    }

    @Test("#, lines inside an entry or with no entry after them are errors, with their lines")
    func misplacedFlags() throws {
        let space = try Workspace(language: "hi")
        defer { space.remove() }
        let text = try Self.replacing(
            "msgctxt \"code 11002\"\nmsgid", with: "msgctxt \"code 11002\"\n#, fuzzy\nmsgid", in: try space.poText)
        try space.write(po: text + "\n#, fuzzy\n")
        let inside = try Self.lineNumber(of: "#, fuzzy", in: text)
        let trailing = text.components(separatedBy: "\n").count + 1
        let result = try ErrcatRunner.run(["import", "po", space.po, space.catalog])
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "\(space.po):\(inside): error: a #, flags line inside an entry (it goes before the entry's msgctxt or msgid)",
                "\(space.po):\(trailing): error: a #, flags line with no entry after it",
                "\(space.po): 2 problems; nothing written",
            ])
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: space.catalog))) == space.original)
    }

    @Test("gen po then import po keeps each entry's flags in the order, and with the repeats, its file has")
    func flagOrder() throws {
        let space = try Workspace(language: "hi")
        defer { space.remove() }
        // catalog/default.json lists flags in canonical order; here two entries list them otherwise
        // and one names a flag twice.
        var json = String(decoding: space.original, as: UTF8.self)
        let canonical = "\"flags\": [\n        \"reauthenticate\",\n        \"showUser\"\n      ],"
        json = try Self.replacing(
            canonical, with: "\"flags\": [\n        \"showUser\",\n        \"reauthenticate\"\n      ],", in: json)
        json = try Self.replacing(
            canonical,
            with: "\"flags\": [\n        \"showUser\",\n        \"reauthenticate\",\n        \"showUser\"\n      ],",
            in: json)
        try json.write(toFile: space.catalog, atomically: true, encoding: .utf8)
        #expect(try ErrcatRunner.run(["check", "--quiet", space.catalog]).status == 0)

        let gen = try ErrcatRunner.run(["gen", "po", "zh-Hant", space.catalog, "--output", space.po])
        #expect(gen.status == 0, "\(gen.errors)")
        let imported = try ErrcatRunner.run(["import", "po", space.po, space.catalog])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(try String(contentsOfFile: space.catalog, encoding: .utf8) == json)
    }

    static let msgfmt = GeneratedSourceToolchain.onPath("msgfmt")

    @Test(
        "gen po for every language of the built-in catalog passes msgfmt -c --check-format without a warning",
        .enabled(if: msgfmt != nil, "gettext's msgfmt is not on PATH (Debian: apt-get install gettext)"),
        arguments: ["en", "zh-Hans", "zh-Hant", "hi"])
    func msgfmtCheck(language: String) async throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let po = directory.appendingPathComponent("\(language).po").path
        let gen = try ErrcatRunner.run(["gen", "po", language, "catalog/default.json", "--output", po])
        #expect(gen.status == 0, "\(gen.errors)")
        let checked = try await GeneratedSourceToolchain.run(
            try #require(Self.msgfmt), ["-c", "--check-format", "-o", "/dev/null", po], in: directory)
        #expect(checked.status == 0)
        #expect(checked.errors == "", "msgfmt -c on gen po \(language)")
        // The same catalog always gives the same file: gen po --check finds it up to date.
        let again = try ErrcatRunner.run(["gen", "po", language, "catalog/default.json", "--output", po, "--check"])
        #expect(again.status == 0, "\(again.errors)")
    }
}
