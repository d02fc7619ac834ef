import CErrCore

/// A language catalog messages are written in, identified by its BCP 47 tag (`"en"`, `"zh-Hans"`,
/// `"zh-Hant"`, `"hi"`, `"pt-BR"`, …).
///
/// A catalog lists its languages, the first its default. Looking a message up for a language falls
/// back along the tag, dropping its last subtag each time, then to the catalog's default language:
/// for `zh-Hant-HK` the texts of `zh-Hant-HK`, `zh-Hant`, `zh` and the default, the first present
/// (``LocalizedText/text(in:fallback:)``, `Catalog.entryMessage(at:in:)`).
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

    /// The languages a lookup for this one tries, most specific first: `zh-Hant-HK`, `zh-Hant`,
    /// `zh` (the catalog's default comes after them).
    public var fallbackChain: [Language] {
        var chain: [Language] = []
        var parts = Self.subtags(tag)
        while !parts.isEmpty {
            var bytes: [UInt8] = []
            for (index, part) in parts.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: "-")) }
                bytes += part
            }
            chain.append(Language(checkedTag: String(decoding: bytes, as: UTF8.self)))
            parts.removeLast()
        }
        return chain
    }

    /// Chooses the language for a BCP 47 language identifier such as `"zh-Hans-CN"`,
    /// `"zh_TW"`, `"hi_IN"` or `"en-US"`.
    ///
    /// A Chinese identifier with the Traditional script or a Traditional region (`Hant`, `TW`,
    /// `HK`, `MO`) selects ``traditionalChinese``, any other Chinese identifier
    /// ``simplifiedChinese``, a Hindi one ``hindi``; everything else selects ``english``, the
    /// fallback. Matching is ASCII case-insensitive. (Set `Language.current` to any other language,
    /// such as `Language(tag: "pt-BR")`, to use it.)
    /// - Parameter identifier: A locale or language identifier.
    /// - Returns: The catalog language to use for it.
    public static func matching(identifier: String) -> Language {
        var parts: [[UInt8]] = [[]]
        for byte in identifier.utf8 {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "@"), UInt8(ascii: "."):
                parts.append([])
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                parts[parts.count - 1].append(byte | 0x20)
            default:
                parts[parts.count - 1].append(byte)
            }
        }
        if parts[0] == Array("hi".utf8) { return .hindi }
        guard parts[0] == Array("zh".utf8) else { return .english }
        let traditional: [[UInt8]] = [Array("hant".utf8), Array("tw".utf8), Array("hk".utf8), Array("mo".utf8)]
        for part in parts.dropFirst() where traditional.contains(part) {
            return .traditionalChinese
        }
        return .simplifiedChinese
    }
}
