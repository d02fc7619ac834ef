// Catalog.classify(string:namespace:) against a dictionary: random catalogs with string codes in
// owned and unowned namespaces, looked up with every listed pair, near misses and strangers; and
// the string rules Catalog.init enforces, each with the entries it names.

import SwiftErrCore
import Testing

@Suite("Catalog: string codes")
struct StringCodeTests {
    /// A random catalog with string codes, and the reference the lookup must agree with.
    struct Case {
        var definition: CatalogDefinition
        /// Every listed (namespace, string) pair and the integer code it stands for.
        var listed: [Pair: Int64] = [:]
        /// Each owned namespace's module id.
        var owners: [String: UInt16] = [:]

        struct Pair: Hashable {
            var namespace: String?
            var string: String
        }

        /// What the lookup must return: the entry's classification, the owner's unrecognised code,
        /// or unknown, as (tier, module id, entry index, flags).
        func expected(_ pair: Pair, in catalog: Catalog) -> Outcome {
            if let code = listed[Pair(namespace: pair.namespace.flatMap { $0.isEmpty ? nil : $0 }, string: pair.string)]
            {
                return Outcome(catalog.classify(code))
            }
            if let namespace = pair.namespace, let owner = owners[namespace], !pair.string.isEmpty,
                pair.string.utf8.count <= 65_535
            {
                return Outcome(tier: .module, moduleID: owner, entryIndex: nil, flags: [])
            }
            return Outcome(.unknown)
        }
    }

    /// What a classification says, field by field.
    struct Outcome: Equatable {
        var tier: Classification.Tier
        var moduleID: UInt16
        var entryIndex: UInt32?
        var flags: CodeFlags

        init(tier: Classification.Tier, moduleID: UInt16, entryIndex: UInt32?, flags: CodeFlags) {
            (self.tier, self.moduleID, self.entryIndex, self.flags) = (tier, moduleID, entryIndex, flags)
        }

        init(_ classification: Classification) {
            self.init(
                tier: classification.tier, moduleID: classification.moduleID, entryIndex: classification.entryIndex,
                flags: classification.flags)
        }
    }

    /// Strings of 1 to 40 bytes from a small alphabet (so near misses collide in prefix), with
    /// multi-byte scalars and, now and then, NUL.
    static func randomString(_ random: inout SplitMix64) -> String {
        let alphabet: [String] = ["a", "b", "_", "Z", "é", "语", "\u{0}", "0", "-", "/"]
        let length = 1 + Int(random.below(40))
        return (0..<length).map { _ in alphabet[Int(random.below(UInt64(alphabet.count)))] }.joined()
    }

    static func randomCase(seed: UInt64) -> Case {
        var random = SplitMix64(seed: seed)
        let moduleCount = 1 + Int(random.below(5))
        var usedSpaces: Set<String> = []
        var modules: [ModuleDefinition] = []
        var reference = Case(
            definition: CatalogDefinition(
                name: "strings", success: EntryDefinition(code: 0, name: "ok", message: LocalizedText(english: "OK")),
                base: [], modules: []))
        var nextCode: Int64 = 1
        var unowned: [String] = []
        for _ in 0..<Int(random.below(3)) {
            let name = "free" + randomString(&random)
            if usedSpaces.insert(name).inserted { unowned.append(name) }
        }
        func add(_ pair: Case.Pair) -> Bool {
            guard reference.listed[pair] == nil else { return false }
            reference.listed[pair] = nextCode
            return true
        }
        // Up to `count` entries with string codes from `nextCode` on, each in one of `namespaces`
        // or, one time in `ownOneIn` (always when there are none), the catalog's own.
        func entries(_ count: Int, in namespaces: [String], ownOneIn: UInt64, prefix: String) -> [EntryDefinition] {
            var result: [EntryDefinition] = []
            for _ in 0..<count {
                let namespace: String? =
                    namespaces.isEmpty || random.below(ownOneIn) == 0
                    ? nil : namespaces[Int(random.below(UInt64(namespaces.count)))]
                let pair = Case.Pair(namespace: namespace, string: randomString(&random))
                guard add(pair) else { continue }
                result.append(
                    EntryDefinition(
                        code: nextCode, name: "\(prefix)\(nextCode)", string: pair.string, namespace: namespace,
                        message: LocalizedText(english: prefix)))
                nextCode += 1
            }
            return result
        }
        // Base entries: the catalog's own namespace, or an unowned one.
        let base = entries(Int(random.below(20)), in: unowned, ownOneIn: 2, prefix: "b")
        for m in 0..<moduleCount {
            let id = UInt16(m + 1)
            var namespaces: [String] = []
            for _ in 0..<Int(random.below(3)) {
                let name = randomString(&random)
                if usedSpaces.insert(name).inserted {
                    namespaces.append(name)
                    reference.owners[name] = id
                }
            }
            let first = Int64(m + 1) * 1_000_000
            nextCode = first
            // A module's codes: in one of its namespaces, or the catalog's own.
            let codes = entries(Int(random.below(UInt64(m == 0 ? 400 : 60))), in: namespaces, ownOneIn: 4, prefix: "m")
            modules.append(
                ModuleDefinition(
                    name: "module\(m)", title: LocalizedText(english: "M"), ranges: [first...(first + 999_999)],
                    namespaces: namespaces, codes: codes))
        }
        reference.definition.base = base
        reference.definition.modules = modules
        return reference
    }

