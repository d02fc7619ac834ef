// The `--lang en|zh-Hans` option shared by explain, classify and sample.

import SwiftErr

/// Parses a `--lang` value with the library's ``Language/init(tag:)``; English when absent.
/// - Returns: The language, or nil for a value that is not a language tag.
func parseLanguage(_ value: String?) -> Language? {
    guard let value else { return .english }
    return Language(tag: value)
}
