// A .po file's translations applied to a catalog (`errcat import po`): which entries go in, which
// are left out with a warning (fuzzy, or translating a text the catalog no longer has), and which
// make the file unusable.

import SwiftErr
import SwiftErrCatalogFile

extension POFile {
    /// What applying a file gives: the catalog with the translations that went in, and every
    /// problem in line order.
    struct Imported {
        /// The catalog with the entries that are neither errors nor warnings applied.
        var definition: CatalogDefinition
        /// Errors and warnings, in line order.
        var problems: [Problem]
        /// Entries applied to the catalog.
        var applied: Int
        /// Entries left out with a warning.
        var leftOut: Int

        var errors: [Problem] { problems.filter { $0.severity == .error } }
        var warnings: [Problem] { problems.filter { $0.severity == .warning } }
    }

    /// `definition` with the translations of `parsed` into `language`: each entry's msgstr is the
    /// text of the message or title its msgctxt names ("" removes it: untranslated); texts the file
    /// does not name are kept; `language` is added to the catalog's languages when new.
    ///
    /// An entry is left out, with a warning, when it is marked `#, fuzzy` (its translation is
    /// unchecked), or when its msgid is not the catalog's current text in its default language (it
    /// translates a text the catalog no longer has); one that is both gets both warnings. The
    /// other entries are applied.
    ///
    /// Errors, each with its line, make the file unusable (the caller writes nothing): an entry
    /// without a msgctxt errcat writes, one naming a code or module the catalog does not have, a
    /// msgctxt twice, or a translation into the default language (edit the catalog for that).
    static func apply(_ parsed: Parsed, language: Language, to definition: CatalogDefinition) -> Imported {
        var result = definition
        var problems: [Problem] = []
        let source = definition.allLanguages.first ?? .english
        if language == source {
            problems.append(
                Problem(line: 1, message: "\(language.tag) is the catalog's default language: edit the catalog itself"))
        }
        var entryPlaces: [Int64: (module: Int?, index: Int)] = [result.success.code: (nil, -1)]
        for (index, entry) in result.base.enumerated() { entryPlaces[entry.code] = (nil, index) }
        var modulePlaces: [String: Int] = [:]
        for (moduleIndex, module) in result.modules.enumerated() {
            modulePlaces[module.name] = moduleIndex
            for (index, entry) in module.codes.enumerated() { entryPlaces[entry.code] = (moduleIndex, index) }
        }

        /// The text `place` names, read or written.
        enum Target {
            case message(module: Int?, index: Int)
            case title(module: Int)
        }
        func text(_ target: Target) -> LocalizedText {
            switch target {
            case .message(nil, let index) where index < 0: return result.success.message
            case .message(nil, let index): return result.base[index].message
            case .message(let module?, let index): return result.modules[module].codes[index].message
            case .title(let module): return result.modules[module].title
            }
        }
        func set(_ target: Target, _ value: String?) {
            switch target {
            case .message(nil, let index) where index < 0: result.success.message[language] = value
            case .message(nil, let index): result.base[index].message[language] = value
            case .message(let module?, let index): result.modules[module].codes[index].message[language] = value
            case .title(let module): result.modules[module].title[language] = value
            }
        }

        var applied = 0
        var leftOut = 0
        var seen: [String: Int] = [:]
        for entry in parsed.entries {
            guard let context = entry.context else {
                problems.append(
                    Problem(
                        line: entry.line,
                        message: "entry without a msgctxt (errcat writes \"code N\" or \"module NAME title\")"))
                continue
            }
            if let earlier = seen[context] {
                problems.append(
                    Problem(
                        line: entry.line, message: "msgctxt \(quoted(context)) appears twice (first at line \(earlier))"
                    ))
                continue
            }
            seen[context] = entry.line
            let target: Target
            if context.hasPrefix("code "), let code = Int64(context.dropFirst("code ".count)) {
                guard let place = entryPlaces[code] else {
                    problems.append(Problem(line: entry.line, message: "the catalog has no code \(code)"))
                    continue
                }
                target = .message(module: place.module, index: place.index)
            } else if context.hasPrefix("module "), context.hasSuffix(" title") {
                let name = String(context.dropFirst("module ".count).dropLast(" title".count))
                guard let module = modulePlaces[name] else {
                    problems.append(Problem(line: entry.line, message: "the catalog has no module \(quoted(name))"))
                    continue
                }
                target = .title(module: module)
            } else {
                problems.append(
                    Problem(
                        line: entry.line,
                        message:
                            "msgctxt \(quoted(context)) names no message or title (errcat writes \"code N\" or \"module NAME title\")"
                    ))
                continue
            }
            var usable = true
            if entry.isFuzzy {
                problems.append(
                    Problem(
                        line: entry.flagsLine ?? entry.line,
                        message:
                            "msgctxt \(quoted(context)) is marked fuzzy: not imported (check the translation, then remove \"fuzzy\" from its #, line)",
                        severity: .warning))
                usable = false
            }
            // Swift's String equality: the same text up to Unicode canonical equivalence.
            let current = text(target)[source] ?? ""
            if entry.id != current {
                problems.append(
                    Problem(
                        line: entry.idLine,
                        message:
                            "msgctxt \(quoted(context)) translates \(quoted(entry.id)), but the catalog's \(source.tag) text is \(quoted(current)): not imported (errcat gen po \(language.tag) writes the catalog's texts)",
                        severity: .warning))
                usable = false
            }
            guard usable else {
                leftOut += 1
                continue
            }
            set(target, entry.translation.isEmpty ? nil : entry.translation)
            applied += 1
        }
        if !result.languages.contains(language) {
            result.languages = result.allLanguages.filter { $0 != language } + [language]
        }
        return Imported(
            definition: result, problems: problems.sorted { $0.line < $1.line }, applied: applied, leftOut: leftOut)
    }
}
