import SwiftErr

// The rules that make a catalog generatable: its names must not collide with the names the
// generated C and Swift use (GeneratedNames), nor with each other once turned into file names.

/// Checks a ``CatalogDraft`` for names that `errcat gen c` or `errcat gen swift` cannot write.
///
/// Only names that are identifiers are checked here; others are already reported.
struct GeneratedNameCheck {
    private let draft: CatalogDraft

    /// Reports every generation problem of `draft` into `problems`.
    static func check(_ draft: CatalogDraft, into problems: inout ProblemCollector) {
        GeneratedNameCheck(draft: draft).run(into: &problems)
    }

    private func run(into problems: inout ProblemCollector) {
        checkCatalogName(into: &problems)
        for entry in draft.base {
            guard let name = entry.name, GeneratedNames.isIdentifier(name),
                let why = GeneratedNames.baseNameProblem(name)
            else { continue }
            problems.report(
                entry.nameOffset,
                "the base entry name \(DisplayText.quoted(name)) is reserved: the generated Swift makes it BaseCode.\(name), which is \(why)"
            )
        }
        checkModules(into: &problems)
    }

    private func checkCatalogName(into problems: inout ProblemCollector) {
        let name = draft.name
        guard !name.isEmpty, !GeneratedNames.isIdentifier(name) else { return }
        problems.report(
            draft.nameOffset,
            "the catalog name \(DisplayText.quoted(name)) is not an identifier (ASCII letters, digits and '_', not starting with a digit): it names the C function errcore_<name>_table() and the Swift file BaseCode+<Name>.swift"
        )
    }

    /// The catalog's type in the `--installing` form, when the catalog name is an identifier.
    private var catalogType: String? {
        GeneratedNames.isIdentifier(draft.name) ? GeneratedNames.catalogTypeName(catalog: draft.name) : nil
    }

    private func checkModules(into problems: inout ProblemCollector) {
        // Modules by their lowercased name, which is their type name lowercased without "code":
        // files that differ only in letter case are one file on a case-insensitive disk.
        var byLowercasedName: [String: Int] = [:]
        for (position, module) in draft.modules.enumerated() {
            guard let name = module.name, GeneratedNames.isIdentifier(name) else { continue }
            func type(_ name: String) -> String { GeneratedNames.typeName(module: name) }
            if let why = GeneratedNames.reservedModuleNames[name] {
                problems.report(
                    module.nameOffset,
                    "the module name \(DisplayText.quoted(name)) is reserved: its Swift enum would be \(type(name)), \(why)"
                )
            }
            let key = name.lowercased()
            if let earlier = byLowercasedName[key] {
                // Equal names are reported as duplicate module names.
                let earlierName = draft.modules[earlier].name ?? ""
                if earlierName != name {
                    let sameType = type(earlierName) == type(name)
                    problems.report(
                        module.nameOffset,
                        "module \(position + 1) \(DisplayText.quoted(name)) and module \(earlier + 1) \(DisplayText.quoted(earlierName)) "
                            + (sameType
                                ? "both become the Swift enum \(type(name)) (file \(type(name)).swift)"
                                : "become files that differ only in letter case (\(type(name)).swift, \(type(earlierName)).swift), one file on a case-insensitive disk"),
                        related: draft.modules[earlier].nameOffset)
                }
            } else {
                byLowercasedName[key] = position
            }
            for entry in module.codes {
                guard let entryName = entry.name, GeneratedNames.isIdentifier(entryName) else { continue }
                if let why = GeneratedNames.caseNameProblem(entryName) {
                    problems.report(
                        entry.nameOffset,
                        "the name \(DisplayText.quoted(entryName)) of an entry of module \(DisplayText.quoted(name)) is reserved: in the generated Swift enum \(type(name)) it is \(why)"
                    )
                } else if let catalogType, entryName == catalogType {
                    problems.report(
                        entry.nameOffset,
                        "the name \(DisplayText.quoted(entryName)) of an entry of module \(DisplayText.quoted(name)) is reserved: in the generated Swift enum \(type(name)) it would hide the catalog type \(catalogType) that the enum refers to (errcat gen swift --installing, the SwiftErrCatalogPlugin)"
                    )
                }
            }
        }
    }
}
