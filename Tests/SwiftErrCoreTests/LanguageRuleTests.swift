// The one language rule seen from Swift: for a large generated set of tags and locale identifiers,
// Swift's `Language`, `LocalizedText` and `Catalog` answer exactly as the C core does when handed
// the raw text, and the built-in catalog answers Traditional and Simplified Chinese tags in their
// own script.

import CErrCore
import CErrDefaultCatalog
import SwiftErrCore
import SwiftErrDefaultCatalog
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("The language rule: Swift and C answer alike")
struct LanguageRuleTests {
    /// The catalog's languages (English the default), each entry's text "=<tag>".
    static let languages: [Language] = [
        "en", "zh-Hans", "zh-Hant", "hi", "pt", "pt-PT", "es", "es-419", "en-GB", "sr-Latn", "sr", "en-001",
        "zh-Hant-HK", "uz-Cyrl", "pa", "zh-TW", "ha",
    ]

    /// Entry 1 in every language; entry 2 in English, zh-Hant, es, pt-PT and sr only (others fall further).
    static let everywhere = LocalizedText(Dictionary(uniqueKeysWithValues: languages.map { ($0, "=" + $0.tag) }))
    static let some = LocalizedText(
        Dictionary(
            uniqueKeysWithValues: ["en", "zh-Hant", "es", "pt-PT", "sr"].map { (Language(stringLiteral: $0), "=" + $0) }
        ))

    static let definition = CatalogDefinition(
        name: "rule",
        success: EntryDefinition(code: 0, name: "ok", message: LocalizedText(["en": "OK"])),
        base: [
            EntryDefinition(code: 1, name: "everywhere", message: everywhere),
            EntryDefinition(code: 2, name: "some", message: some),
        ],
        modules: [], languages: languages)

    /// Tags and identifiers from every combination of languages, scripts, regions, letter case and
    /// endings (extensions, private use, POSIX codesets and modifiers, malformed tails).
    static var generated: [String] {
        let languages = ["en", "zh", "sr", "pt", "es", "hi", "uz", "pa", "ha", "de", "cmn", "iw"]
        let scripts = ["", "Latn", "Cyrl", "Hans", "Hant", "Arab", "Deva", "Guru"]
        let regions = [
            "", "US", "GB", "IN", "TW", "HK", "MO", "CN", "SG", "BR", "PT", "AO", "MX", "419", "001", "ME", "PK",
        ]
        var tags: [String] = []
        for language in languages {
            for script in scripts {
                for region in regions {
                    let parts = [language, script, region].filter { !$0.isEmpty }
                    let tag = parts.joined(separator: "-")
                    tags.append(tag)
                    tags.append(ascii(tag, upper: true))
                    tags.append(ascii(tag, upper: false))
                    tags.append(parts.joined(separator: "_") + ".UTF-8")
                    tags.append(parts.joined(separator: "_") + "@latin")
                    tags.append(tag + "-u-ca-buddhist")
                    tags.append(tag + "-x-private")
                }
            }
            tags += [
                language + "_RS@latin", language + "@cyrillic", language + "_IN.UTF-8@devanagari", language + "-",
                language + "-US-!", language + "-yue-HK", ascii(language, upper: true) + "_tw",
            ]
        }
        return tags + ["", "C", "POSIX", "C.UTF-8", "x-private", "i-klingon", "é", "en US", "-en"]
    }

    /// `text` with its ASCII letters in one case.
    static func ascii(_ text: String, upper: Bool) -> String {
        String(
            decoding: text.utf8.map { byte in
                let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                return letter ? (upper ? byte & ~0x20 : byte | 0x20) : byte
            }, as: UTF8.self)
    }

