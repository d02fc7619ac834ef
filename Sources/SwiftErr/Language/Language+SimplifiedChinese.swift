extension Language {
    /// The two languages SwiftErr's own texts (transport failures, cancellation, recovery
    /// suggestions, …) are written in, English first as their default.
    static let ownTextLanguages: [Language] = [.english, .simplifiedChinese]

    /// Whether SwiftErr's own texts are shown in Simplified Chinese for this language: whether the
    /// language rule (``Language/bestMatch(in:)``) picks `zh-Hans` of ``ownTextLanguages`` (`zh`,
    /// `zh-CN`, `zh-Hans-SG`, `zh_CN.UTF-8` do; `zh-TW` and `zh-Hant` do not, as Traditional Chinese
    /// never falls back to Simplified, and get English).
    var usesSimplifiedChinese: Bool {
        bestMatch(in: Self.ownTextLanguages) == .simplifiedChinese
    }
}
