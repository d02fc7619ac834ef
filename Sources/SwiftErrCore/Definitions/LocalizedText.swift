/// A text in English with an optional Simplified Chinese translation.
///
/// Catalog messages and module titles are `LocalizedText`s. English is required and is
/// the fallback for a missing translation.
public struct LocalizedText: Sendable, Hashable {
    /// The English text.
    public var english: String
    /// The Simplified Chinese text, or `nil` when there is no translation.
    public var simplifiedChinese: String?

    /// Creates a text.
    /// - Parameters:
    ///   - english: The English text.
    ///   - simplifiedChinese: The Simplified Chinese translation, if any.
    public init(english: String, simplifiedChinese: String? = nil) {
        self.english = english
        self.simplifiedChinese = simplifiedChinese
    }

    /// The text in `language`, English when there is no translation.
    /// - Parameter language: The language wanted.
    /// - Returns: The translation, or the English text as the fallback.
    public func text(in language: Language) -> String {
        switch language {
        case .english: return english
        case .simplifiedChinese: return simplifiedChinese ?? english
        }
    }
}
