// `errcat gen c`: a catalog as a C11 source file of static const tables, the form of
// Sources/CErrDefaultCatalog/default_catalog.c (which is this generator's output for catalog/default.json).

import CErrCore
import SwiftErr

/// Writes the C table source of one catalog.
struct CSourceGenerator {
    let definition: CatalogDefinition
    /// The same catalog built by the C core (`errcore_build()`), whose classification index
    /// is written out as it is, so the static table carries exactly the index C computes.
    let table: Catalog
    /// The catalog file's path as given on the command line (quoted in the header comment).
    let sourcePath: String

    /// The C identifier part from the catalog name: `default` gives `errcore_default_table()`.
    var symbol: String { CLiteral.identifier(definition.name) }

    /// The complete source text.
    func generate() -> String {
        generateWithPool().source
    }

    /// The complete source text, after ``GeneratedSourceAudit`` has proved that its string
    /// literals are exactly the catalog's texts and that nothing else in it comes from the catalog
    /// but identifiers.
    /// - Throws: `AuditFinding` when the text fails the audit (a generator bug: nothing is written).
    func generateChecked() throws(AuditFinding) -> String {
        let (source, pool) = generateWithPool()
        let bytes: [UInt8] = pool.strings.flatMap { Array($0.text.utf8) + [0] }
        var identifiers = GeneratedSourceAudit.cWords
        identifiers.insert("errcore_\(symbol)_table")
        for part in [
            "strings", "codes", "entries", "modules", "ranges", "index_keys", "index_slots", "front_slots",
            "front_buckets", "front_gaps", "languages", "messages", "titles", "table", "string_bytes",
            "string_spaces", "string_slots", "string_buckets", "string_table",
        ] {
            identifiers.insert("errcore__\(symbol)_\(part)")
        }
        identifiers.insert("errcore_\(symbol)_strings")
        try GeneratedSourceAudit.checkC(source, include: "CErrCore.h", pool: bytes, identifiers: identifiers)
        return source
    }

    private func generateWithPool() -> (source: String, pool: StringPool) {
        let prefix = "errcore__\(symbol)_"
        var pool = StringPool()
        // The table's languages (the first the default), as errcore_build() would list them.
        let languages = definition.allLanguages.isEmpty ? [Language.english] : definition.allLanguages
        // The languages that read as "en" and as "zh-Hans" by the language rule (the first step of
        // their fallback chain: "en-Latn" is en, "zh" is zh-Hans), as errcore_build() finds them.
        let englishIndices = languages.indices.filter { languages[$0].fallbackChain.first == .english }
        let chineseIndices = languages.indices.filter { languages[$0].fallbackChain.first == .simplifiedChinese }
        // Pool order: language tags, modules (name, titles), success, base entries, module entries,
        // as in the file.
        let tagOffsets = languages.map { pool.add($0.tag) }
        /// The text in each language, `nil` for a missing one; a missing default gives `fallback`.
        func offsets(_ text: LocalizedText, fallback: UInt32) -> [UInt32?] {
            languages.enumerated().map { k, language in
                text[language].map { pool.add($0) } ?? (k == 0 ? fallback : nil)
            }
        }
        /// The two-language view errcore_build() fills: the first "en" text (the default's when
        /// none), the first "zh-Hans" text.
        func legacy(_ row: [UInt32?]) -> (english: UInt32, chinese: UInt32?) {
            let english = englishIndices.lazy.compactMap { row[$0] }.first ?? row[0] ?? 0
            return (english, chineseIndices.lazy.compactMap { row[$0] }.first)
        }
        var moduleOffsets: [(name: UInt32, titles: [UInt32?])] = []
        for module in definition.modules {
            let name = pool.add(module.name)
            moduleOffsets.append((name, offsets(module.title, fallback: name)))
        }
        struct Row {
            var entry: EntryDefinition
            var module: Int
            var name: UInt32
            var messages: [UInt32?]
        }
        var rows: [Row] = []
        func add(_ entry: EntryDefinition, module: Int) {
            let name = pool.add(entry.name)
            rows.append(Row(entry: entry, module: module, name: name, messages: offsets(entry.message, fallback: 0)))
        }
        add(definition.success, module: 0)
        for entry in definition.base { add(entry, module: 0) }
        for (index, module) in definition.modules.enumerated() {
            for entry in module.codes { add(entry, module: index + 1) }
        }
        rows.sort { $0.entry.code < $1.entry.code }
        var ranges: [(range: ClosedRange<Int64>, module: Int)] = []
        for (index, module) in definition.modules.enumerated() {
            for range in module.ranges { ranges.append((range, index + 1)) }
        }
        ranges.sort { $0.range.lowerBound < $1.range.lowerBound }

        func offset(_ value: UInt32?) -> String {
            value.map(String.init) ?? "ERRCORE_NO_STRING"
        }
        let path = CLiteral.comment(sourcePath)
        let isDefault = definition.name == "default"
        var out = "/*\n"
        out +=
            " * \(symbol)_catalog.c — the \(isDefault ? "built-in catalog" : "\"\(CLiteral.comment(definition.name))\" catalog") as static const data.\n"
        out += " *\n"
        out += " * GENERATED by `errcat gen c \(path)`: do not edit by hand;\n"
        out += " * edit \(path) and regenerate\(isDefault ? " (a test fails on drift)" : "").\n"
        out += " */\n"
        out += "#include \"CErrCore.h\"\n\n"
        if isDefault {
            out +=
                "/* CErrCore.h's reminder to include errcore_default_catalog.h, a macro of this file's function. */\n"
            out += "#undef errcore_default_table\n\n"
        }

