import Foundation

extension Language {
    private static let override = Locked<Language?>(nil)

    /// The language `LocalizedError` texts, presentations and descriptions use by default: a
    /// process-wide setting, any language (`zh-TW`, `pt-BR`, …); each lookup resolves it by the
    /// language rule (``Language``), so a catalog's `zh-Hant` texts serve `zh-TW`.
    ///
    /// Unless set in code, it follows the system (``system``). Setting it overrides the system
    /// until ``followSystem()``.
    public static var current: Language {
        get { override.withLock { $0 } ?? system }
        set { override.withLock { $0 = newValue } }
    }

    /// Forgets a language set through ``current``: the system's language is used again.
    public static func followSystem() {
        override.withLock { $0 = nil }
    }

    /// The system's language, the identifier's own tag (`Language.matching(identifier:)`:
    /// `zh_TW.UTF-8` gives `zh-TW`). On Linux and other POSIX systems without a preferred-languages
    /// setting it is read from the environment as the C library does: the first non-empty of
    /// `LC_ALL`, `LC_MESSAGES` and `LANG` (Foundation there reports a fixed locale whatever the
    /// environment says). On Apple platforms it is the user's first preferred language.
    public static var system: Language {
        #if canImport(Darwin)
            return Language.matching(identifier: Locale.preferredLanguages.first ?? Locale.current.identifier)
        #else
            return fromLocaleEnvironment { name in getenv(name).map { String(cString: $0) } }
        #endif
    }

    /// The language the POSIX locale variables select: the first non-empty of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG`, read with ``matching(identifier:)``; English when all are unset
    /// or empty, and for the `C` and `POSIX` locales.
    /// - Parameter variable: Reads one environment variable.
    /// - Returns: The language selected.
    package static func fromLocaleEnvironment(_ variable: (String) -> String?) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = variable(name), !value.isEmpty {
                return Language.matching(identifier: value)
            }
        }
        return .english
    }
}
