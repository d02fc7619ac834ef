// `errcat check` on catalogs in any number of languages, as a user runs it: language problems are
// errors at their place; a text missing in a non-default language is a warning naming the code and
// the tag, and does not fail the check.

import Foundation
import Testing

@Suite("errcat check: languages")
struct CheckLanguageTests {
    @Test("a missing translation is a warning naming the code and the tag; the check passes")
    func missingTranslationWarns() throws {
        let catalog = """
            {"format": "swifterr-catalog/2", "name": "x", "languages": ["pt-BR", "en", "hi"],
             "success": {"code": 0, "name": "ok", "message": {"pt-BR": "Certo", "en": "OK", "hi": "ठीक"}},
             "base": [{"code": 5, "name": "late", "message": {"pt-BR": "Atrasado", "hi": "देर"}}],
             "modules": [{"name": "shop", "title": {"pt-BR": "Loja"}, "ranges": [[100, 199]], "codes": []}]}
            """
        let result = try ErrcatRunner.run(["check", "-"], stdin: Data(catalog.utf8))
        #expect(result.status == 0)
        #expect(result.output.contains("ok: catalog \"x\""))
        #expect(
            result.errors.split(separator: "\n").map(String.init) == [
                "-:3:11: warning: code 5 (late) has no \"en\" message",
                "-:4:14: warning: module \"shop\" has no \"en\" title",
                "-:4:14: warning: module \"shop\" has no \"hi\" title",
            ])
        // `errcat gen` (and so the SwiftErrCatalogPlugin's build) prints the same warnings, at the
        // same places, and still generates.
        for form in [["gen", "swift", "--installing", "-"], ["gen", "c", "-"], ["gen", "swift", "-"]] {
            let generated = try ErrcatRunner.run(form, stdin: Data(catalog.utf8))
            #expect(generated.status == 0, "\(form)")
            #expect(!generated.output.isEmpty, "\(form)")
            #expect(generated.errors == result.errors, "\(form)")
        }
    }

    @Test("errcat gen reports a problem with every place errcat check names: the entry and the one it repeats")
    func generatorNamesRelatedPlace() throws {
        let catalog = """
            {"format": "swifterr-catalog/2", "name": "x", "languages": ["en"],
             "success": {"code": 0, "name": "ok", "message": {"en": "OK"}},
             "base": [{"code": 5, "name": "late", "message": {"en": "Late"}},
                      {"code": 5, "name": "later", "message": {"en": "Later"}}]}
            """
        let check = try ErrcatRunner.run(["check", "-"], stdin: Data(catalog.utf8))
        let problem = "-:4:20: error: duplicate code 5: base entry \"later\" repeats base entry \"late\" (see -:3:20)"
        #expect(check.status == 1)
        #expect(check.errors.split(separator: "\n").first.map(String.init) == problem)
        for form in [
            ["gen", "swift", "--installing", "-"], ["gen", "c", "-"], ["diff", "-", "catalog/default.json"],
        ] {
            let run = try ErrcatRunner.run(form, stdin: Data(catalog.utf8))
            #expect(run.status != 0, "\(form)")
            #expect(run.output.isEmpty, "\(form)")
            #expect(run.errors.split(separator: "\n").first.map(String.init) == problem, "\(form)")
        }
    }

    @Test("the default catalog has every text in all four languages: no warning")
    func defaultCatalogComplete() throws {
        let result = try ErrcatRunner.run(["check", "catalog/default.json"])
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
    }

    @Test("malformed and duplicate tags, unlisted languages and a missing default text are errors with places")
    func languageErrors() throws {
        let catalog = """
            {"format": "swifterr-catalog/2", "name": "x", "languages": ["en", "zh_Hans", "EN", "hi"],
             "success": {"code": 0, "name": "ok", "message": {"en": "OK", "fr": "Bien", "HI": "a", "hi": "b"}},
             "base": [{"code": 5, "name": "late", "message": {"hi": "देर"}}]}
            """
        let result = try ErrcatRunner.run(["check", "-"], stdin: Data(catalog.utf8))
        #expect(result.status == 1)
        let lines = result.errors.split(separator: "\n").map(String.init)
        let expected = [
            "-:1:67: error: malformed language tag \"zh_Hans\" in \"languages\"",
            "-:1:78: error: language \"EN\" appears twice in \"languages\" (tags ignore case) (see -:1:61)",
            "-:2:63: error: language \"fr\" of the message of entry \"ok\" is not in the catalog's \"languages\" (en, hi)",
            "-:2:88: error: language \"hi\" appears twice in the message of entry \"ok\" (tags ignore case) (see -:2:77)",
            "-:3:50: error: the message of entry \"late\" has no \"en\" (the default language)",
            "-: 5 problems",
        ]
        #expect(lines.count == expected.count, "\(lines)")
        for (line, prefix) in zip(lines, expected) {
            #expect(line.hasPrefix(prefix), "\(line)")
        }
    }

    @Test("a swifterr-catalog/1 file still loads; \"languages\" needs format 2")
    func firstFormat() throws {
        let result = try ErrcatRunner.run(["check", "Tests/Fixtures/small-catalog.json"])
        #expect(result.status == 0)
        let withList = """
            {"format": "swifterr-catalog/1", "name": "x", "languages": ["en"],
             "success": {"code": 0, "name": "ok", "message": {"en": "OK"}}}
            """
        let rejected = try ErrcatRunner.run(["check", "-"], stdin: Data(withList.utf8))
        #expect(rejected.status == 1)
        #expect(rejected.errors.contains("-:1:60: error: \"languages\" needs format \"swifterr-catalog/2\""))
    }

    @Test("explain --lang takes any tag and resolves it by the language rule; a malformed tag is a usage error")
    func explainLanguages() throws {
        for tag in ["zh-Hant-TW", "zh-TW", "zh-HK", "zh-MO"] {
            let hant = try ErrcatRunner.run(["explain", "--lang", tag, "11001"])
            #expect(hant.status == 0)
            #expect(hant.output.contains("登入狀態已過期,請重新登入。"), "\(tag)")
        }
        let hans = try ErrcatRunner.run(["explain", "--lang", "zh-CN", "11001", "11219999"])
        #expect(hans.output.contains("登录已过期,请重新登录。"))
        #expect(hans.output.contains("未识别的学习小组错误(错误码 11219999)"))
        let hindi = try ErrcatRunner.run(["explain", "--lang", "hi", "11001"])
        #expect(hindi.output.contains("आपका सत्र समाप्त हो गया है।"))
        let french = try ErrcatRunner.run(["explain", "--lang", "fr-FR", "11001"])
        #expect(french.output.contains("Your session has expired."))
        let bad = try ErrcatRunner.run(["explain", "--lang", "zh_TW", "11001"])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("malformed language tag 'zh_TW'"))
    }
}