        if pool.size <= CLiteral.maximumStringLength {
            out += "/* The string pool: every name and message, NUL-terminated, back to back. */\n"
            out += "static const char \(prefix)strings[] =\n"
            for (index, string) in pool.strings.enumerated() {
                out += "    \"\(CLiteral.stringContents(string.text))\\0\" /* \(string.offset) */"
                out += index == pool.strings.count - 1 ? ";\n\n" : "\n"
            }
        } else {
            // One string literal this long would exceed what C11 compilers must accept
            // (-Woverlength-strings under -Wpedantic).
            out += "/* The string pool: every name and message, NUL-terminated, back to back, as character\n"
            out += " * constants (as one string literal it would be longer than the \(CLiteral.maximumStringLength)\n"
            out += " * characters C11 compilers must accept). */\n"
            out += "static const char \(prefix)strings[\(pool.size)] = {\n"
            for string in pool.strings {
                let constants = (Array(string.text.utf8) + [0]).map(CLiteral.character)
                out += "    /* \(string.offset) */"
                for start in stride(from: 0, to: constants.count, by: 16) {
                    if start > 0 { out += "\n   " }
                    out += " " + constants[start..<min(start + 16, constants.count)].joined(separator: ", ") + ","
                }
                out += "\n"
            }
            out += "};\n\n"
        }

        out += "/* Entry codes: must stay strictly ascending (errcore_validate() checks). */\n"
        out += "static const int64_t \(prefix)codes[\(rows.count)] = {\n"
        for row in rows {
            out += "    \(CLiteral.int64(row.entry.code)), /* \(CLiteral.comment(row.entry.name)) */\n"
        }
        out += "};\n\n"

        out += "/* entries[i] describes codes[i]: module, flags, reserved, name, and the two-language view\n"
        out += " * (the \"en\" message, the \"zh-Hans\" one); every lookup reads the message matrix below. */\n"
        out += "static const errcore_entry \(prefix)entries[\(rows.count)] = {\n"
        for row in rows {
            let view = legacy(row.messages)
            out +=
                "    {\(row.module), \(hexFlags(row.entry.flags.rawValue)), 0, \(row.name), \(view.english), \(offset(view.chinese))}, /* \(row.entry.code) \(CLiteral.comment(row.entry.name)) */\n"
        }
        out += "};\n\n"

