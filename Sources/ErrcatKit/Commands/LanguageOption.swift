// The `--lang en|zh-Hans` option shared by explain and classify.

import SwiftErr

/// Parses a `--lang` value.
/// - Returns: The language, or nil for a value that is neither `en` nor `zh-Hans`.
func parseLanguage(_ value: String?) -> Language? {
    switch value {
    case nil, "en": return .english
    case "zh-Hans", "zh": return .simplifiedChinese
    default: return nil
    }
}
