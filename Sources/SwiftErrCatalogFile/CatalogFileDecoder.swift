import SwiftErr

// Turns the JSON tree of a catalog file into a CatalogDraft, collecting every
// shape problem (missing or unknown keys, wrong types, unusable numbers, unknown
// flags) instead of stopping at the first.

/// Reads the `swifterr-catalog/3`, `/2` and `/1` layouts out of a JSON tree.
struct CatalogFileDecoder {
    /// Problems found so far.
    private(set) var problems: ProblemCollector
    /// The languages of a `/2` file, the first the default; `nil` for a `/1` file (or before the
    /// list is read, or when it is unusable).
    private var languages: [Language]? = nil
    /// Whether the file is in the first format (messages in "en" and "zh-Hans" only).
    private var firstFormat = false
    /// Whether the file is in the third format (shapes, namespaces and string codes).
    private(set) var thirdFormat = false

    /// A decoder keeping at most `problemLimit` problems (it counts the others).
    init(problemLimit: Int) {
        problems = ProblemCollector(limit: problemLimit)
    }

    /// Decodes the root value. Parts that cannot be used are left out of the draft
    /// (and reported), so later checks see as much of the catalog as possible.
    mutating func decode(_ root: JSONNode) -> CatalogDraft {
        var draft = CatalogDraft(name: "", nameOffset: root.offset, success: nil, base: [], modules: [])
        guard
            let members = members(
                of: root, what: "the catalog",
                allowed: ["format", "name", "languages", "shapes", "success", "base", "modules"],
                required: ["format", "name", "success"])
        else {
            return draft
        }
        var knownFormat = true
        if let format = members["format"], let text = string(format, what: "\"format\"") {
            if text == CatalogDefinition.firstFileFormat {
                firstFormat = true
            } else if text == CatalogDefinition.fileFormat {
                thirdFormat = true
            } else if text != CatalogDefinition.secondFileFormat {
                knownFormat = false
                report(
                    format.offset,
                    "unsupported format \(DisplayText.quoted(text)) (expected \"\(CatalogDefinition.fileFormat)\", \"\(CatalogDefinition.secondFileFormat)\" or \"\(CatalogDefinition.firstFileFormat)\")"
                )
            }
        }
        if let list = members["languages"] {
            if firstFormat {
                report(
                    list.offset,
                    "\"languages\" needs format \"\(CatalogDefinition.secondFileFormat)\" or later (a \"\(CatalogDefinition.firstFileFormat)\" file has \"en\" and \"zh-Hans\" only)"
                )
            } else {
                languages = languageList(list)
            }
        } else if !firstFormat && knownFormat {
            report(
                root.offset,
                "the catalog has no \"languages\" (a \"\(CatalogDefinition.secondFileFormat)\" or \"\(CatalogDefinition.fileFormat)\" file lists its languages, the first the default)"
            )
        }
        draft.languages = firstFormat ? nil : languages
        if let shapes = members["shapes"], needsThirdFormat(shapes, key: "shapes"),
            let elements = array(shapes, what: "\"shapes\"")
        {
            for element in elements {
                if let shape = shape(element) { draft.shapes.append(shape) }
            }
        }
        if let name = members["name"], let text = string(name, what: "the catalog \"name\"") {
            if text.isEmpty {
                report(name.offset, "the catalog name is empty")
            }
            draft.name = text
            draft.nameOffset = name.offset
        }
        if let success = members["success"] {
            draft.success = entry(success, scope: .success, what: "the success entry")
        }
        if let base = members["base"], let elements = array(base, what: "\"base\"") {
            for element in elements {
                if let entry = entry(element, scope: .base, what: "a base entry") {
                    draft.base.append(entry)
                }
            }
        }
        if let modules = members["modules"], let elements = array(modules, what: "\"modules\"") {
            for element in elements {
                if let module = module(element, position: draft.modules.count) {
                    draft.modules.append(module)
                } else {
                    // Keep positions (module ids) stable: a broken module still takes its id.
                    draft.modules.append(
                        ModuleDraft(
                            name: nil, nameOffset: element.offset, title: [:], ranges: [], codes: [],
                            offset: element.offset))
                }
            }
        }
        return draft
    }

