import CErrCore

/// Flattens a ``CatalogDefinition`` into the C core's `errcore_catalog_def`, calls
/// `errcore_build_size()` / `errcore_build()`, and turns a rejection into a ``CatalogError``
/// that names the entries, modules and ranges involved.
struct CatalogBuilder {
    /// The result of a successful build: the table header lives at the start of `allocation`.
    struct Built {
        let table: UnsafeMutablePointer<errcore_table>
        let allocation: UnsafeMutableRawPointer
    }

    private struct FlatEntry {
        var code: Int64
        var module: UInt16
        var flags: UInt8
        var name: Int
        /// Pool offsets of the message in each of ``languages``, `nil` for a missing one.
        var messages: [Int?]
        var label: String
    }

    private struct FlatModule {
        var name: Int
        var titles: [Int?]
        var label: String
    }

    private let definition: CatalogDefinition
    private var pool: [UInt8] = []
    private var entries: [FlatEntry] = []
    private var modules: [FlatModule] = []
    private var ranges: [errcore_range] = []
    private var rangeLabels: [String] = []
    /// The table's languages, the first the default.
    private let languages: [Language]
    /// Pool offsets of the language tags.
    private var tagOffsets: [Int] = []

    init(_ definition: CatalogDefinition) {
        self.definition = definition
        let languages = definition.allLanguages
        self.languages = languages.isEmpty ? [.english] : languages
    }

    /// Interns the text in each language; `what` names the text for an error.
    private mutating func internTexts(_ text: LocalizedText, what: String) throws(CatalogError) -> [Int?] {
        var offsets: [Int?] = []
        for language in languages {
            if let value = text[language] {
                offsets.append(try intern(value, what: "the \(language.tag) \(what)"))
            } else {
                offsets.append(nil)
            }
        }
        return offsets
    }

    /// Appends `text` and a NUL to the pool and returns its offset.
    private mutating func intern(_ text: String, what: String) throws(CatalogError) -> Int {
        let offset = pool.count
        for byte in text.utf8 {
            if byte == 0 {
                throw CatalogError(status: .badString, message: "bad string: \(what) contains a NUL byte")
            }
            pool.append(byte)
        }
        pool.append(0)
        return offset
    }

    private mutating func add(_ entry: EntryDefinition, module: UInt16, label: String) throws(CatalogError) {
        let name = try intern(entry.name, what: "the name of \(label)")
        let messages = try internTexts(entry.message, what: "message of \(label)")
        entries.append(
            FlatEntry(
                code: entry.code, module: module, flags: entry.flags.rawValue,
                name: name, messages: messages, label: label))
    }

    private mutating func flatten() throws(CatalogError) {
        let def = definition
        if languages.count > Int(ERRCORE_MAX_LANGUAGES) {
            throw CatalogError(
                status: .countOverflow, code: Int64(languages.count),
                message: "count overflow: \(languages.count) languages, at most \(ERRCORE_MAX_LANGUAGES) allowed")
        }
        for language in languages {
            tagOffsets.append(try intern(language.tag, what: "a language tag"))
        }
        if def.modules.count > Int(ERRCORE_MAX_MODULES) {
            throw CatalogError(
                status: .countOverflow, code: Int64(def.modules.count),
                message: "count overflow: \(def.modules.count) modules, at most \(ERRCORE_MAX_MODULES) allowed")
        }
        try add(def.success, module: 0, label: "success entry '\(def.success.name)'")
        for entry in def.base {
            try add(entry, module: 0, label: "base.\(entry.name)")
        }
        for (i, module) in def.modules.enumerated() {
            let id = UInt16(i + 1)
            let label = "module \(id) '\(module.name)'"
            let name = try intern(module.name, what: "the name of \(label)")
            let titles = try internTexts(module.title, what: "title of \(label)")
            modules.append(FlatModule(name: name, titles: titles, label: label))
            for range in module.ranges {
                ranges.append(errcore_range(first: range.lowerBound, last: range.upperBound, module: id))
                rangeLabels.append("\(module.name) range \(range.lowerBound)...\(range.upperBound)")
            }
            for entry in module.codes {
                try add(entry, module: id, label: "\(module.name).\(entry.name)")
            }
        }
    }

