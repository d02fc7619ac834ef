import CErrCore

/// A language catalog messages are written in, identified by its BCP 47 tag (`"en"`, `"zh-Hans"`,
/// `"zh-Hant"`, `"hi"`, `"pt-BR"`, …).
///
/// A catalog lists its languages, the first its default. Which of them serves a language is decided
/// by one rule, the C core's (`errcore_text.h`, from CLDR's likely subtags and parent locales), for
/// every lookup in C and Swift: a tag falls back along its ``fallbackChain`` (`zh-TW`: `zh-Hant-TW`,
/// `zh-Hant`; `en-GB`: `en-GB`, `en-001`, `en`; `pt-AO`: `pt-AO`, `pt-PT`, `pt`), each step matching
/// a catalog language that reads as the same language (`zh-TW` is `zh-Hant-TW`, `zh` is `zh-Hans`),
/// then to the catalog's default language. A script other than the language's likely one never
/// falls back to the language alone: `zh-Hant` does not fall to Simplified Chinese, `sr-Latn` not to
/// Cyrillic Serbian (``LocalizedText/text(in:fallback:)``, `Catalog.entryMessage(at:in:)`,
/// ``bestMatch(in:)``).
///
/// Tags are kept in their conventional case (language subtag lower case, a four-letter script
/// title case, a two-letter region upper case: `zh-hant-tw` becomes `zh-Hant-TW`), so two spellings
/// of one tag are one `Language`.
public struct Language: Sendable, Hashable, RawRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The tag, in conventional case.
    public let tag: String

    /// The tag (the `RawRepresentable` conformance).
    public var rawValue: String { tag }

    /// English (`en`), the default language of the built-in catalog.
    public static let english = Language(checkedTag: "en")
    /// Simplified Chinese (`zh-Hans`).
    public static let simplifiedChinese = Language(checkedTag: "zh-Hans")
    /// Traditional Chinese (`zh-Hant`).
    public static let traditionalChinese = Language(checkedTag: "zh-Hant")
    /// Hindi (`hi`).
    public static let hindi = Language(checkedTag: "hi")

    /// The languages of the built-in catalog, in its order: English, Simplified Chinese,
    /// Traditional Chinese, Hindi.
    public static let builtIn: [Language] = [.english, .simplifiedChinese, .traditionalChinese, .hindi]

    /// The language with tag `tag`, or `nil` when `tag` is not a well-formed tag (subtags of 1 to 8
    /// ASCII letters or digits joined by `-`, the first 2 to 8 letters, at most 63 bytes in all):
    /// for catalog files, settings and command-line options, where a malformed tag is a mistake to
    /// report. Matching is ASCII case-insensitive.
    /// - Parameter tag: A BCP 47 language tag.
    public init?(tag: String) {
        let valid = tag.utf8.count <= Int(ERRCORE_MAX_TAG_LENGTH) && tag.withCString { errcore_language_tag_valid($0) }
        guard valid else { return nil }
        self.init(checkedTag: tag)
    }

    /// The language with tag `rawValue`, or `nil` when it is malformed (as ``init(tag:)``).
    /// - Parameter rawValue: A BCP 47 language tag.
    public init?(rawValue: String) {
        self.init(tag: rawValue)
    }

    /// The language of a tag written in the program, such as `"pt-BR"`.
    ///
    /// The literal must be a well-formed tag (see ``init(tag:)``); a malformed literal is a
    /// programming error, like an index out of range, and stops the program.
    /// - Parameter value: A BCP 47 language tag.
    public init(stringLiteral value: String) {
        guard let language = Language(tag: value) else {
            preconditionFailure("malformed language tag literal \"\(value)\"")
        }
        self = language
    }

    /// A tag known to be well formed, put in conventional case. Works on the tag's ASCII bytes
    /// (no Unicode case mapping, so Embedded Swift links no Unicode tables for it).
    private init(checkedTag: String) {
        var out: [UInt8] = []
        // Script and region conventions apply before the first singleton (an extension such as
        // `-u-ca-…` or private use `-x-…`); everything from there on is lower case.
        var extended = false
        for (index, part) in Self.subtags(checkedTag).enumerated() {
            if index > 0 { out.append(UInt8(ascii: "-")) }
            extended = extended || (index > 0 && part.count == 1)
            let letters = part.allSatisfy { Self.lower($0) >= UInt8(ascii: "a") && Self.lower($0) <= UInt8(ascii: "z") }
            let conventional = !extended && index > 0 && letters
            for (position, byte) in part.enumerated() {
                let upper = conventional && (part.count == 2 || (part.count == 4 && position == 0))
                out.append(upper ? Self.upper(byte) : Self.lower(byte))
            }
        }
        tag = String(decoding: out, as: UTF8.self)
    }

    /// The subtags of a tag, as bytes.
    private static func subtags(_ tag: String) -> [[UInt8]] {
        var parts: [[UInt8]] = [[]]
        for byte in tag.utf8 {
            if byte == UInt8(ascii: "-") {
                parts.append([])
            } else {
                parts[parts.count - 1].append(byte)
            }
        }
        return parts
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static func upper(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte & ~0x20 : byte
    }

    /// The tag.
    public var description: String { tag }

    /// The languages a lookup for this one tries, most specific first, as the language rule reads
    /// them (`errcore_language_fallback()`): `zh-TW` gives `zh-Hant-TW`, `zh-Hant`; `zh-Hant-MO`
    /// gives `zh-Hant-MO`, `zh-Hant-HK`, `zh-Hant`; `en-IN` gives `en-IN`, `en-001`, `en`; `zh` gives
    /// `zh-Hans`. Extensions and private use are not part of it (`en-US-u-ca-buddhist` gives `en-US`,
    /// `en`). The catalog's default language comes after them. Empty for a tag that names no
    /// language (`POSIX`).
    public var fallbackChain: [Language] {
        var chain: [Language] = []
        tag.withCString { wanted in
            var step = 0
            while true {
                let name = CText.read { buffer, size in errcore_language_fallback(wanted, step, buffer, size) }
                if name.isEmpty { break }
                chain.append(Language(checkedTag: name))
                step += 1
            }
        }
        return chain
    }

    /// The language of `languages` that serves this one by the language rule
    /// (`errcore_language_choose()`): the first along ``fallbackChain`` that some element reads as,
    /// the earliest such element; `nil` when none is on the chain (the caller then uses its
    /// default). `Language("zh-TW").bestMatch(in: [.english, .simplifiedChinese, .traditionalChinese])`
    /// is `.traditionalChinese`; `Language("zh-TW").bestMatch(in: [.english, .simplifiedChinese])`
    /// is `nil`.
    /// - Parameter languages: The languages to choose among, such as a catalog's.
    /// - Returns: The element chosen, or `nil`.
    public func bestMatch(in languages: [Language]) -> Language? {
        var tags: [String] = []
        for language in languages { tags.append(language.tag) }
        return Self.chooseIndex(among: tags, for: tag).map { languages[$0] }
    }

    /// `errcore_language_choose()` over Swift strings: the index of the tag of `tags` that serves
    /// `wanted`, or `nil`.
    /// - Parameters:
    ///   - tags: The tags to choose among.
    ///   - wanted: The tag or locale identifier wanted.
    /// - Returns: The index chosen, or `nil` when none is on wanted's chain.
    package static func chooseIndex(among tags: [String], for wanted: String) -> Int? {
        guard !tags.isEmpty else { return nil }
        // The tags as C strings back to back in one buffer, and a pointer to each.
        var bytes: [CChar] = []
        var starts: [Int] = []
        for tag in tags {
            starts.append(bytes.count)
            for byte in tag.utf8 { bytes.append(CChar(bitPattern: byte)) }
            bytes.append(0)
        }
        let index = bytes.withUnsafeBufferPointer { buffer -> Int in
            let base = buffer.baseAddress!
            var pointers: [UnsafePointer<CChar>?] = []
            for start in starts { pointers.append(base + start) }
            return wanted.withCString { errcore_language_choose(pointers, pointers.count, $0) }
        }
        return (0..<tags.count).contains(index) ? index : nil  // ERRCORE_NO_INDEX is -1 as an Int
    }

    /// The language of a BCP 47 tag or a POSIX or ICU locale identifier such as `"zh-Hans-CN"`,
    /// `"zh_TW.UTF-8"`, `"sr_RS@latin"`, `"hi_IN"` or `"en-US"`: the identifier's own tag
    /// (`errcore_language_from_identifier()`: `zh_TW.UTF-8` gives `zh-TW`, `sr_RS@latin` gives
    /// `sr-Latn-RS`), in conventional case, which lookups then resolve by the language rule (a
    /// catalog with `zh-Hant` answers `zh-TW` in it). ``english`` when the identifier names no
    /// language (empty, `C`, `POSIX`, or malformed).
    /// - Parameter identifier: A locale or language identifier.
    /// - Returns: The language it names.
    public static func matching(identifier: String) -> Language {
        let tag = identifier.withCString { id in
            CText.read { buffer, size in errcore_language_from_identifier(id, buffer, size) }
        }
        return tag.isEmpty ? .english : Language(checkedTag: tag)
    }
}