        let modulesName: String
        if definition.modules.isEmpty {
            modulesName = "NULL"
        } else {
            modulesName = "\(prefix)modules"
            out += "/* Module id k is modules[k - 1]: name, the \"en\" and \"zh-Hans\" titles, reserved. */\n"
            out += "static const errcore_module \(modulesName)[\(definition.modules.count)] = {\n"
            for (index, module) in definition.modules.enumerated() {
                let offsets = moduleOffsets[index]
                let view = legacy(offsets.titles)
                out +=
                    "    {\(offsets.name), \(view.english), \(offset(view.chinese)), 0}, /* \(index + 1) \(CLiteral.comment(module.name)) */\n"
            }
            out += "};\n\n"
        }

        let rangesName: String
        if ranges.isEmpty {
            rangesName = "NULL"
        } else {
            rangesName = "\(prefix)ranges"
            out += "/* Module ranges: must stay ascending by first code and disjoint. */\n"
            out += "static const errcore_range \(rangesName)[\(ranges.count)] = {\n"
            for (range, module) in ranges {
                out +=
                    "    {\(CLiteral.int64(range.lowerBound)), \(CLiteral.int64(range.upperBound)), \(module)}, /* \(CLiteral.comment(definition.modules[module - 1].name)) */\n"
            }
            out += "};\n\n"
        }

        let index = table.pointer.pointee
        let indexCount = index.index_count
        if indexCount > 0 {
            out += "/* Classification index: every point where the answer changes, strictly ascending from\n"
            out += " * INT64_MIN; errcore_validate() proves it matches the entries and ranges above. */\n"
            out += "static const int64_t \(prefix)index_keys[\(indexCount)] = {\n"
            for slot in 0..<indexCount {
                out += "    \(CLiteral.int64(index.index_keys[slot])),\n"
            }
            out += "};\n\n"
            out += "/* index_slots[i]: {class of the key itself, class of the codes after it}. */\n"
            out += "static const errcore_index_slot \(prefix)index_slots[\(indexCount)] = {\n"
            for slot in 0..<indexCount {
                let value = index.index_slots[slot]
                out += "    {\(hex64(value.hit)), \(hex64(value.gap))},\n"
            }
            out += "};\n\n"
        }

        let front = frontSource(prefix: prefix)
        out += front.arrays

        out += "/* Language tags (pool offsets), the first the default language. */\n"
        out += "static const uint32_t \(prefix)languages[\(languages.count)] = {\n"
        for (k, language) in languages.enumerated() {
            out += "    \(tagOffsets[k]), /* \(CLiteral.comment(language.tag)) */\n"
        }
        out += "};\n\n"
        let languageList = languages.map(\.tag).joined(separator: ", ")
        out +=
            "/* messages[i * \(languages.count) + k]: entry i's message in language k (\(CLiteral.comment(languageList))). */\n"
        out += "static const uint32_t \(prefix)messages[\(rows.count * languages.count)] = {\n"
        for row in rows {
            out += "    \(row.messages.map(offset).joined(separator: ", ")), /* \(row.entry.code) */\n"
        }
        out += "};\n\n"
        let titlesName: String
        if definition.modules.isEmpty {
            titlesName = "NULL"
        } else {
            titlesName = "\(prefix)titles"
            out += "/* titles[(id - 1) * \(languages.count) + k]: module id's title in language k. */\n"
            out += "static const uint32_t \(titlesName)[\(definition.modules.count * languages.count)] = {\n"
            for (index, module) in definition.modules.enumerated() {
                out +=
                    "    \(moduleOffsets[index].titles.map(offset).joined(separator: ", ")), /* \(index + 1) \(CLiteral.comment(module.name)) */\n"
            }
            out += "};\n\n"
        }