    /// Runs `body` with the flattened definition as the C core's `errcore_catalog_def`, whose
    /// pointers are valid only during the call.
    private func withCDefinition<Result>(_ body: (inout errcore_catalog_def) -> Result) -> Result {
        let entries = self.entries
        let modules = self.modules
        let ranges = self.ranges
        let successCode = definition.success.code
        return pool.withUnsafeBufferPointer { poolBuffer in
            poolBuffer.withMemoryRebound(to: CChar.self) { chars in
                let base = chars.baseAddress!  // the pool always holds at least the success name
                // Every entry's and module's text pointers, back to back: row i of the entries is
                // messageRows[i * languageCount ..< (i + 1) * languageCount], as the C core reads them.
                let languageCount = tagOffsets.count
                var pointers: [UnsafePointer<CChar>?] = tagOffsets.map { UnsafePointer(base + $0) }
                for e in entries { pointers += e.messages.map { $0.map { UnsafePointer(base + $0) } } }
                for m in modules { pointers += m.titles.map { $0.map { UnsafePointer(base + $0) } } }
                return pointers.withUnsafeBufferPointer { texts in
                    let all = texts.baseAddress!  // holds at least the tags: a table has a language
                    let entryDefs = entries.enumerated().map { i, e in
                        errcore_entry_def(
                            code: e.code, module: e.module, flags: e.flags, name: base + e.name,
                            message_en: nil, message_zh: nil,
                            messages: all + languageCount * (1 + i))
                    }
                    let moduleDefs = modules.enumerated().map { i, m in
                        errcore_module_def(
                            name: base + m.name, title_en: nil, title_zh: nil,
                            titles: all + languageCount * (1 + entries.count + i))
                    }
                    return entryDefs.withUnsafeBufferPointer { entryBuffer in
                        moduleDefs.withUnsafeBufferPointer { moduleBuffer in
                            ranges.withUnsafeBufferPointer { rangeBuffer in
                                var def = errcore_catalog_def(
                                    success_code: successCode,
                                    entries: entryBuffer.baseAddress, entry_count: entryBuffer.count,
                                    modules: moduleBuffer.baseAddress, module_count: moduleBuffer.count,
                                    ranges: rangeBuffer.baseAddress, range_count: rangeBuffer.count,
                                    languages: all, language_count: languageCount)
                                return body(&def)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Flattens, sizes and builds the table.
    mutating func build() throws(CatalogError) -> Built {
        try flatten()
        var diag = errcore_diag()
        var failure: errcore_status = ERRCORE_OK
        let built: Built? = withCDefinition { def in
            var size = 0
            failure = errcore_build_size(&def, &size, &diag)
            guard failure == ERRCORE_OK else { return nil }
            let header = MemoryLayout<errcore_table>.stride
            let headerPadded = (header + 7) & ~7
            let allocation = UnsafeMutableRawPointer.allocate(byteCount: headerPadded + max(size, 8), alignment: 8)
            let table = allocation.bindMemory(to: errcore_table.self, capacity: 1)
            table.initialize(to: errcore_table())
            failure = errcore_build(&def, allocation + headerPadded, size, table, &diag)
            guard failure == ERRCORE_OK else {
                allocation.deallocate()
                return nil
            }
            return Built(table: table, allocation: allocation)
        }
        if let built {
            return built
        }
        throw error(for: diag, status: failure)
    }

    /// Turns a C diagnostic into a ``CatalogError`` with names added.
    private func error(for diag: errcore_diag, status: errcore_status) -> CatalogError {
        var diag = diag
        let explanation = CText.read { buffer, size in errcore_diag_format(&diag, buffer, size) }
        let index: Int? = diag.index == Int(bitPattern: UInt(noDiagnosticIndex)) ? nil : diag.index
        let other: Int? = diag.other_index == Int(bitPattern: UInt(noDiagnosticIndex)) ? nil : diag.other_index
        var names: [String] = []
        func label(_ i: Int?) -> String? {
            guard let i else { return nil }
            switch diag.subject {
            case ERRCORE_SUBJECT_ENTRY: return i < entries.count ? "entry \(i) is \(entries[i].label)" : nil
            case ERRCORE_SUBJECT_MODULE: return i < modules.count ? "module index \(i) is \(modules[i].label)" : nil
            case ERRCORE_SUBJECT_RANGE: return i < rangeLabels.count ? "range \(i) is \(rangeLabels[i])" : nil
            case ERRCORE_SUBJECT_LANGUAGE:
                return i < languages.count ? "language \(i) is '\(languages[i].tag)'" : nil
            default: return nil
            }
        }
        if let text = label(index) { names.append(text) }
        if let text = label(other) { names.append(text) }
        if diag.other_code > 0, diag.other_code <= Int64(definition.modules.count),
            diag.status == ERRCORE_E_BASE_IN_MODULE_RANGE || diag.status == ERRCORE_E_CODE_OUTSIDE_MODULE
        {
            names.append("module \(diag.other_code) is '\(definition.modules[Int(diag.other_code) - 1].name)'")
        }
        var message = explanation
        if !names.isEmpty {
            message += " ["
            for (i, name) in names.enumerated() {
                if i > 0 { message += ", " }
                message += name
            }
            message += "]"
        }
        return CatalogError(
            status: CatalogError.Status(status), index: index, otherIndex: other,
            code: diag.code, otherCode: diag.other_code, message: message)
    }
}

/// `ERRCORE_NO_INDEX`, a cast macro Swift does not import.
let noDiagnosticIndex: UInt = UInt.max