    // MARK: - Parts

    private mutating func module(_ node: JSONNode, position: Int) -> ModuleDraft? {
        guard
            let members = members(
                of: node, what: "a module",
                allowed: ["name", "title", "ranges", "namespaces", "codes"],
                required: ["name", "ranges"])
        else {
            return nil
        }
        var module = ModuleDraft(
            name: nil, nameOffset: node.offset, title: [:],
            ranges: [], codes: [], offset: node.offset)
        if let name = members["name"], let text = string(name, what: "a module \"name\"") {
            module.name = text
            module.nameOffset = name.offset
        }
        let moduleName = module.name
        func label() -> String { moduleName.map { "module \(DisplayText.quoted($0))" } ?? "module \(position + 1)" }
        if let title = members["title"] {
            if let texts = localizedText(title, what: "the title of \(label())") {
                module.title = texts
            }
        } else {
            module.title = [defaultLanguage: module.name ?? ""]
        }
        if let ranges = members["ranges"], let elements = array(ranges, what: "the \"ranges\" of \(label())") {
            if elements.isEmpty {
                report(ranges.offset, "\(label()) has no ranges: a module must own at least one range of codes")
            }
            for element in elements {
                if let range = range(element, module: position, label: label()) {
                    module.ranges.append(range)
                }
            }
        }
        if let namespaces = members["namespaces"], needsThirdFormat(namespaces, key: "namespaces"),
            let elements = array(namespaces, what: "the \"namespaces\" of \(label())")
        {
            for element in elements {
                if let name = string(element, what: "a namespace of \(label())") {
                    module.namespaces.append((name, element.offset))
                }
            }
        }
        if let codes = members["codes"], let elements = array(codes, what: "the \"codes\" of \(label())") {
            for element in elements {
                if let entry = entry(element, scope: .module(position), what: "an entry of \(label())") {
                    module.codes.append(entry)
                }
            }
        }
        return module
    }

    private mutating func range(_ node: JSONNode, module: Int, label: @autoclosure () -> String) -> RangeDraft? {
        guard case .array(let bounds) = node.value else {
            report(
                node.offset, "a range of \(label()) must be an array [first, last], found \(Self.kind(of: node.value))")
            return nil
        }
        guard bounds.count == 2 else {
            report(
                node.offset, "a range of \(label()) must have exactly two codes [first, last], found \(bounds.count)")
            return nil
        }
        let first = integer(bounds[0], what: "the first code of a range of \(label())")
        let last = integer(bounds[1], what: "the last code of a range of \(label())")
        guard let first, let last else { return nil }
        return RangeDraft(first: first, last: last, module: module, offset: node.offset)
    }

    private mutating func entry(_ node: JSONNode, scope: EntryScope, what: @autoclosure () -> String) -> EntryDraft? {
        guard
            let members = members(
                of: node, what: what(),
                allowed: ["code", "name", "string", "namespace", "flags", "message"],
                required: ["code", "name", "message"])
        else {
            return nil
        }
        var entry = EntryDraft(
            scope: scope, code: nil, codeOffset: node.offset, name: nil, nameOffset: node.offset,
            flags: 0, texts: [:], offset: node.offset)
        if let name = members["name"], let text = string(name, what: "the \"name\" of \(what())") {
            entry.name = text
            entry.nameOffset = name.offset
        }
        let entryName = entry.name
        func label() -> String { entryName.map { "entry \(DisplayText.quoted($0))" } ?? what() }
        if let code = members["code"] {
            entry.code = integer(code, what: "the code of \(label())")
            entry.codeOffset = code.offset
        }
        if let string = members["string"], needsThirdFormat(string, key: "string"),
            let text = self.string(string, what: "the string code of \(label())")
        {
            entry.string = text
            entry.stringOffset = string.offset
        }
        if let namespace = members["namespace"], needsThirdFormat(namespace, key: "namespace"),
            let text = self.string(namespace, what: "the namespace of \(label())")
        {
            entry.namespace = text
            entry.namespaceOffset = namespace.offset
        }
        if let flags = members["flags"], let elements = array(flags, what: "the \"flags\" of \(label())") {
            for element in elements {
                guard let flagName = string(element, what: "a flag of \(label())") else { continue }
                if let flag = CodeFlags(name: flagName) {
                    entry.flags |= flag.rawValue
                } else {
                    report(
                        element.offset,
                        "unknown flag \(DisplayText.quoted(flagName)) on \(label()) (known flags: retryable, reauthenticate, showUser, fatal, app4 ... app7)"
                    )
                }
            }
        }
        if let message = members["message"], let texts = localizedText(message, what: "the message of \(label())") {
            entry.texts = texts
        }
        return entry
    }

