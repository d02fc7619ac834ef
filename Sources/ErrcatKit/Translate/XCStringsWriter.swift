// `errcat gen xcstrings`: a catalog as an Xcode String Catalog (.xcstrings), every message and
// module title in every language, one stable key each, the catalog's default language as the
// source language.

import SwiftErr
import SwiftErrCatalogFile

/// Writes a ``CatalogDefinition`` as an Xcode String Catalog.
enum XCStringsWriter {
    /// The key of a text: `swifterr.code.11001` for a message, `swifterr.module.studyGroup.title` for a
    /// module's title (codes and module names are unique in a catalog, so keys are too).
    static func key(_ unit: TranslationUnit) -> String {
        switch unit.place {
        case .message(let code): return "swifterr.code.\(code)"
        case .title(let module): return "swifterr.module.\(module).title"
        }
    }

    /// The file's text: keys sorted, as Xcode writes them; each text present is `translated`, a
    /// text missing in a language is left out (Xcode shows it as to be translated). The comment
    /// names the entry or module.
    static func text(_ definition: CatalogDefinition) -> String {
        let languages = definition.allLanguages
        typealias Value = CatalogJSONWriter.Value
        let units = TranslationUnit.all(in: definition).sorted { key($0) < key($1) }
        let strings: [(String, Value)] = units.map { unit in
            let localizations: [(String, Value)] = languages.sorted { $0.tag < $1.tag }.compactMap { language in
                guard let value = unit.text[language] else { return nil }
                return (
                    language.tag,
                    .object([("stringUnit", .object([("state", .string("translated")), ("value", .string(value))]))])
                )
            }
            return (
                key(unit),
                .object([
                    ("comment", .string(unit.note)), ("extractionState", .string("manual")),
                    ("localizations", .object(localizations)),
                ])
            )
        }
        let root = Value.object([
            ("sourceLanguage", .string((languages.first ?? .english).tag)),
            ("strings", .object(strings)),
            ("version", .string("1.0")),
        ])
        return CatalogJSONWriter.pretty(root)
    }
}
