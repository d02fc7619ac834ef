// The differential test of `errcat diff`: random hostile catalogs (the generator of the gen
// property test) and random edits of each, judged by a reference written from the rules alone,
// code by code and module by module, without the ranges arithmetic diff uses.
//
// Reproducible: ERRCAT_PROPERTY_SEED (default 1) and ERRCAT_DIFF_PAIRS (default 150) choose the
// pairs; a failure names the seed, the pair and the edits.

import Foundation
import SwiftErrCatalogFile
import Testing

@testable import SwiftErr

@Suite("errcat diff: differential test over random catalog pairs")
struct DiffPropertyTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = UInt64(environment["ERRCAT_PROPERTY_SEED"] ?? "") ?? 1
    static let pairCount = Int(environment["ERRCAT_DIFF_PAIRS"] ?? "") ?? 150

    /// The reference: whether `new` breaks a program built against `old`, by the documented rules.
    static func breaks(_ old: CatalogDefinition, _ new: CatalogDefinition) -> Bool {
        if old.name != new.name || old.success.code != new.success.code { return true }
        // Every code with an entry keeps its tier or module, its name and its behaviour flags.
        let behaviour = ~CodeFlags.showUser.rawValue
        func place(_ code: Int64, in catalog: CatalogDefinition) -> (String, EntryDefinition)? {
            if catalog.success.code == code { return ("success", catalog.success) }
            if let entry = catalog.base.first(where: { $0.code == code }) { return ("base", entry) }
            for module in catalog.modules {
                if let entry = module.codes.first(where: { $0.code == code }) {
                    return ("module " + module.name, entry)
                }
            }
            return nil
        }
        let oldEntries = [old.success] + old.base + old.modules.flatMap(\.codes)
        for entry in oldEntries {
            guard let before = place(entry.code, in: old), let after = place(entry.code, in: new) else { return true }
            if before.0 != after.0 || before.1.name != after.1.name { return true }
            if before.1.flags.rawValue & behaviour != after.1.flags.rawValue & behaviour { return true }
        }
        // Every module keeps its name, its position and every code it owned. A code it lost is an
        // end of one of its old ranges, or just after the end of one of its new ranges.
        for (index, module) in old.modules.enumerated() {
            guard let newIndex = new.modules.firstIndex(where: { $0.name == module.name }) else { return true }
            if newIndex != index { return true }
            let newRanges = new.modules[newIndex].ranges
            var candidates = module.ranges.flatMap { [$0.lowerBound, $0.upperBound] }
            for range in newRanges {
                if range.upperBound < Int64.max { candidates.append(range.upperBound + 1) }
                if range.lowerBound > Int64.min { candidates.append(range.lowerBound - 1) }
            }
            for code in candidates where module.ranges.contains(where: { $0.contains(code) }) {
                if !newRanges.contains(where: { $0.contains(code) }) { return true }
            }
        }
        return false
    }

    /// Random edits of a catalog; the result may be invalid (a clash), which the test skips.
    struct Editor {
        var random: SplitMix64

        mutating func below(_ bound: Int) -> Int { Int(random.below(UInt64(max(1, bound)))) }

        /// A code no entry uses and no range contains.
        mutating func freeCode(in catalog: CatalogDefinition) -> Int64? {
            let used = Set([catalog.success.code] + catalog.base.map(\.code))
            for _ in 0..<20 {
                let code = Int64(bitPattern: random.next()) >> Int64(below(60))
                if !used.contains(code)
                    && !catalog.modules.contains(where: { $0.ranges.contains { $0.contains(code) } })
                {
                    return code
                }
            }
            return nil
        }

        /// A code inside `module`'s ranges that it does not list.
        mutating func unlisted(in module: ModuleDefinition) -> Int64? {
            let listed = Set(module.codes.map(\.code))
            for range in module.ranges {
                for code in [range.lowerBound, range.upperBound, range.lowerBound &+ 1] where range.contains(code) {
                    if !listed.contains(code) { return code }
                }
            }
            return nil
        }

        /// Applies one random edit; returns its name.
        mutating func edit(_ catalog: inout CatalogDefinition) -> String {
            let m = catalog.modules.count
            switch below(18) {
            case 0 where !catalog.base.isEmpty:
                catalog.base.remove(at: below(catalog.base.count))
                return "remove a base entry"
            case 1 where m > 0:
                let i = below(m)
                guard !catalog.modules[i].codes.isEmpty else { return "nothing" }
                catalog.modules[i].codes.remove(at: below(catalog.modules[i].codes.count))
                return "remove a module entry"
            case 2 where !catalog.base.isEmpty:
                catalog.base[below(catalog.base.count)].name += "Q"
                return "rename a base entry"
            case 3 where m > 0:
                let i = below(m)
                guard !catalog.modules[i].codes.isEmpty else { return "nothing" }
                catalog.modules[i].codes[below(catalog.modules[i].codes.count)].name += "Q"
                return "rename a module entry"
            case 4:
                let bit = CodeFlags(rawValue: 1 << below(8))
                let i = below(m)
                if !catalog.base.isEmpty && below(2) == 0 {
                    let j = below(catalog.base.count)
                    catalog.base[j].flags.formSymmetricDifference(bit)
                } else if m > 0 && !catalog.modules[i].codes.isEmpty {
                    let j = below(catalog.modules[i].codes.count)
                    catalog.modules[i].codes[j].flags.formSymmetricDifference(bit)
                } else {
                    catalog.success.flags.formSymmetricDifference(bit)
                }
                return "toggle flag \(bit.names.first ?? "?")"
            case 5:
                if !catalog.base.isEmpty {
                    let j = below(catalog.base.count)
                    catalog.base[j].message.english += " (v2)"
                    catalog.base[j].message.simplifiedChinese =
                        catalog.base[j].message.simplifiedChinese == nil ? "新" : nil
                } else {
                    catalog.success.message.english += "!"
                }
                return "change a message"
            case 6 where m > 0:
                catalog.modules[below(m)].title.english += " v2"
                return "change a title"
            case 7:
                guard let code = freeCode(in: catalog) else { return "nothing" }
                catalog.base.append(EntryDefinition(code: code, name: "addedQ", message: LocalizedText(english: "n")))
                return "add a base code"
            case 8 where m > 0:
                let i = below(m)
                guard let code = unlisted(in: catalog.modules[i]) else { return "nothing" }
                catalog.modules[i].codes.append(
                    EntryDefinition(code: code, name: "addedQ", message: LocalizedText(english: "n")))
                return "add a module code"
            case 9 where m > 0:
                guard let code = freeCode(in: catalog) else { return "nothing" }
                catalog.modules[below(m)].ranges.append(code...code)
                return "grow a module by one code"
            case 10 where m > 0:
                let i = below(m)
                let listed = Set(catalog.modules[i].codes.map(\.code))
                guard let r = catalog.modules[i].ranges.indices.last else { return "nothing" }
                let range = catalog.modules[i].ranges[r]
                if range.lowerBound == range.upperBound {
                    guard catalog.modules[i].ranges.count > 1, !listed.contains(range.lowerBound) else {
                        return "nothing"
                    }
                    catalog.modules[i].ranges.remove(at: r)
                } else {
                    guard !listed.contains(range.upperBound) else { return "nothing" }
                    catalog.modules[i].ranges[r] = range.lowerBound...(range.upperBound - 1)
                }
                return "shrink a module"
            case 11 where m > 0:
                catalog.modules.remove(at: below(2) == 0 ? m - 1 : below(m))
                return "remove a module"
            case 12:
                guard let code = freeCode(in: catalog) else { return "nothing" }
                catalog.modules.append(
                    ModuleDefinition(
                        name: "addedQ\(m)", title: LocalizedText(english: "t"), ranges: [code...code], codes: []))
                return "add a module at the end"
            case 13 where m > 1:
                let i = below(m)
                let j = below(m)
                catalog.modules.swapAt(i, j)
                return "swap modules \(i) and \(j)"
            case 14 where m > 0:
                catalog.modules[below(m)].name += "Q"
                return "rename a module"
            case 15:
                guard let code = freeCode(in: catalog) else { return "nothing" }
                catalog.success.code = code
                return "change the success code"
            case 16:
                catalog.name += "Q"
                return "rename the catalog"
            default:
                return "nothing"
            }
        }
    }

    @Test(
        "diff's status and classes agree with the reference on random catalog pairs; a catalog against itself has no changes"
    )
    func randomPairs() throws {
        var generator = HostileCatalogGenerator(seed: Self.seed)
        var editor = Editor(random: SplitMix64(seed: Self.seed &+ 0x5EED))
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var compared = 0
        var breaking = 0
        var skipped = 0
        var kinds: [String: Int] = [:]
        for number in 0..<Self.pairCount {
            let random = generator.catalog(number: number)
            let old = random.definition
            var new = old
            var edits: [String] = []
            for _ in 0..<(1 + editor.below(3)) { edits.append(editor.edit(&new)) }
            let context = "seed \(Self.seed), pair \(number), edits \(edits)"
            let oldFile = directory.appendingPathComponent("old\(number).json")
            let newFile = directory.appendingPathComponent("new\(number).json")
            try Data(random.text.utf8).write(to: oldFile)
            try Data(CatalogFileWriter.file(new).utf8).write(to: newFile)
            // The written catalog reads back as the edited definition, or is invalid (an edit
            // made a clash): those pairs are counted and skipped.
            guard let readBack = try? CatalogDefinition(json: Array(CatalogFileWriter.file(new).utf8)),
                (try? Catalog(readBack)) != nil
            else {
                skipped += 1
                continue
            }
            // A file lists every language its texts use; an edit may have added a text in a
            // language the definition did not list (a built table adds it the same way).
            var listed = new
            listed.languages = new.allLanguages
            #expect(readBack == listed, "\(context): the test's writer")

            let same = try ErrcatRunner.run(["diff", oldFile.path, oldFile.path])
            #expect(same.status == 0 && same.output == "no changes\n", "\(context): \(same.output)\(same.errors)")

            let result = try ErrcatRunner.run(["diff", "--json", oldFile.path, newFile.path])
            let expected = Self.breaks(old, new)
            try #require(result.status == (expected ? 1 : 0), "\(context): \(result.output)\(result.errors)")
            let report = try result.jsonObject()
            let changes = try #require(report["changes"] as? [[String: Any]])
            let summary = try #require(report["summary"] as? [String: Int])
            #expect(summary["breaking"] == changes.filter { $0["class"] as? String == "breaking" }.count, "\(context)")
            #expect((summary["breaking"] ?? 0 > 0) == expected, "\(context)")
            #expect(changes.isEmpty == (old == new), "\(context): \(result.output)")
            // Each change's class is the one its kind (and flag) has in the rules table.
            for change in changes {
                let kind = change["kind"] as? String ?? ""
                let flag = change["detail"] as? String
                kinds[kind, default: 0] += 1
                #expect(
                    change["class"] as? String == Self.documentedClass(kind: kind, flag: flag), "\(context): \(change)")
            }
            // Sorted: codes never decrease among the changes of entries.
            let codes = changes.filter { $0["kind"] as? String != "success-code-changed" }.compactMap {
                Self.code($0)
            }
            #expect(codes == codes.sorted(), "\(context)")
            // Allowing every breaking change makes the status 0, with no stale allow.
            if expected {
                let keys = try Self.allowKeys(changes)
                let allowed = try ErrcatRunner.run([
                    "diff", "--allow", keys.joined(separator: ","), oldFile.path, newFile.path,
                ])
                #expect(allowed.status == 0, "\(context): --allow \(keys): \(allowed.output)\(allowed.errors)")
                breaking += 1
            }
            compared += 1
        }
        #expect(compared >= Self.pairCount / 2, "too many invalid pairs: \(skipped) of \(Self.pairCount)")
        print(
            "diff differential test: seed \(Self.seed), \(compared) pairs compared (\(breaking) breaking), \(skipped) skipped as invalid; kinds seen: \(kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
        )
    }

    /// A change's `code`: JSON numbers reach the test as NSNumber, which `as? Int64` does not
    /// take for every 64-bit value.
    static func code(_ change: [String: Any]) -> Int64? {
        (change["code"] as? NSNumber)?.int64Value
    }

    /// One `--allow` value for each breaking change of a `--json` report, as a user would write it.
    static func allowKeys(_ changes: [[String: Any]]) throws -> [String] {
        var keys: [String] = []
        for change in changes where change["class"] as? String == "breaking" {
            let kind = change["kind"] as? String ?? ""
            let key: String
            switch kind {
            case "catalog-renamed": key = "catalog"
            case "module-removed", "module-id-changed", "range-shrunk":
                key = "module:" + (try #require(change["module"] as? String))
            case "module-renamed": key = "module:" + (try #require(change["old"] as? String))
            default: key = String(try #require(Self.code(change)))
            }
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The class docs/errcat.md gives a kind of change (and a flag, for flag changes).
    static func documentedClass(kind: String, flag: String?) -> String {
        switch kind {
        case "catalog-renamed", "success-code-changed", "module-removed", "module-renamed", "range-shrunk",
            "module-id-changed", "code-removed", "code-moved", "entry-renamed":
            return "breaking"
        case "flag-added", "flag-removed":
            return flag == "showUser" ? "compatible" : "breaking"
        default:
            return "compatible"
        }
    }
}
