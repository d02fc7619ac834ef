import SwiftErr
import SwiftErrDefaultCatalog

/// A catalog far larger than the default one, for load tests: the standard catalog plus 24
/// generated modules of 150 codes each (two ranges per module), and the codes to probe it with.
enum LargeCatalog {
    static let definition: CatalogDefinition = {
        var catalog = Catalog.builtIn.definition
        for m in 0..<24 {
            let base = Int64(13_000_000 + m * 10_000)
            var codes: [EntryDefinition] = []
            for k in 0..<150 {
                let code = base + Int64(k * 37 % 5_000)
                codes.append(
                    EntryDefinition(
                        code: code, name: "m\(m)c\(k)", flags: CodeFlags(rawValue: UInt8(k % 16)),
                        message: LocalizedText(english: "generated \(code)")))
            }
            catalog = catalog.adding(
                ModuleDefinition(
                    name: "generated\(m)", title: LocalizedText(english: "Generated \(m)"),
                    ranges: [base...(base + 4_999), (base + 5_000)...(base + 5_999)], codes: codes))
        }
        return catalog
    }()

    /// Every entry code, the edges of every range and the codes beside them, and codes no one
    /// owns, in a shuffled but fixed order.
    static let probeCodes: [Int64] = {
        var codes: [Int64] = [0, -1, 1, Int64.min, Int64.max, (1 << 32) + 11001]
        codes += definition.base.map(\.code)
        for module in definition.modules {
            codes += module.codes.map(\.code)
            for range in module.ranges {
                codes += [range.lowerBound - 1, range.lowerBound, range.upperBound, range.upperBound + 1]
            }
        }
        // A fixed permutation (multiplicative step coprime with the count), so neighbours differ.
        let n = codes.count
        var step = 7919 % n
        while gcd(step, n) != 1 { step += 1 }
        return (0..<n).map { codes[($0 * step) % n] }
    }()

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}

/// The single-threaded reference: classifies by scanning the definition, no C involved.
struct LinearReference: Sendable {
    struct Expected: Hashable, Sendable {
        var tier: Classification.Tier
        var isExact: Bool
        var flags: CodeFlags
        var moduleName: String?
        var entryName: String?
    }

    let definition: CatalogDefinition

    init(_ definition: CatalogDefinition) { self.definition = definition }

    func observe(_ code: Int64) -> Expected {
        if code == definition.success.code {
            return Expected(
                tier: .success, isExact: true, flags: definition.success.flags, moduleName: nil,
                entryName: definition.success.name)
        }
        if let entry = definition.base.first(where: { $0.code == code }) {
            return Expected(tier: .base, isExact: true, flags: entry.flags, moduleName: nil, entryName: entry.name)
        }
        for module in definition.modules {
            if let entry = module.codes.first(where: { $0.code == code }) {
                return Expected(
                    tier: .module, isExact: true, flags: entry.flags, moduleName: module.name, entryName: entry.name)
            }
        }
        for module in definition.modules where module.ranges.contains(where: { $0.contains(code) }) {
            return Expected(tier: .module, isExact: false, flags: [], moduleName: module.name, entryName: nil)
        }
        return Expected(tier: .unknown, isExact: false, flags: [], moduleName: nil, entryName: nil)
    }

    /// The same facts read back from a C classification and its table.
    func describe(_ c: Classification, in table: Catalog) -> Expected {
        Expected(
            tier: c.tier, isExact: c.isExact, flags: c.flags,
            moduleName: c.tier == .module ? table.moduleName(c.moduleID) : nil,
            entryName: c.entryIndex.flatMap { table.entryName(at: $0) })
    }
}
