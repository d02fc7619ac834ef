import Foundation

/// The language ``ModuleRespError``'s `LocalizedError` texts are written in: a process-wide
/// setting, English or Simplified Chinese, with English as the fallback.
///
/// Unless set, the language follows the user's first preferred language
/// (`Locale.preferredLanguages`), falling back to `Locale.current`.
public enum MessageLanguage {
    private static let override = Locked<Language?>(nil)

    /// The language in use. Setting it overrides the locale until ``reset()``.
    public static var current: Language {
        get { override.withLock { $0 } ?? Language(locale: .current) }
        set { override.withLock { $0 = newValue } }
    }

    /// Forgets a language set through ``current`` and follows the locale again.
    public static func reset() {
        override.withLock { $0 = nil }
    }
}

extension Language {
    /// The catalog language for a Foundation locale: Simplified Chinese for a Chinese locale
    /// other than Traditional, English otherwise (see ``Language/matching(identifier:)``).
    ///
    /// For `Locale.current` the first of `Locale.preferredLanguages` is used when there is one.
    /// - Parameter locale: The locale.
    public init(locale: Locale) {
        if locale == Locale.current, let preferred = Locale.preferredLanguages.first {
            self = Language.matching(identifier: preferred)
        } else {
            self = Language.matching(identifier: locale.identifier)
        }
    }
}