    /// The language every text must have: the first listed (English in a `/1` file, or when the
    /// list is unusable).
    private var defaultLanguage: Language { languages?.first ?? .english }

    /// A `/2` file's `"languages"`: well-formed tags, none twice (ignoring case), at least one;
    /// `nil` (reported) when unusable.
    private mutating func languageList(_ node: JSONNode) -> [Language]? {
        guard let elements = array(node, what: "\"languages\"") else { return nil }
        if elements.isEmpty {
            report(node.offset, "\"languages\" is empty: a catalog has at least its default language")
            return nil
        }
        var result: [Language] = []
        var seen: [Language: Int] = [:]
        for element in elements {
            guard let text = string(element, what: "a language tag in \"languages\"") else { continue }
            guard let language = Language(tag: text) else {
                report(element.offset, Self.malformedTag(text, what: "\"languages\""))
                continue
            }
            if let earlier = seen[language] {
                report(
                    element.offset,
                    "language \(DisplayText.quoted(text)) appears twice in \"languages\" (tags ignore case)",
                    related: earlier)
                continue
            }
            seen[language] = element.offset
            result.append(language)
        }
        return result.isEmpty ? nil : result
    }

    private static func malformedTag(_ text: String, what: String) -> String {
        "malformed language tag \(DisplayText.quoted(text)) in \(what) (a BCP 47 tag: subtags of 1 to 8 letters or digits joined by \"-\", the first 2 to 8 letters, such as en, zh-Hans, pt-BR)"
    }

    /// A message or title object: its text in each language, or `nil` (reported) when it has no
    /// usable text in the default language.
    private mutating func localizedText(_ node: JSONNode, what: @autoclosure () -> String) -> [Language: String]? {
        let allowed: [String]? = firstFormat ? ["en", "zh-Hans"] : nil
        guard let members = members(of: node, what: what(), allowed: allowed, required: []) else {
            return nil
        }
        var texts: [Language: String] = [:]
        var offsets: [Language: Int] = [:]
        for (key, keyOffset, value) in members.all {
            guard let language = Language(tag: key) else {
                report(keyOffset, Self.malformedTag(key, what: what()))
                continue
            }
            if let listed = languages, !listed.contains(language) {
                report(
                    keyOffset,
                    "language \(DisplayText.quoted(key)) of \(what()) is not in the catalog's \"languages\" (\(listed.map(\.tag).joined(separator: ", ")))"
                )
                continue
            }
            if let earlier = offsets[language] {
                report(
                    keyOffset, "language \(DisplayText.quoted(key)) appears twice in \(what()) (tags ignore case)",
                    related: earlier)
                continue
            }
            offsets[language] = keyOffset
            let label = "the \(language.tag) text of \(what())"
            if let text = string(value, what: label) {
                checkNoNUL(text, at: value.offset, what: label)
                texts[language] = text
            }
        }
        let required = defaultLanguage
        guard texts[required] != nil else {
            if offsets[required] == nil {
                report(node.offset, "\(what()) has no \"\(required.tag)\" (the default language)")
            }
            return nil
        }
        return texts
    }

    // MARK: - Values

    mutating func checkNoNUL(_ text: String, at offset: Int, what: @autoclosure () -> String) {
        if text.utf8.contains(0) {
            report(offset, "\(what()) contains a NUL character (\\u0000), which a C string cannot hold")
        }
    }

