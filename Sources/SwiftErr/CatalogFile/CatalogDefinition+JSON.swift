extension CatalogDefinition {
    /// The value of the `"format"` key of the catalog files this library reads.
    public static let fileFormat = "swifterr-catalog/1"

    /// Reads a catalog file — the JSON format of `catalog/default.json` — reporting every problem
    /// with its line and column.
    ///
    /// The reader is strict: it accepts exactly one JSON document (RFC 8259, UTF-8, no
    /// comments), rejects unknown keys, and then checks the rules ``Catalog/init(_:)`` enforces
    /// (unique codes, disjoint ranges, module codes inside their module's ranges, base codes
    /// outside every range, non-empty unique names), plus that every name is an identifier and
    /// every flag name is known. It does not stop at the first problem: a file with three
    /// duplicate codes gets three problems.
    ///
    /// ```swift
    /// do {
    ///     let catalog = try Catalog(CatalogDefinition(json: bytes))
    /// } catch let error as CatalogFileError {
    ///     for problem in error.problems { print("catalog.json:\(problem)") }
    /// }
    /// ```
    /// - Parameter bytes: The file's contents (UTF-8 JSON).
    /// - Throws: ``CatalogFileError`` with every problem found, sorted by location. A JSON
    ///   syntax error stops reading, so it is then the only problem.
    public init(json bytes: [UInt8]) throws(CatalogFileError) {
        let lines = LineIndex(bytes)
        func located(_ problems: [DraftProblem]) -> [CatalogFileProblem] {
            problems.map { problem in
                CatalogFileProblem(
                    location: lines.location(of: problem.offset), message: problem.message,
                    related: problem.relatedOffset.map { lines.location(of: $0) })
            }
            .enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
        }
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
            throw CatalogFileError(
                problems: located([DraftProblem(offset: error.offset, message: "invalid JSON: \(message)")]))
        }
        var decoder = CatalogFileDecoder()
        let draft = decoder.decode(root)
        let problems = decoder.problems + CatalogConsistencyCheck.problems(in: draft)
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
            throw CatalogFileError(problems: located(problems))
        }
        func definition(_ entry: EntryDraft, code: Int64) -> EntryDefinition {
            EntryDefinition(
                code: code, name: entry.name ?? "", flags: CodeFlags(rawValue: entry.flags),
                message: LocalizedText(english: entry.english, simplifiedChinese: entry.chinese))
        }
        // Without problems every entry has a code (a missing or unusable one is reported).
        self.init(
            name: draft.name,
            success: definition(success, code: successCode),
            base: draft.base.map { definition($0, code: $0.code ?? 0) },
            modules: draft.modules.map { module in
                ModuleDefinition(
                    name: module.name ?? "",
                    title: LocalizedText(english: module.titleEnglish, simplifiedChinese: module.titleChinese),
                    ranges: module.ranges.map { $0.first...$0.last },
                    codes: module.codes.map { definition($0, code: $0.code ?? 0) })
            })
    }
}
