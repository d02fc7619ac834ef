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
        textVisits.flatMap(\.missing)
    }

    /// Each text of the catalog in file order (the success entry, the base entries, then each
    /// module's title and its entries) with the translations it lacks.
    var textVisits: [(subject: MissingTranslation.Subject, missing: [MissingTranslation])] {
        let languages = allLanguages.dropFirst()
        var result: [(subject: MissingTranslation.Subject, missing: [MissingTranslation])] = []
        func visit(_ text: LocalizedText, _ subject: MissingTranslation.Subject) {
            let missing = languages.filter { text[$0] == nil }.map {
                MissingTranslation(subject: subject, language: $0)
            }
            result.append((subject, missing))
        }
        for entry in [success] + base {
            visit(entry.message, .message(code: entry.code, name: entry.name))
        }
        for module in modules {
            visit(module.title, .title(module: module.name))
            for entry in module.codes {
                visit(entry.message, .message(code: entry.code, name: entry.name))
            }
        }
        return result
    }
}

/// A catalog file read with the places of what it lacks (``CatalogDefinition/readLocated(json:problemLimit:)``).
package struct LocatedCatalogFile: Sendable {
    /// The catalog.
    package var definition: CatalogDefinition
    /// Its ``CatalogDefinition/missingTranslations``, each with the place of the entry or module
    /// that lacks the text.
    package var missingTranslations: [LocatedMissingTranslation]
}

/// A missing translation and where the entry or module that lacks it is written.
package struct LocatedMissingTranslation: Sendable, Hashable {
    /// What lacks which text.
    package var translation: MissingTranslation
    /// The place of the entry's or module's object in the file.
    package var location: SourceLocation
}
