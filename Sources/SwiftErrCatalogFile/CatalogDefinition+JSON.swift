import SwiftErr

extension CatalogDefinition {
    /// The value of the `"format"` key of the catalog files this library writes: version 3, which
    /// adds to version 2 the catalog's `"shapes"`, the string `"namespaces"` a module owns, and an
    /// entry's `"string"` code and its `"namespace"` (all optional).
    public static let fileFormat = "swifterr-catalog/3"

    /// The second format, still read: a top-level `"languages"` list (the first the default) and
    /// messages under any BCP 47 tag; no shapes, namespaces or string codes.
    public static let secondFileFormat = "swifterr-catalog/2"

    /// The first format, still read: messages in `"en"` (required) and `"zh-Hans"` only, no
    /// `"languages"` list.
    public static let firstFileFormat = "swifterr-catalog/1"

    /// The most problems ``init(json:problemLimit:)`` keeps by default.
    public static let defaultProblemLimit = 1000

    /// Reads a catalog file — the JSON format of `catalog/default.json` — reporting every problem
    /// with its line and column.
    ///
    /// It reads the three formats: ``fileFormat`` (`swifterr-catalog/3`: the second format plus
    /// shapes, namespaces and string codes), ``secondFileFormat`` (`swifterr-catalog/2`: a
    /// `"languages"` list of BCP 47 tags, the first the default, and messages and titles under
    /// those tags, each with a text in the default language) and ``firstFileFormat``
    /// (`swifterr-catalog/1`: `"en"` and `"zh-Hans"`). A malformed tag, a tag the list does not have, a tag listed or used twice in one
    /// object (ignoring case) and a text missing in the default language are problems; a text
    /// missing in another language is not (lookups fall back; `errcat check` warns).
    ///
    /// The reader is strict: it accepts exactly one JSON document (RFC 8259, UTF-8, no
    /// comments), rejects unknown keys, and then checks the rules `Catalog.init(_:)` enforces
    /// (unique codes, disjoint ranges, module codes inside their module's ranges, base codes
    /// outside every range, non-empty unique names), plus that every name is an identifier,
    /// every flag name is known; in the third format, that every shape is well formed, named by
    /// an identifier used once and distinguishable from the others
    /// (``ShapeDefinition/isDistinguishable(from:)``), that no namespace is owned twice, that a
    /// module's string codes are in its own namespaces (an entry without `"namespace"` is in its
    /// module's first, or the catalog's own) and a base entry's in none a module owns, and that no
    /// string code appears twice in one namespace; and that the C and Swift that `errcat gen` writes from the catalog
    /// compile: no name that the generated sources already use (`BaseCode.rawValue`, a case
    /// named `code` or `Self`, a module named `module`), no two modules whose Swift files differ
    /// only in letter case. It does not stop at the first problem: a file with three duplicate
    /// codes gets three problems.
    ///
    /// Text from the file that a problem's message quotes is escaped: control characters,
    /// bidirectional controls and other invisible characters appear as `\u{…}`.
    ///
    /// Reading takes O(n log n) time in the size of the file, however many problems it has: the
    /// first `problemLimit` problems in file order are kept, the others only counted
    /// (``CatalogFileError/omittedCount``).
    ///
    /// <!-- listing: context=app -->
    /// ```swift
    /// do {
    ///     let catalog = try Catalog(CatalogDefinition(json: bytes))
    /// } catch let error as CatalogFileError {
    ///     for problem in error.problems { print("catalog.json:\(problem)") }
    /// }
    /// ```
    /// - Parameters:
    ///   - bytes: The file's contents (UTF-8 JSON).
    ///   - problemLimit: The most problems the error lists (at least one is always listed).
    /// - Throws: ``CatalogFileError`` with the problems found, sorted by location. A JSON syntax
    ///   error stops reading, so it is then the only problem.
    public init(json bytes: [UInt8], problemLimit: Int = CatalogDefinition.defaultProblemLimit) throws(CatalogFileError)
    {
        self = try Self.read(json: bytes, problemLimit: problemLimit).definition
    }