    /// The C core's answer for the raw text: its chain.
    static func cChain(_ raw: String) -> [String] {
        var chain: [String] = []
        raw.withCString { wanted in
            while true {
                var buffer = [CChar](repeating: 0, count: Int(ERRCORE_MAX_TAG_LENGTH) + 1)
                let n = errcore_language_fallback(wanted, chain.count, &buffer, buffer.count)
                if n == 0 { break }
                chain.append(String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return chain
    }

    @Test("every generated tag: chain, choice, LocalizedText and Catalog agree with the C core on the raw text")
    func swiftAgreesWithC() throws {
        let catalog = try Catalog(Self.definition)
        let tags = Self.languages.map { $0.tag }
        let one = try #require(catalog.classify(1).entryIndex)
        let two = try #require(catalog.classify(2).entryIndex)
        var checked = 0
        var disagreements: [String] = []
        for raw in Self.generated {
            let language = Language.matching(identifier: raw)
            // The raw text straight to C, and through Swift's Language.
            let chain = Self.cChain(raw)
            let cIndex = raw.withCString { wanted in
                tags.withCStringArray { errcore_language_choose($0, tags.count, wanted) }
            }
            let cOne = raw.withCString { String(cString: errcore_message_for_tag(catalog.pointer, 1, $0)) }
            let cTwo = raw.withCString { String(cString: errcore_message_for_tag(catalog.pointer, 2, $0)) }
            let named = !chain.isEmpty
            var agree = true
            // A text that names no language is English to Swift (matching's fallback), the default to C.
            agree = agree && (named ? language.fallbackChain.map { $0.tag } == chain : language == .english)
            if named {
                let chosen = language.bestMatch(in: Self.languages)
                agree = agree && chosen?.tag == ((0..<tags.count).contains(cIndex) ? tags[cIndex] : nil)
                agree = agree && Self.everywhere.text(in: language) == cOne && Self.some.text(in: language) == cTwo
                agree = agree && catalog.entryMessage(at: one, in: language) == cOne
                agree = agree && catalog.entryMessage(at: two, in: language) == cTwo
            } else {
                agree = agree && cOne == "=en" && cTwo == "=en" && !(0..<tags.count).contains(cIndex)
            }
            if !agree { disagreements.append(raw) }
            checked += 1
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagree, such as \(disagreements.prefix(10))")
        #expect(checked > 10_000)
    }

    @Test(
        "chosen languages for tags, as CLDR's parents say",
        arguments: [
            ("zh-TW", "zh-TW"), ("zh-Hant-TW", "zh-TW"), ("zh-HK", "zh-Hant-HK"), ("zh-MO", "zh-Hant-HK"),
            ("zh-Hant-MO", "zh-Hant-HK"), ("zh-CN", "zh-Hans"), ("zh", "zh-Hans"), ("zh-SG", "zh-Hans"),
            ("pt-BR", "pt"), ("pt-AO", "pt-PT"), ("en-IN", "en-001"), ("en-GB", "en-GB"), ("es-MX", "es-419"),
            ("es-AR", "es-419"), ("sr-Latn-RS", "sr-Latn"), ("sr-ME", "sr-Latn"), ("sr-RS", "sr"), ("hi_IN", "hi"),
            ("ha-Arab-NG", "en"), ("pa-PK", "en"), ("fr-FR", "en"),
        ])
    func chosen(raw: String, expected: String) throws {
        let catalog = try Catalog(Self.definition)
        let index = try #require(catalog.classify(1).entryIndex)
        #expect(catalog.entryMessage(at: index, in: Language.matching(identifier: raw)) == "=" + expected)
    }

    @Test("the built-in catalog answers zh-TW in Traditional Chinese and zh-CN in Chinese only")
    func builtInChinese() throws {
        let catalog = Catalog.builtIn
        let index = try #require(catalog.classify(11001).entryIndex)
        let traditional = try #require(catalog.entryMessage(at: index, in: .traditionalChinese))
        let simplified = try #require(catalog.entryMessage(at: index, in: .simplifiedChinese))
        #expect(traditional != simplified)
        for tag in ["zh-TW", "zh-HK", "zh-MO", "zh_TW.UTF-8"] {
            #expect(catalog.entryMessage(at: index, in: Language.matching(identifier: tag)) == traditional)
            #expect(catalog.describe(11001, in: Language.matching(identifier: tag)) == traditional)
        }
        let c = "zh-TW".withCString { String(cString: errcore_message_for_tag(errcore_default_table(), 11001, $0)) }
        #expect(c == traditional)
        for tag in ["zh-CN", "zh", "zh-SG", "zh_CN.UTF-8"] {
            let language = Language.matching(identifier: tag)
            #expect(catalog.entryMessage(at: index, in: language) == simplified)
            let description = catalog.describe(11_219_999, in: language)
            #expect(description == "未识别的学习小组错误(错误码 11219999)")
            let latin = description.unicodeScalars.filter { ($0.value | 0x20) >= 0x61 && ($0.value | 0x20) <= 0x7A }
            #expect(latin.isEmpty, "\(tag): \(description)")
            #expect(catalog.describe(7, in: language) == "未知的响应码 7")
        }
    }

    @Test("matching(identifier:) keeps the identifier's own tag, converted from POSIX form")
    func ownTag() {
        let cases: [(String, String)] = [
            ("zh_TW.UTF-8", "zh-TW"), ("zh_Hant_HK", "zh-Hant-HK"), ("sr_RS.UTF-8@latin", "sr-Latn-RS"),
            ("ca_ES@valencia", "ca-ES-valencia"), ("en-us-u-ca-buddhist", "en-US-u-ca-buddhist"), ("pt_BR", "pt-BR"),
            ("C", "en"), ("POSIX", "en"), ("", "en"),
        ]
        for (identifier, tag) in cases {
            #expect(Language.matching(identifier: identifier).tag == tag, "\(identifier)")
        }
    }
}

extension Array where Element == String {
    /// Calls `body` with the elements as a C array of C strings.
    fileprivate func withCStringArray<R>(_ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let pointers: [UnsafeMutablePointer<CChar>?] = map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers.map { UnsafePointer($0) })
    }
}
