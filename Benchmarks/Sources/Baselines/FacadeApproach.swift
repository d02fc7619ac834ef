// FacadeApproach.swift — the SwiftErr facade (`Catalog.classify`) on the benchmark tables:
// the built-in table for the default catalog, and tables built from a `CatalogDefinition`
// that holds the same codes as the synthetic C tables.

import CBaselines
import CErrCore
import SwiftErr
import SwiftErrDefaultCatalog

/// The Swift facade measured on the same input as the C paths.
public enum FacadeApproach {
    /// The `Catalog` for a workload: `Catalog.builtIn` for the default catalog, otherwise one
    /// built from a `CatalogDefinition` with the synthetic table's codes, flags, modules and ranges.
    /// - Parameter size: the table.
    /// - Returns: the table.
    /// - Throws: `CatalogError` when the definition does not build.
    public static func codeTable(for size: TableSize) throws(CatalogError) -> Catalog {
        switch size {
        case .catalog32: return Catalog.builtIn
        case .synthetic256:
            return try Catalog(definition(cbl_synthetic_catalog_for(256)!.pointee, name: "synthetic256"))
        case .synthetic4096:
            return try Catalog(definition(cbl_synthetic_catalog_for(4096)!.pointee, name: "synthetic4096"))
        }
    }

    private static func definition(_ catalog: cbl_synthetic_catalog, name: String) -> CatalogDefinition {
        let entries = catalog.entries!
        let ranges = catalog.ranges!
        let count = catalog.entry_count
        let rangeCount = catalog.range_count
        let moduleCount = catalog.module_count
        func entry(_ e: cbl_synthetic_entry) -> EntryDefinition {
            EntryDefinition(
                code: e.code, name: e.code == 0 ? "success" : "e\(e.code)",
                flags: CodeFlags(rawValue: e.flags), message: LocalizedText(english: "e\(e.code)"))
        }
        var success = EntryDefinition(code: 0, name: "success", message: LocalizedText(english: "OK"))
        var base: [EntryDefinition] = []
        var modules = (1...moduleCount).map {
            ModuleDefinition(name: "m\($0)", title: LocalizedText(english: "m\($0)"), ranges: [], codes: [])
        }
        for i in 0..<rangeCount {
            let r = ranges[i]
            modules[Int(r.module) - 1].ranges.append(r.first...r.last)
        }
        for i in 0..<count {
            let e = entries[i]
            if e.module != 0 {
                modules[Int(e.module) - 1].codes.append(entry(e))
            } else if e.code == 0 {
                success = entry(e)
            } else {
                base.append(entry(e))
            }
        }
        return CatalogDefinition(name: name, success: success, base: base, modules: modules)
    }

    /// Classifies every code with one `Catalog.classify(_:)` call each.
    /// - Parameters:
    ///   - table: the table.
    ///   - codes: the input codes.
    /// - Returns: a checksum of the classifications.
    @inline(never)
    public static func resolve(_ table: Catalog, _ codes: UnsafeBufferPointer<Int64>) -> Int {
        var sum: UInt64 = 0
        for code in codes {
            sum &+= table.classify(code).rawValue
        }
        return Int(truncatingIfNeeded: sum)
    }

    /// Writes `Catalog.classify(_:)` of each code into `out`, to check it against the C classifier.
    /// - Parameters:
    ///   - table: the table.
    ///   - codes: the input codes.
    ///   - out: at least `codes.count` slots.
    public static func classifyEach(
        _ table: Catalog, _ codes: UnsafeBufferPointer<Int64>,
        into out: UnsafeMutablePointer<UInt64>
    ) {
        for (k, code) in codes.enumerated() {
            out[k] = table.classify(code).rawValue
        }
    }
}
