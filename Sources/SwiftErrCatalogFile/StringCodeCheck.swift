import CErrCore
import SwiftErr

// The rules of a swifterr-catalog/3 file's shapes, namespaces and string codes, each problem at
// its place in the file with the other place involved: what Catalog.init would refuse (a
// namespace two modules own, a string code twice in one namespace, a module's string code in a
// namespace it does not own), and what no response could resolve (two shapes no response can
// tell apart).

extension CatalogDraft {
    /// `module "NAME"`, or `module N` (1-based) when its name is unusable, for a message.
    func moduleLabel(_ position: Int) -> String {
        modules[position].name.map { "module \(DisplayText.quoted($0))" } ?? "module \(position + 1)"
    }

    /// The namespace an entry's string code is in: the one written, else its module's first, else
    /// the catalog's own (`nil`). An empty one written is the catalog's own.
    func namespace(of entry: EntryDraft) -> String? {
        if let written = entry.namespace { return written.isEmpty ? nil : written }
        guard case .module(let position) = entry.scope else { return nil }
        return modules[position].namespaces.first?.name
    }
}

/// Checks a ``CatalogDraft``'s shapes, namespaces and string codes.
struct StringCodeCheck {
    /// Runs every check, adding the problems found to `problems`.
    static func check(_ draft: CatalogDraft, into problems: inout ProblemCollector) {
        checkShapes(draft, into: &problems)
        let owners = checkNamespaces(draft, into: &problems)
        checkStrings(draft, owners: owners, into: &problems)
    }

    private static func checkShapes(_ draft: CatalogDraft, into problems: inout ProblemCollector) {
        /// What no response can tell apart (``ShapeDefinition/isDistinguishable(from:)``).
        struct Selector: Hashable {
            var kind: ShapeDefinition.Kind
            var contentType: String?
            var code: ShapeDefinition.Location?
            var codeType: ShapeDefinition.CodeType
            var failure: ShapeDefinition.Failure
        }
        var names: [String: Int] = [:]
        var selectors: [Selector: (name: String, offset: Int)] = [:]
        for shape in draft.shapes {
            let definition = shape.definition
            let label = "shape \(DisplayText.quoted(definition.name))"
            if !GeneratedNames.isIdentifier(definition.name) {
                problems.report(
                    shape.nameOffset,
                    "\(label) name is not an identifier (ASCII letters, digits and '_', not starting with a digit)")
            }
            if let earlier = names[definition.name] {
                problems.report(shape.nameOffset, "\(label) is declared twice", related: earlier)
                continue
            }
            names[definition.name] = shape.nameOffset
            let selector = Selector(
                kind: definition.kind, contentType: definition.contentType.map { asciiLowercased($0) },
                code: definition.code, codeType: definition.codeType, failure: definition.failure)
            if let earlier = selectors[selector] {
                problems.report(
                    shape.offset,
                    "\(label) is ambiguous: no response can tell it from shape \(DisplayText.quoted(earlier.name)) (same kind, contentType, code, codeType and failure)",
                    related: earlier.offset)
            } else {
                selectors[selector] = (definition.name, shape.offset)
            }
        }
    }

    /// Reports empty, overlong and twice-owned namespaces; returns each owned namespace's module
    /// (0-based) and where it is written.
    private static func checkNamespaces(
        _ draft: CatalogDraft, into problems: inout ProblemCollector
    ) -> [String: (module: Int, offset: Int)] {
        var owners: [String: (module: Int, offset: Int)] = [:]
        for (position, module) in draft.modules.enumerated() {
            let label = draft.moduleLabel(position)
            for (name, offset) in module.namespaces {
                if name.isEmpty {
                    problems.report(offset, "\(label) owns an empty namespace (the catalog's own belongs to no module)")
                    continue
                }
                if let problem = Self.lengthProblem(of: name, "a namespace of \(label)") {
                    problems.report(offset, problem)
                    continue
                }
                if let earlier = owners[name] {
                    let other = draft.moduleLabel(earlier.module)
                    problems.report(
                        offset,
                        "namespace \(DisplayText.quoted(name)) is owned by \(label) and by \(other)",
                        related: earlier.offset)
                    continue
                }
                owners[name] = (position, offset)
            }
        }
        return owners
    }

