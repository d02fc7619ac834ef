import CErrCore

extension Catalog {
    /// Reads the table back into a definition: the success entry, the base entries and the
    /// modules with their ranges and codes, all in ascending code order.
    ///
    /// For the built-in table this is the default catalog as the C core holds it, which
    /// tests compare with `catalog/default.json` and the Swift module enums.
    public var definition: CatalogDefinition {
        let table = pointer.pointee
        func string(_ offset: UInt32) -> String? {
            guard offset != ERRCORE_NO_STRING, Int(offset) < table.strings_size else { return nil }
            return String(cString: table.strings + Int(offset))
        }
        let languages = self.languages
        // The text in each language exactly (no fallback): from the matrix, or the two-language
        // fields of a table without a language list.
        func texts(module: Bool, _ i: Int) -> LocalizedText {
            var text = LocalizedText([:])
            for (k, language) in languages.enumerated() {
                let offset: UInt32
                if table.language_count == 0 {
                    let pair =
                        module
                        ? (table.modules[i].title_en, table.modules[i].title_zh)
                        : (table.entries[i].message_en, table.entries[i].message_zh)
                    offset = k == 0 ? pair.0 : pair.1
                } else {
                    let matrix = module ? table.titles : table.messages
                    offset = matrix?[i * table.language_count + k] ?? ERRCORE_NO_STRING
                }
                text[language] = string(offset)
            }
            return text
        }
        var success = EntryDefinition(code: table.success_code, name: "success", message: LocalizedText(english: "OK"))
        var base: [EntryDefinition] = []
        var modules: [ModuleDefinition] = []
        for id in 1...max(1, table.module_count) where id <= table.module_count {
            let module = table.modules[id - 1]
            modules.append(
                ModuleDefinition(
                    name: string(module.name) ?? "",
                    title: texts(module: true, id - 1),
                    ranges: moduleRanges(UInt16(id)), codes: []))
        }
        for i in 0..<table.entry_count {
            let entry = table.entries[i]
            let definition = EntryDefinition(
                code: table.codes[i], name: string(entry.name) ?? "", flags: CodeFlags(rawValue: entry.flags),
                message: texts(module: false, i))
            if entry.module != 0, Int(entry.module) <= modules.count {
                modules[Int(entry.module) - 1].codes.append(definition)
            } else if table.codes[i] == table.success_code {
                success = definition
            } else {
                base.append(definition)
            }
        }
        return CatalogDefinition(name: name, success: success, base: base, modules: modules, languages: languages)
    }
}
