/// A text in any number of languages: catalog messages and module titles.
///
/// Looking it up for a language follows the language rule (``Language``): along the language's
/// ``Language/fallbackChain``, then to a fallback language (a catalog's default, English unless
/// told), so a missing translation never leaves a user without text.
public struct LocalizedText: Sendable, Hashable {
    /// The text in each language it has.
    public var texts: [Language: String]

    /// Creates a text in English with an optional Simplified Chinese translation.
    /// - Parameters:
    ///   - english: The English text.
    ///   - simplifiedChinese: The Simplified Chinese translation, if any.
    public init(english: String, simplifiedChinese: String? = nil) {
        texts = [.english: english]
        if let simplifiedChinese {
            texts[.simplifiedChinese] = simplifiedChinese
        }
    }

    /// Creates a text in the languages given.
    /// - Parameter texts: The text in each language.
    public init(_ texts: [Language: String]) {
        self.texts = texts
    }

    /// The English text; `""` when there is none. Setting it sets the English text.
    public var english: String {
        get { texts[.english] ?? "" }
        set { texts[.english] = newValue }
    }

    /// The Simplified Chinese text, or `nil` when there is no translation. Setting `nil` removes it.
    public var simplifiedChinese: String? {
        get { texts[.simplifiedChinese] }
        set { texts[.simplifiedChinese] = newValue }
    }

    /// The text in exactly `language`, with no fallback, or `nil`.
    /// - Parameter language: A language.
    public subscript(language: Language) -> String? {
        get { texts[language] }
        set { texts[language] = newValue }
    }

    /// The languages the text has, ordered by tag (byte by byte: tags are ASCII).
    public var languages: [Language] {
        texts.keys.sorted { $0.tag.utf8.lexicographicallyPrecedes($1.tag.utf8) }
    }

    /// The text for `language`, chosen by the language rule (``Language/bestMatch(in:)``): the
    /// text of the first language along ``Language/fallbackChain`` the text has (`zh-TW`: a
    /// `zh-Hant` or `zh-TW` text; `en-IN`: `en-001`, then `en`), else the text the rule gives
    /// `fallback`, else English's, else `""`. Among texts whose languages read as the same one
    /// (`zh` and `zh-Hans`), the one in `fallback` comes first, then by tag, as a catalog's
    /// default language comes first.
    /// - Parameters:
    ///   - language: The language wanted.
    ///   - fallback: The language to end at, usually the catalog's default; English unless told.
    /// - Returns: The translation, or the fallback's text.
    public func text(in language: Language, fallback: Language = .english) -> String {
        var ordered: [Language] = []
        if texts[fallback] != nil { ordered.append(fallback) }
        for candidate in languages where candidate != fallback { ordered.append(candidate) }
        for wanted in [language, fallback, .english] {
            if let chosen = wanted.bestMatch(in: ordered), let text = texts[chosen] { return text }
        }
        return ""
    }
}
