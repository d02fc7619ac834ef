import CErrCore

extension Catalog {
    /// Reads the table back into a definition: the success entry, the base entries and the
    /// modules with their ranges and codes, all in ascending code order; each entry's string code
    /// and namespace, each module's namespaces (ordered by length, then by bytes, as the string
    /// table keeps them) and the catalog's shapes.
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
        readStrings(into: &success, base: &base, modules: &modules)
        return CatalogDefinition(
            name: name, success: success, base: base, modules: modules, languages: languages, shapes: shapes)
    }

    /// Puts the string table's namespaces on their modules and each string code on its entry.
    private func readStrings(
        into success: inout EntryDefinition, base: inout [EntryDefinition], modules: inout [ModuleDefinition]
    ) {
        guard let strings = strings?.pointee else { return }
        func text(_ offset: UInt32, _ length: UInt16) -> String {
            String(decoding: UnsafeBufferPointer(start: strings.bytes + Int(offset), count: Int(length)), as: UTF8.self)
        }
        var spaceNames: [String] = []
        for k in 0..<strings.space_count {
            let space = strings.spaces[k]
            spaceNames.append(text(space.name, space.length))
            if space.module != 0, Int(space.module) <= modules.count {
                modules[Int(space.module) - 1].namespaces.append(spaceNames[k])
            }
        }
        let table = pointer.pointee
        guard strings.slots != nil else { return }
        // Where each code's entry is: (-1, 0) the success entry, (0, i) base[i], (m, i) module m's codes[i].
        var places: [Int64: (Int, Int)] = [success.code: (-1, 0)]
        for (i, entry) in base.enumerated() { places[entry.code] = (0, i) }
        for (m, module) in modules.enumerated() {
            for (i, entry) in module.codes.enumerated() { places[entry.code] = (m + 1, i) }
        }
        for position in 0...Int(strings.slot_mask) {
            let slot = strings.slots[position]
            guard slot.length > 0, let index = Classification(rawValue: slot.key_class).entryIndex else { continue }
            let code = table.codes[Int(index)]
            let string = text(slot.key, slot.length)
            let namespace = slot.space == 0 ? nil : spaceNames[Int(slot.space) - 1]
            switch places[code] {
            case .none:
                continue
            case .some((-1, _)):
                success.string = string
                success.namespace = namespace
            case .some((0, let i)):
                base[i].string = string
                base[i].namespace = namespace
            case .some((let m, let i)):
                modules[m - 1].codes[i].string = string
                modules[m - 1].codes[i].namespace = namespace
            }
        }
    }
}