        out += "static const errcore_table \(prefix)table = {\n"
        out += "    \(prefix)codes,\n"
        out += "    \(prefix)entries,\n"
        out += "    \(rows.count),\n"
        out += "    \(modulesName),\n"
        out += "    \(definition.modules.count),\n"
        out += "    \(rangesName),\n"
        out += "    \(ranges.count),\n"
        out += "    \(prefix)strings,\n"
        out += "    sizeof \(prefix)strings,\n"
        out += "    \(CLiteral.int64(definition.success.code)),\n"
        out += indexCount > 0 ? "    \(prefix)index_keys,\n    \(prefix)index_slots,\n" : "    NULL,\n    NULL,\n"
        out += "    \(indexCount),\n"
        out += front.initializer
        out += "    \(prefix)languages,\n"
        out += "    \(languages.count),\n"
        out += "    \(prefix)messages,\n"
        out += "    \(titlesName),\n"
        out += "};\n\n"
        out += "/* Declared here as in the catalog's header: exported by a library built with -fvisibility=hidden. */\n"
        out += "ERRCORE_API const errcore_table *errcore_\(symbol)_table(void);\n\n"
        out += "const errcore_table *errcore_\(symbol)_table(void) {\n"
        out += "    return &\(prefix)table;\n"
        out += "}\n"
        if let strings = stringTableSource(prefix: prefix) {
            out += "\n" + strings
        }
        return (out, pool)
    }

    /// The string table `errcore_string_build()` made for the catalog (``Catalog/strings``), as
    /// static arrays, the `errcore_string_table` and its function `errcore_<name>_strings()`; `nil`
    /// for a catalog without string codes or namespaces. The bytes are numbers, not a literal:
    /// string codes are binary-safe, and no text of the catalog reaches the code but in comments.
    private func stringTableSource(prefix: String) -> String? {
        guard let strings = table.strings?.pointee else { return nil }
        func text(_ offset: UInt32, _ length: UInt16) -> String {
            let bytes = UnsafeBufferPointer(start: strings.bytes + Int(offset), count: Int(length))
            let shown = String(decoding: bytes.prefix(48), as: UTF8.self)
            return CLiteral.comment(shown) + (length > 48 ? "..." : "")
        }
        var out = "/* String codes: every namespace's and string code's bytes, back to back. */\n"
        out += "static const unsigned char \(prefix)string_bytes[\(max(1, strings.bytes_size))] = {\n"
        if strings.bytes_size == 0 { out += "    0\n" }
        for start in stride(from: 0, to: strings.bytes_size, by: 16) {
            let row = (start..<min(start + 16, strings.bytes_size)).map { "\(strings.bytes[$0])" }
            out += "    " + row.joined(separator: ", ") + ",\n"
        }
        out += "};\n\n"
        var spacesName = "NULL"
        if strings.space_count > 0 {
            spacesName = "\(prefix)string_spaces"
            out += "/* Namespaces (ids 1, 2, ...): bytes offset, length, owning module; by length, then bytes. */\n"
            out += "static const errcore_string_space \(spacesName)[\(strings.space_count)] = {\n"
            for k in 0..<strings.space_count {
                let space = strings.spaces[k]
                out +=
                    "    {\(space.name)u, \(space.length)u, \(space.module)u}, /* \(k + 1): \(text(space.name, space.length)) */\n"
            }
            out += "};\n\n"
        }
        var slotsName = "NULL"
        var bucketsName = "NULL"
        if strings.slots != nil, strings.buckets != nil {
            slotsName = "\(prefix)string_slots"
            bucketsName = "\(prefix)string_buckets"
            let slotCount = Int(strings.slot_mask) + 1
            out += "/* String lookup: each code at its hash position with its entry's class, bytes offset, length\n"
            out += " * and namespace; errcore_string_validate() proves it. An empty slot has length 0. */\n"
            out += "static const errcore_string_slot \(slotsName)[\(slotCount)] = {\n"
            for position in 0..<slotCount {
                let slot = strings.slots[position]
                out += "    {\(hex64(slot.key_class)), \(slot.key)u, \(slot.length)u, \(slot.space)u},"
                out += slot.length > 0 ? " /* \(text(slot.key, slot.length)) */\n" : "\n"
            }
            out += "};\n\n"
            out += displacements("String lookup", name: bucketsName, strings.buckets, shift: strings.bucket_shift)
        }
        out += "static const errcore_string_table \(prefix)string_table = {\n"
        out += "    \(prefix)string_bytes,\n"
        out += "    \(strings.bytes_size),\n"
        out += "    \(spacesName),\n"
        out += "    \(strings.space_count),\n"
        out += "    \(slotsName),\n"
        out += "    \(bucketsName),\n"
        out += "    \(strings.code_count),\n"
        out += "    \(hex64(strings.seed)),\n"
        out += "    \(strings.slot_mask)u,\n"
        out += "    \(strings.bucket_shift),\n"
        let keys = withUnsafeBytes(of: strings.keys) { Array($0.bindMemory(to: UInt64.self)) }
        out += "    {\(keys.map(hex64).joined(separator: ", "))}, /* errcore_string_keys() of the seed */\n"
        out += "};\n\n"
        out += "/* Declared here as in the catalog's header: exported by a library built with -fvisibility=hidden. */\n"
        out += "ERRCORE_API const errcore_string_table *errcore_\(symbol)_strings(void);\n\n"
        out += "const errcore_string_table *errcore_\(symbol)_strings(void) {\n"
        out += "    return &\(prefix)string_table;\n"
        out += "}\n"
        return out
    }

    /// The include guard of the catalog's header: `shop` gives `ERRCORE_SHOP_CATALOG_H`.
    var headerGuard: String { "ERRCORE_\(symbol.uppercased())_CATALOG_H" }

    /// A header for the generated source (`errcat gen c --header`): it declares
    /// `errcore_<name>_table()` and says what the catalog holds.
    func generateHeader() -> String {
        let path = CLiteral.comment(sourcePath)
        let moduleCodes = definition.modules.reduce(0) { $0 + $1.codes.count }
        var out = "/*\n"
        out +=
            " * The \"\(CLiteral.comment(definition.name))\" catalog's table, defined by the source generated with this header.\n"
        out += " *\n"
        out += " * GENERATED by `errcat gen c \(path) --header`: do not edit by hand;\n"
        out += " * edit \(path) and regenerate.\n"
        out += " */\n"
        out += "#ifndef \(headerGuard)\n"
        out += "#define \(headerGuard)\n\n"
        out += "#include \"CErrCore.h\"\n\n"
        if definition.name == "default" {
            out +=
                "/* CErrCore.h's reminder to include errcore_default_catalog.h, a macro of this header's function. */\n"
            out += "#undef errcore_default_table\n\n"
        }
        out += "#ifdef __cplusplus\n"
        out += "extern \"C\" {\n"
        out += "#endif\n\n"
        out += "/*\n"
        out += " * errcore_\(symbol)_table — the catalog as static const data: success code\n"
        out +=
            " * \(definition.success.code), \(definition.base.count) base codes, \(moduleCodes) module codes in \(definition.modules.count) modules\n"
        if !definition.modules.isEmpty {
            out +=
                " * (module ids 1 to \(definition.modules.count) in the file's order; errcore_module_find() finds one\n"
            out += " * by name).\n"
        }
        out += " * Returns a pointer valid for the program's lifetime and safe to share\n"
        out += " * between threads. Never NULL.\n"
        out += " */\n"
        out += "ERRCORE_API const errcore_table *errcore_\(symbol)_table(void);\n\n"
        if let strings = table.strings?.pointee {
            out += "/*\n"
            out += " * errcore_\(symbol)_strings — the catalog's string codes as static const data:\n"
            out += " * \(strings.code_count) string codes in \(strings.space_count) namespaces, for\n"
            out += " * errcore_classify_string() with the table above. Returns a pointer valid for the\n"
            out += " * program's lifetime and safe to share between threads. Never NULL.\n"
            out += " */\n"
            out += "ERRCORE_API const errcore_string_table *errcore_\(symbol)_strings(void);\n\n"
        }
        out += "#ifdef __cplusplus\n"
        out += "}\n"
        out += "#endif\n\n"
        out += "#endif /* \(headerGuard) */\n"
        return out
    }

    /// ``generateHeader()``, after ``GeneratedSourceAudit`` has proved that its only string literals
    /// are the include and `extern "C"`, and its only identifiers the generator's.
    /// - Throws: `AuditFinding` when the text fails the audit (a generator bug: nothing is written).
    func generateHeaderChecked() throws(AuditFinding) -> String {
        let header = generateHeader()
        var identifiers = GeneratedSourceAudit.cWords
        identifiers.formUnion(GeneratedSourceAudit.cHeaderWords)
        identifiers.insert("errcore_\(symbol)_table")
        identifiers.insert("errcore_\(symbol)_strings")
        identifiers.insert(headerGuard)
        try GeneratedSourceAudit.checkC(header, include: "CErrCore.h", pool: Array("C".utf8), identifiers: identifiers)
        return header
    }

    /// The exact-match front `errcore_build()` computed for the catalog, as static arrays and the
    /// `errcore_front` initializer of the table (all zero when the build made no front).
    private func frontSource(prefix: String) -> (arrays: String, initializer: String) {
        let front = table.pointer.pointee.front
        guard let slots = front.slots, let buckets = front.buckets else {
            return ("", "    {NULL, NULL, NULL, 0, 0, 0, 0, 0, 0},\n")
        }
        let slotCount = Int(front.slot_mask) + 1
        var out = "/* Exact-match front: every table code at its hash position (errcore_front_position()), with\n"
        out += " * its class; errcore_validate() proves it. A slot no code hashes to holds a code that\n"
        out += " * hashes elsewhere. */\n"
        out += "static const errcore_front_slot \(prefix)front_slots[\(slotCount)] = {\n"
        for slot in 0..<slotCount {
            out += "    {\(CLiteral.int64(slots[slot].key)), \(hex64(slots[slot].key_class))},\n"
        }
        out += "};\n\n"
        out += displacements("Front", name: "\(prefix)front_buckets", buckets, shift: front.bucket_shift)
        var gapsName = "NULL"
        if let gaps = front.gaps {
            gapsName = "\(prefix)front_gaps"
            out += "/* Front gap table: {split, class before it, class from it} per stretch of codes. */\n"
            out += "static const errcore_front_gap \(gapsName)[\(front.gap_count + 1)] = {\n"
            for gap in 0...front.gap_count {
                let value = gaps[gap]
                out += "    {\(CLiteral.int64(value.split)), \(hex64(value.below)), \(hex64(value.above))},\n"
            }
            out += "};\n\n"
        }
        var initializer = "    {\(prefix)front_slots, \(prefix)front_buckets, \(gapsName),\n"
        initializer += "     \(hex64(front.multiplier)), \(CLiteral.int64(front.gap_base)), \(front.gap_count), "
        initializer += "\(front.slot_mask)u, \(front.bucket_shift), \(front.gap_shift)},\n"
        return (out, initializer)
    }

    /// A hash-and-displace lookup's displacements, one per bucket (`2^(32 - shift)` of them), as a
    /// static array: the exact-match front's and the string table's.
    private func displacements(_ what: String, name: String, _ buckets: UnsafePointer<UInt32>, shift: UInt8) -> String {
        let count = 1 << (32 - Int(shift))
        var out = "/* \(what) displacements, one per bucket. */\n"
        out += "static const uint32_t \(name)[\(count)] = {\n"
        for bucket in 0..<count {
            out += "    \(buckets[bucket])u,\n"
        }
        return out + "};\n\n"
    }

    /// `0x0123456789ABCDEFu`: sixteen upper-case hex digits.
    private func hex64(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits + "u"
    }

    private func hexFlags(_ flags: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x\(digits[Int(flags >> 4)])\(digits[Int(flags & 0xF)])u"
    }
}

/// The pool of NUL-terminated strings: offset 0 is the empty string, each distinct string
/// is stored once, in the order first added. Strings are told apart by their bytes: Swift's `==`
/// holds canonically equivalent strings equal ("é" and "e\u{301}"), which must stay two strings.
struct StringPool {
    private(set) var strings: [(text: String, offset: UInt32)] = [("", 0)]
    private var offsets: [[UInt8]: UInt32] = [[]: 0]
    /// Bytes in the pool: every string and its NUL.
    private(set) var size: UInt32 = 1

    /// The offset of `text`, adding it when new.
    mutating func add(_ text: String) -> UInt32 {
        let bytes = Array(text.utf8)
        if let offset = offsets[bytes] { return offset }
        let offset = size
        strings.append((text, offset))
        offsets[bytes] = offset
        size += UInt32(text.utf8.count) + 1
        return offset
    }
}