    private static func checkStrings(
        _ draft: CatalogDraft, owners: [String: (module: Int, offset: Int)], into problems: inout ProblemCollector
    ) {
        struct Key: Hashable {
            var namespace: String?
            var string: String
        }
        var seen: [Key: Int] = [:]
        var entries: [EntryDraft] = []
        if let success = draft.success { entries.append(success) }
        entries += draft.base
        for module in draft.modules { entries += module.codes }
        for entry in entries {
            let label = Self.label(entry, in: draft)
            guard let string = entry.string else {
                if entry.namespace != nil {
                    problems.report(entry.namespaceOffset, "\(label) has a \"namespace\" but no \"string\"")
                }
                continue
            }
            if string.isEmpty {
                problems.report(entry.stringOffset, "the string code of \(label) is empty")
                continue
            }
            if let problem = Self.lengthProblem(of: string, "the string code of \(label)") {
                problems.report(entry.stringOffset, problem)
                continue
            }
            let namespace = draft.namespace(of: entry)
            let place = entry.namespace != nil ? entry.namespaceOffset : entry.stringOffset
            if let namespace {
                let owner = owners[namespace]
                switch entry.scope {
                case .module(let position) where owner?.module != position:
                    let ownerText = owner.map { draft.moduleLabel($0.module) } ?? "no module"
                    problems.report(
                        place,
                        "\(label) is in namespace \(DisplayText.quoted(namespace)), which \(ownerText) owns (a module's string codes are in its own namespaces, or the catalog's own: \"namespace\": \"\")",
                        related: owner?.offset)
                    continue
                case .success, .base:
                    if let owner {
                        let ownerText = draft.moduleLabel(owner.module)
                        problems.report(
                            place,
                            "\(label) is in namespace \(DisplayText.quoted(namespace)), which \(ownerText) owns",
                            related: owner.offset)
                        continue
                    }
                default:
                    break
                }
                if namespace.utf8.count > Int(ERRCORE_MAX_STRING_LENGTH) {
                    problems.report(
                        place,
                        "the namespace of \(label) is \(namespace.utf8.count) bytes long, at most \(ERRCORE_MAX_STRING_LENGTH) allowed"
                    )
                    continue
                }
            }
            let key = Key(namespace: namespace, string: string)
            if let earlier = seen[key] {
                let space = namespace.map { "namespace \(DisplayText.quoted($0))" } ?? "the catalog's own namespace"
                problems.report(
                    entry.stringOffset,
                    "string code \(DisplayText.quoted(string)) appears twice in \(space) (\(label))",
                    related: earlier)
                continue
            }
            seen[key] = entry.stringOffset
        }
    }

    /// The problem of a string code or namespace longer than the C string table takes
    /// (`ERRCORE_MAX_STRING_LENGTH` bytes), `what` naming it; `nil` when it fits.
    static func lengthProblem(of text: String, _ what: String) -> String? {
        let length = text.utf8.count
        guard length > Int(ERRCORE_MAX_STRING_LENGTH) else { return nil }
        return "\(what) is \(length) bytes long, at most \(ERRCORE_MAX_STRING_LENGTH) allowed"
    }

    private static func label(_ entry: EntryDraft, in draft: CatalogDraft) -> String {
        let name = entry.name.map { " \(DisplayText.quoted($0))" } ?? ""
        switch entry.scope {
        case .success: return "the success entry\(name)"
        case .base: return "base entry\(name)"
        case .module(let position):
            return "entry\(name) of \(draft.moduleLabel(position))"
        }
    }

    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
