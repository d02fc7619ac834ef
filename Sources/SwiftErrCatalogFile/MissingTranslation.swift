import SwiftErr

/// A text a catalog lacks in one of its languages: not a problem (lookups fall back along the
/// language's tag, then to the catalog's default language), but worth a translator's attention;
/// `errcat check` prints each as a warning.
public struct MissingTranslation: Sendable, Hashable, CustomStringConvertible {
    /// What lacks the text.
    public enum Subject: Sendable, Hashable {
        /// The message of the entry with this code and name.
        case message(code: Int64, name: String)
        /// The title of the module with this name.
        case title(module: String)
    }

    /// What lacks the text.
    public var subject: Subject
    /// The language it lacks.
    public var language: Language

    /// "code 11001 (tokenExpire) has no "hi" message", "module "tag" has no "hi" title".
    public var description: String {
        switch subject {
        case .message(let code, let name):
            return "code \(code) (\(DisplayText.sanitized(name))) has no \"\(language.tag)\" message"
        case .title(let module):
            return "module \(DisplayText.quoted(module)) has no \"\(language.tag)\" title"
        }
    }
}

extension CatalogDefinition {
    /// Every text the catalog lacks in one of its languages (``CatalogDefinition/allLanguages``
    /// but the default, which every text has in a catalog file), in file order: the success entry,
    /// the base entries, then each module's title and its entries; within one text, in the order
    /// of the catalog's languages.
    public var missingTranslations: [MissingTranslation] {
        let languages = allLanguages.dropFirst()
        var result: [MissingTranslation] = []
        func check(_ text: LocalizedText, _ subject: MissingTranslation.Subject) {
            for language in languages where text[language] == nil {
                result.append(MissingTranslation(subject: subject, language: language))
            }
        }
        for entry in [success] + base {
            check(entry.message, .message(code: entry.code, name: entry.name))
        }
        for module in modules {
            check(module.title, .title(module: module.name))
            for entry in module.codes {
                check(entry.message, .message(code: entry.code, name: entry.name))
            }
        }
        return result
    }
}
