// Languages as BCP 47 tags: well-formedness, conventional case, the fallback chain, texts in any
// number of languages, and tables built with them through the C core.

import SwiftErrCore
import Testing

@Suite("Languages: tags, fallback and tables in any number of languages")
struct LanguageTests {
    @Test(
        "well-formed tags are accepted in conventional case; malformed ones are not",
        arguments: [
            ("en", "en"), ("ZH-hant-hk", "zh-Hant-HK"), ("pt-br", "pt-BR"), ("es-419", "es-419"),
            ("sr-latn-rs", "sr-Latn-RS"), ("HI", "hi"), ("de-DE-u-CO-phonebk", "de-DE-u-co-phonebk"),
        ])
    func wellFormed(tag: String, canonical: String) throws {
        let language = try #require(Language(tag: tag))
        #expect(language.tag == canonical)
        #expect(Language(rawValue: tag) == language)
    }

    @Test(
        "malformed tags give nil",
        arguments: ["", "e", "en_US", "en-", "-en", "en--US", "1a", "zh-Hans-toolongtag", "é"])
    func malformed(tag: String) {
        #expect(Language(tag: tag) == nil)
    }

    @Test("the built-in constants are their tags, and literals build languages")
    func constants() {
        #expect(Language.english.tag == "en" && Language.simplifiedChinese.tag == "zh-Hans")
        #expect(Language.traditionalChinese.tag == "zh-Hant" && Language.hindi.tag == "hi")
        let portuguese: Language = "pt-BR"
        #expect(portuguese == Language(tag: "PT-br"))
        #expect(Language(tag: "zh-hans") == .simplifiedChinese)
    }

    @Test("the fallback chain follows CLDR's parents: zh-Hant ends the chain, it never falls to zh")
    func chain() {
        #expect(Language(tag: "zh-Hant-HK")!.fallbackChain.map(\.tag) == ["zh-Hant-HK", "zh-Hant"])
        #expect(Language(tag: "zh-TW")!.fallbackChain.map(\.tag) == ["zh-Hant-TW", "zh-Hant"])
        #expect(Language(tag: "en-IN")!.fallbackChain.map(\.tag) == ["en-IN", "en-001", "en"])
        #expect(Language(tag: "zh")!.fallbackChain == [.simplifiedChinese])
        #expect(Language.english.fallbackChain == [.english])
    }

    @Test("a text falls back along the chain, then to the fallback language, then to English")
    func textFallback() {
        let text = LocalizedText(["pt-BR": "Olá", "zh-Hant": "你好", "zh": "你好呀", "en": "Hello"])
        #expect(text.text(in: "zh-Hant-TW") == "你好")
        #expect(text.text(in: "zh-TW") == "你好")
        #expect(text.text(in: "zh-Hans") == "你好呀")
        #expect(text.text(in: "zh-CN") == "你好呀")
        #expect(LocalizedText(["zh": "你好呀", "en": "Hello"]).text(in: "zh-Hant-HK") == "Hello")
        #expect(text.text(in: "pt") == "Hello")
        #expect(text.text(in: "pt-BR-u-ca-gregory") == "Olá")
        #expect(text.text(in: "fr", fallback: "pt-BR") == "Olá")
        #expect(text.text(in: "fr") == "Hello")
        #expect(LocalizedText(["hi": "नमस्ते"]).text(in: .english) == "")
        var english = LocalizedText(english: "Hi", simplifiedChinese: "嗨")
        english.simplifiedChinese = nil
        #expect(english.languages == [.english])
    }

    /// A catalog whose default language is Brazilian Portuguese, with texts missing here and there.
    static let portuguese = CatalogDefinition(
        name: "pt",
        success: EntryDefinition(
            code: 0, name: "success", message: LocalizedText(["pt-BR": "Tudo certo", "en": "OK"])),
        base: [
            EntryDefinition(
                code: 10, name: "late",
                message: LocalizedText(["pt-BR": "Atrasado", "zh-Hant": "遲到", "hi": "देर हो गई"]))
        ],
        modules: [
            ModuleDefinition(
                name: "shop", title: LocalizedText(["en": "Shop", "pt-BR": "Loja"]), ranges: [100...199],
                codes: [EntryDefinition(code: 150, name: "sold", message: LocalizedText(["pt-BR": "Esgotado"]))])
        ],
        languages: ["pt-BR", "en", "zh-Hant", "hi"])

    @Test("a table in four languages, the default not English, looks messages up with the same fallback")
    func tableLookups() throws {
        let catalog = try Catalog(Self.portuguese)
        #expect(catalog.languages.map(\.tag) == ["pt-BR", "en", "zh-Hant", "hi"])
        #expect(catalog.describe(10, in: "zh-Hant-HK") == "遲到")
        #expect(catalog.describe(10, in: .english) == "Atrasado")
        #expect(catalog.describe(10, in: "hi-IN") == "देर हो गई")
        #expect(catalog.describe(0, in: "en-GB") == "OK")
        #expect(catalog.describe(150, in: .hindi) == "Esgotado")
        #expect(catalog.moduleTitle(1, in: .hindi) == "Loja")
        #expect(catalog.describe(199, in: .english) == "Unrecognised Shop error (code 199)")
        // Read back exactly, language by language.
        #expect(catalog.definition == Self.portuguese)
    }

    @Test("a language a text uses but the list lacks is added after the listed ones")
    func unlistedLanguage() throws {
        var definition = Self.portuguese
        definition.languages = ["en"]
        #expect(definition.allLanguages.map(\.tag) == ["en", "pt-BR", "hi", "zh-Hant"])
        let catalog = try Catalog(definition)
        #expect(catalog.languages.first == .english)
        #expect(catalog.describe(150, in: .english) == "")  // no English text, and English is the default
        #expect(catalog.describe(150, in: "pt") == "")
        #expect(catalog.describe(150, in: "pt-BR") == "Esgotado")
    }

    @Test("a definition without a language list infers English first, then the languages in use")
    func inferred() {
        let definition = CatalogDefinition(
            name: "x", success: EntryDefinition(code: 0, name: "ok", message: LocalizedText(["hi": "ठीक", "en": "OK"])),
            base: [], modules: [])
        #expect(definition.languages == [.english, .hindi])
        #expect(CatalogDefinition.empty.languages == [.english, .simplifiedChinese])
    }
}