    /// The members of an object by key, after reporting unknown, repeated and missing keys;
    /// nil (reported) when the node is not an object.
    mutating func members(
        of node: JSONNode, what: @autoclosure () -> String, allowed: [String]?,
        required: [String]
    ) -> Members? {
        guard case .object(let list) = node.value else {
            report(node.offset, "\(what()) must be an object, found \(Self.kind(of: node.value))")
            return nil
        }
        var found = Members()
        // Keys seen so far: a list for the small objects of the format, a dictionary once an
        // object is large (a hostile file may repeat a key a million times).
        var seenList: [(key: String, offset: Int)] = []
        var seenTable: [String: Int] = [:]
        for member in list {
            let earlier: Int?
            if list.count <= 16 {
                earlier = seenList.first { $0.key == member.key }?.offset
                if earlier == nil { seenList.append((member.key, member.keyOffset)) }
            } else {
                earlier = seenTable[member.key]
                if earlier == nil { seenTable[member.key] = member.keyOffset }
            }
            if let earlier {
                report(
                    member.keyOffset, "key \(DisplayText.quoted(member.key)) appears twice in \(what())",
                    related: earlier
                )
                continue
            }
            if let allowed, !allowed.contains(member.key) {
                report(
                    member.keyOffset,
                    "unknown key \(DisplayText.quoted(member.key)) in \(what()) (expected \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")))"
                )
            } else {
                found.add(member.key, member.value, keyOffset: member.keyOffset)
            }
        }
        for key in required where found[key] == nil {
            report(node.offset, "\(what()) has no \"\(key)\"")
        }
        return found
    }

    /// The allowed members of one object, by key, in file order.
    struct Members {
        private var entries: [(key: String, keyOffset: Int, node: JSONNode)] = []

        mutating func add(_ key: String, _ node: JSONNode, keyOffset: Int) {
            entries.append((key, keyOffset, node))
        }

        subscript(key: String) -> JSONNode? {
            entries.first { $0.key == key }?.node
        }

        /// Every member: key, the key's offset and value.
        var all: [(key: String, keyOffset: Int, node: JSONNode)] { entries }
    }

    mutating func string(_ node: JSONNode, what: @autoclosure () -> String) -> String? {
        guard case .string(let text) = node.value else {
            report(node.offset, "\(what()) must be a string, found \(Self.kind(of: node.value))")
            return nil
        }
        return text
    }

    mutating func array(_ node: JSONNode, what: @autoclosure () -> String) -> [JSONNode]? {
        guard case .array(let elements) = node.value else {
            report(node.offset, "\(what()) must be an array, found \(Self.kind(of: node.value))")
            return nil
        }
        return elements
    }

    mutating func integer(_ node: JSONNode, what: @autoclosure () -> String) -> Int64? {
        guard case .number(let number) = node.value else {
            report(node.offset, "\(what()) must be an integer, found \(Self.kind(of: node.value))")
            return nil
        }
        if let value = number.integer { return value }
        if number.hasFractionOrExponent {
            report(node.offset, "\(what()) must be an integer, found \(DisplayText.bare(number.text, limit: 40))")
        } else {
            report(
                node.offset,
                "\(what()) \(DisplayText.bare(number.text, limit: 40)) does not fit in a signed 64-bit integer")
        }
        return nil
    }

    /// What a value is, for a message: a number's own text is cut to a readable length.
    static func kind(of value: JSONValue) -> String {
        if case .number(let number) = value, number.integer == nil {
            return "the number \(DisplayText.bare(number.text, limit: 40))"
        }
        return value.kindDescription
    }

    mutating func report(_ offset: Int, _ message: @autoclosure () -> String, related: Int? = nil) {
        problems.report(offset, message(), related: related)
    }
}

extension CatalogFileDecoder {
    /// Whether a key of the third format may be used: reported (and skipped) in a `/1` or `/2` file.
    mutating func needsThirdFormat(_ node: JSONNode, key: String) -> Bool {
        if thirdFormat { return true }
        report(
            node.offset,
            "\"\(key)\" needs format \"\(CatalogDefinition.fileFormat)\" (errcat migrate rewrites a \"\(CatalogDefinition.secondFileFormat)\" or \"\(CatalogDefinition.firstFileFormat)\" file in it)"
        )
        return false
    }
}