    @Test("lookups agree with a dictionary on 64 random catalogs", arguments: 0..<64)
    func differential(seed: UInt64) throws {
        let reference = Self.randomCase(seed: 0x5EED_0000 + seed)
        let catalog = try Catalog(reference.definition)
        #expect(catalog.stringCodeCount == reference.listed.count)
        var random = SplitMix64(seed: seed)
        var probes: [Case.Pair] = Array(reference.listed.keys)
        let spaces: [String?] = [nil, ""] + reference.owners.keys.map { $0 } + ["unnamed"]
        for pair in reference.listed.keys {
            // Near misses: one byte more or less, another namespace, the other namespaces' owners.
            probes.append(Case.Pair(namespace: pair.namespace, string: pair.string + "a"))
            probes.append(Case.Pair(namespace: pair.namespace, string: String(pair.string.dropLast())))
            probes.append(Case.Pair(namespace: spaces[Int(random.below(UInt64(spaces.count)))], string: pair.string))
        }
        for _ in 0..<500 {
            probes.append(
                Case.Pair(
                    namespace: spaces[Int(random.below(UInt64(spaces.count)))], string: Self.randomString(&random)))
        }
        for probe in probes {
            let got = catalog.classify(string: probe.string, namespace: probe.namespace)
            #expect(Outcome(got) == reference.expected(probe, in: catalog), "\(probe)")
        }
        // The built catalog reads back with every string code on its entry.
        let back = catalog.definition
        var readBack: [Case.Pair: Int64] = [:]
        for entry in [back.success] + back.base + back.modules.flatMap(\.codes) {
            if let string = entry.string {
                readBack[Case.Pair(namespace: entry.namespace, string: string)] = entry.code
            }
        }
        #expect(readBack == reference.listed)
    }

    @Test("an empty string, and one longer than 65,535 bytes, are unknown, even in an owned namespace")
    func bounds() throws {
        let definition = CatalogDefinition(
            name: "bounds", success: EntryDefinition(code: 0, name: "ok", message: LocalizedText(english: "OK")),
            base: [],
            modules: [
                ModuleDefinition(
                    name: "card", title: LocalizedText(english: "Card"), ranges: [1...9], namespaces: ["card_error"],
                    codes: [])
            ])
        let catalog = try Catalog(definition)
        #expect(catalog.classify(string: "", namespace: "card_error").tier == .unknown)
        #expect(
            catalog.classify(string: String(repeating: "x", count: 65_536), namespace: "card_error").tier == .unknown)
        #expect(catalog.classify(string: String(repeating: "x", count: 65_535), namespace: "card_error").moduleID == 1)
        #expect(catalog.classify(string: "x", namespace: String(repeating: "y", count: 1_000_000)).tier == .unknown)
        #expect(Catalog(definitionWithoutStrings: ()).classify(string: "x").tier == .unknown)
    }

    private func catalog(base: [EntryDefinition] = [], modules: [ModuleDefinition]) -> CatalogDefinition {
        CatalogDefinition(
            name: "rules", success: EntryDefinition(code: 0, name: "ok", message: LocalizedText(english: "OK")),
            base: base, modules: modules)
    }

    private func module(_ name: String, _ range: ClosedRange<Int64>, namespaces: [String], _ codes: [EntryDefinition])
        -> ModuleDefinition
    {
        ModuleDefinition(
            name: name, title: LocalizedText(english: name), ranges: [range], namespaces: namespaces, codes: codes)
    }

    private func entry(_ code: Int64, _ string: String, in namespace: String? = nil) -> EntryDefinition {
        EntryDefinition(
            code: code, name: "e\(code)", string: string, namespace: namespace, message: LocalizedText(english: "e"))
    }

    @Test("a string code twice in one namespace names both entries")
    func duplicateString() throws {
        let error = try #require(
            buildFailure(
                catalog(modules: [
                    module("card", 1...9, namespaces: ["c"], [entry(1, "x", in: "c"), entry(2, "x", in: "c")])
                ])))
        #expect(error.status == .duplicateString)
        #expect(error.message.contains("card.e2") && error.message.contains("card.e1"), "\(error.message)")
    }

    @Test("a namespace owned by two modules")
    func twiceOwned() throws {
        let error = try #require(
            buildFailure(
                catalog(modules: [
                    module("a", 1...9, namespaces: ["n"], []), module("b", 10...19, namespaces: ["n"], []),
                ])))
        #expect(error.status == .duplicateString)
        #expect(error.message.contains("module 'b'") && error.message.contains("module 'a'"), "\(error.message)")
    }

    @Test("a module's string code in another module's namespace, a base one in an owned namespace")
    func ownership() throws {
        let foreign = try #require(
            buildFailure(
                catalog(modules: [
                    module("a", 1...9, namespaces: ["n"], []),
                    module("b", 10...19, namespaces: [], [entry(10, "x", in: "n")]),
                ])))
        #expect(foreign.status == .codeOutsideModule)
        #expect(foreign.message.contains("b.e10") && foreign.message.contains("module 'a'"), "\(foreign.message)")
        let base = try #require(
            buildFailure(
                catalog(base: [entry(100, "x", in: "n")], modules: [module("a", 1...9, namespaces: ["n"], [])])))
        #expect(base.status == .baseInModuleRange)
        #expect(base.message.contains("base.e100"), "\(base.message)")
    }

    @Test("an empty string code is refused by the C core, naming the entry")
    func emptyString() throws {
        let error = try #require(buildFailure(catalog(base: [entry(100, "")], modules: [])))
        #expect(error.status == .emptyName)
        #expect(error.message.contains("base.e100"), "\(error.message)")
    }
}

extension Catalog {
    /// A catalog with no string codes and no namespaces (so no string table).
    fileprivate convenience init(definitionWithoutStrings: Void) {
        try! self.init(
            CatalogDefinition(
                name: "plain", success: EntryDefinition(code: 0, name: "ok", message: LocalizedText(english: "OK")),
                base: [], modules: []))
    }
}