    /// Reads a catalog file as ``init(json:problemLimit:)`` does, and also locates what it lacks:
    /// each of the definition's ``missingTranslations`` with the place of the entry or module that
    /// lacks the text, for `errcat check` and `errcat gen` (and so the SwiftErrCatalogPlugin) to
    /// print as `FILE:LINE:COLUMN: warning: …`.
    /// - Parameters:
    ///   - bytes: The file's contents (UTF-8 JSON).
    ///   - problemLimit: The most problems the error lists.
    /// - Returns: The definition and its located missing translations, in file order.
    /// - Throws: ``CatalogFileError`` as ``init(json:problemLimit:)`` does.
    package static func readLocated(
        json bytes: [UInt8], problemLimit: Int = CatalogDefinition.defaultProblemLimit
    ) throws(CatalogFileError) -> LocatedCatalogFile {
        let (definition, draft, lines) = try read(json: bytes, problemLimit: problemLimit)
        // The texts in the order `missingTranslations` visits them: the success entry, the base
        // entries, then each module's title and its entries; the definition keeps the draft's order.
        var offsets: [Int] = []
        if let success = draft.success { offsets.append(success.offset) }
        offsets += draft.base.map(\.offset)
        for module in draft.modules {
            offsets.append(module.offset)
            offsets += module.codes.map(\.offset)
        }
        let visits = definition.textVisits
        precondition(visits.count == offsets.count, "a catalog file's definition keeps its draft's texts")
        var wanted: [Int] = []
        var missing: [MissingTranslation] = []
        for (position, visit) in visits.enumerated() {
            for translation in visit.missing {
                missing.append(translation)
                wanted.append(offsets[position])
            }
        }
        let locations = lines.locations(of: wanted)
        return LocatedCatalogFile(
            definition: definition,
            missingTranslations: zip(missing, locations).map {
                LocatedMissingTranslation(translation: $0, location: $1)
            })
    }

    /// The definition read from a file, the draft it was made from and the file's line index.
    private static func read(
        json bytes: [UInt8], problemLimit: Int
    ) throws(CatalogFileError) -> (definition: CatalogDefinition, draft: CatalogDraft, lines: LineIndex) {
        let lines = LineIndex(bytes)
        func failure(_ collector: ProblemCollector) -> CatalogFileError {
            let problems = collector.problems
            var offsets = problems.map(\.offset)
            for problem in problems { if let related = problem.relatedOffset { offsets.append(related) } }
            let locations = lines.locations(of: offsets)
            var nextRelated = problems.count
            var located: [CatalogFileProblem] = []
            located.reserveCapacity(problems.count)
            for (index, problem) in problems.enumerated() {
                var related: SourceLocation? = nil
                if problem.relatedOffset != nil {
                    related = locations[nextRelated]
                    nextRelated += 1
                }
                located.append(
                    CatalogFileProblem(location: locations[index], message: problem.message, related: related))
            }
            return CatalogFileError(problems: located, omittedCount: collector.omittedCount)
        }
        let limit = max(1, problemLimit)
        let parsed = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) -> JSONNode in try JSONTreeParser.parse(raw) }
        }
        let root: JSONNode
        switch parsed {
        case .success(let node):
            root = node
        case .failure(let error):
            let onlyWhitespace = bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            let message = onlyWhitespace ? "the file contains no JSON value" : error.message
            var collector = ProblemCollector(limit: limit)
            collector.report(error.offset, "invalid JSON: \(message)")
            throw failure(collector)
        }
        var decoder = CatalogFileDecoder(problemLimit: limit)
        let draft = decoder.decode(root)
        var problems = decoder.problems
        CatalogConsistencyCheck.check(draft, into: &problems)
        StringCodeCheck.check(draft, into: &problems)
        GeneratedNameCheck.check(draft, into: &problems)
        guard problems.isEmpty, let success = draft.success, let successCode = success.code else {
            if problems.isEmpty {
                // Unreachable: a missing or unusable success entry is always reported. Kept so a
                // future change cannot turn it into a silent default.
                throw CatalogFileError(problems: [
                    CatalogFileProblem(
                        location: SourceLocation(line: 1, column: 1),
                        message: "the catalog has no usable success entry")
                ])
            }
            throw failure(problems)
        }
        func definition(_ entry: EntryDraft, code: Int64) -> EntryDefinition {
            var result = EntryDefinition(
                code: code, name: entry.name ?? "", flags: CodeFlags(rawValue: entry.flags),
                message: LocalizedText(entry.texts))
            result.string = entry.string
            result.namespace = entry.string == nil ? nil : draft.namespace(of: entry)
            return result
        }
        // Without problems every entry has a code (a missing or unusable one is reported).
        let result = CatalogDefinition(
            name: draft.name,
            success: definition(success, code: successCode),
            base: draft.base.map { definition($0, code: $0.code ?? 0) },
            modules: draft.modules.map { module in
                ModuleDefinition(
                    name: module.name ?? "",
                    title: LocalizedText(module.title),
                    ranges: module.ranges.map { $0.first...$0.last },
                    namespaces: module.namespaces.map(\.name),
                    codes: module.codes.map { definition($0, code: $0.code ?? 0) })
            },
            languages: draft.languages, shapes: draft.shapes.map(\.definition))
        return (result, draft, lines)
    }
}
