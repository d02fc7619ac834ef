import SwiftErr
import SwiftErrDefaultCatalog
import Testing

/// What one classification means, in terms that do not depend on module ids (which follow the
/// order modules were first used in, and so differ between runs).
struct Observation: Hashable, Sendable {
    /// The typed outcome; for an invalid catalog, the status of the catalog's failure (its
    /// message names positions that depend on registration order).
    var outcome: String
    var tier: Classification.Tier
    var isExact: Bool
    var flags: CodeFlags
    /// The classified module's name, or `nil` for tiers without a module.
    var moduleName: String?
}

/// One module, type-erased: observes codes through the module's own classifier (registry,
/// `static let`, ...) or through a classifier for a given catalog.
struct Probe: Sendable {
    var name: String
    var codes: [Int64]
    /// Makes an observer: through the module's own classifier (`nil`), or through a classifier
    /// for the given catalog or failure (created once per observer).
    var observer: @Sendable (_ reference: Result<Catalog, CatalogError>?) -> @Sendable (Int64) -> Observation

    init<Code: ModuleCode>(_ type: Code.Type, sharedCodes: [Int64]) {
        name = Code.moduleName
        var own = Code.listedCases.map(\.code)
        for range in Code.codeRanges {
            own += [
                range.lowerBound, range.lowerBound + 1, (range.lowerBound + range.upperBound) / 2,
                range.upperBound - 1, range.upperBound, range.lowerBound - 1, range.upperBound + 1,
            ]
        }
        codes = own + sharedCodes
        observer = { reference in
            let classifier: ModuleClassifier<Code>
            switch reference {
            case nil: classifier = Code.classifier
            case .success(let catalog): classifier = ModuleClassifier(catalog: catalog)
            case .failure(let failure): classifier = ModuleClassifier(failure: failure)
            }
            return { code in
                let outcome = classifier.classify(code)
                let text: String
                if case .invalidCatalog(let failure) = outcome {
                    text = "invalidCatalog(\(failure.status))"
                } else {
                    text = "\(outcome)"
                }
                let c = classifier.classification(of: code)
                let module = c.tier == .module ? classifier.catalog?.moduleName(c.moduleID) : nil
                return Observation(outcome: text, tier: c.tier, isExact: c.isExact, flags: c.flags, moduleName: module)
            }
        }
    }
}

/// Builds a catalog, keeping the error.
func assemble(_ definition: CatalogDefinition) -> Result<Catalog, CatalogError> {
    Result { () throws(CatalogError) -> Catalog in try Catalog(definition) }
}

/// Codes every module is asked about: success, base codes, built-in module codes, other stress
/// modules' codes, and codes no catalog knows (all 64 bits count).
let sharedCodes: [Int64] = {
    var codes: [Int64] = [0, -1, Int64.min, Int64.max, (1 << 32) + 11001, 99, 12_000_000, 12_999_999]
    let standard = Catalog.builtIn.definition
    codes += standard.base.map(\.code)
    for module in standard.modules {
        codes += module.codes.prefix(2).map(\.code)
        codes += module.ranges.map(\.upperBound)
    }
    codes += [12_100_002, 12_250_050, 12_300_004, 12_400_400, 12_509_999, 12_600_002, 12_700_007, 11_219_001]
    return codes
}()

let registryProbes: [Probe] = [
    Probe(StressAlphaCode.self, sharedCodes: sharedCodes), Probe(StressBetaCode.self, sharedCodes: sharedCodes),
    Probe(StressGammaCode.self, sharedCodes: sharedCodes), Probe(StressDeltaCode.self, sharedCodes: sharedCodes),
    Probe(StressEpsilonCode.self, sharedCodes: sharedCodes), Probe(StressZetaCode.self, sharedCodes: sharedCodes),
]
let doomedProbe = Probe(StressDoomedCode.self, sharedCodes: sharedCodes)
let lazyProbe = Probe(StressLazyCode.self, sharedCodes: sharedCodes)
let stressModuleNames: Set<String> = Set((registryProbes + [doomedProbe, lazyProbe]).map(\.name))

/// Whether `got` (through a catalog that may lack modules registered later) matches `want`
/// (through a catalog holding every stress module). A code owned by another stress module is
/// absent from catalogs assembled before that module: only its typed outcome must agree
/// (`.unexpected` either way).
func agrees(_ got: Observation, _ want: Observation, probe: String) -> Bool {
    if let owner = want.moduleName, owner != probe, stressModuleNames.contains(owner) {
        return got.outcome == want.outcome
    }
    return got == want
}

@Suite("Stress: concurrent first use and shared tables equal a single-threaded reference")
struct StressTests {
    /// Many tasks classify through several modules at once, each starting with a different
    /// module, so the registry assembles catalogs while other tasks classify through the ones
    /// already handed out; a `static let` catalog and a module that can never be registered
    /// are used from the first moment too.
    @Test("first use of several modules from many tasks at once")
    func firstUseOfSeveralModules() async throws {
        // The single-threaded reference: one catalog assembled directly with every good module.
        var all = Catalog.builtIn.definition
        for module in [
            StressAlphaCode.definition, StressBetaCode.definition, StressGammaCode.definition,
            StressDeltaCode.definition, StressEpsilonCode.definition, StressZetaCode.definition,
        ] {
            all = all.adding(module)
        }
        let reference = assemble(all)
        _ = try reference.get()
        let doomedReference = assemble(Catalog.builtIn.definition.adding(StressDoomedCode.definition))
        #expect(throws: CatalogError.self) { try doomedReference.get() }
        let lazyReference = assemble(Catalog.builtIn.definition.adding(StressLazyCode.definition))

        let probes = registryProbes + [doomedProbe, lazyProbe]
        let referenceCatalogs =
            Array(repeating: reference, count: registryProbes.count) + [doomedReference, lazyReference]
        var expected: [[Observation]] = []
        for (probe, catalog) in zip(probes, referenceCatalogs) {
            let observe = probe.observer(catalog)
            expected.append(probe.codes.map(observe))
        }
        let want = expected
        let ownObservers = probes.map { $0.observer(nil) }

        let taskCount = 32
        let rounds = 2
        let results = await withTaskGroup(of: (task: Int, mismatches: [String]).self) { group in
            for task in 0..<taskCount {
                group.addTask {
                    var mismatches: [String] = []
                    for round in 0..<rounds {
                        for step in 0..<probes.count {
                            let p = (task + step + round) % probes.count
                            let probe = probes[p]
                            for (k, code) in probe.codes.enumerated() {
                                let got = ownObservers[p](code)
                                if !agrees(got, want[p][k], probe: probe.name) {
                                    mismatches.append("\(probe.name) code \(code): \(got) != \(want[p][k])")
                                }
                            }
                        }
                    }
                    return (task, mismatches)
                }
            }
            return await group.reduce(into: [(task: Int, mismatches: [String])]()) { $0.append($1) }
        }
        #expect(results.count == taskCount)
        for result in results where !result.mismatches.isEmpty {
            Issue.record("task \(result.task): \(result.mismatches.count) mismatches, first: \(result.mismatches[0])")
        }
        // Every registry module was assembled exactly once: all later lookups give the same object.
        #expect(StressAlphaCode.catalog === StressAlphaCode.catalog)
        #expect(StressDoomedCode.classifier.failure?.status == .rangeOverlap)
        for failure in [
            StressAlphaCode.classifier.failure, StressBetaCode.classifier.failure,
            StressGammaCode.classifier.failure, StressDeltaCode.classifier.failure,
            StressEpsilonCode.classifier.failure, StressZetaCode.classifier.failure,
        ] {
            #expect(failure == nil)
        }
    }

    /// Every task sees the same object for a module's catalog, however many race for it.
    @Test("a module's catalog is one object for every task", arguments: [2, 16, 64])
    func oneCatalogPerModule(tasks: Int) async {
        let ids = await withTaskGroup(of: [ObjectIdentifier?].self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    [
                        StressAlphaCode.catalog, StressZetaCode.catalog, StressLazyCode.catalog,
                        StressDoomedCode.catalog,
                    ].map { $0.map(ObjectIdentifier.init) }
                }
            }
            return await group.reduce(into: [[ObjectIdentifier?]]()) { $0.append($1) }
        }
        #expect(ids.count == tasks)
        #expect(Set(ids).count == 1)
    }

    /// One large shared table under load: single, batch and tally results from many tasks at
    /// once equal a linear scan over the definition, while other tasks build and free tables of
    /// their own from the same definition.
    @Test("a shared table classifies correctly from many tasks", arguments: [4, 16])
    func sharedTableUnderLoad(tasks: Int) async throws {
        let definition = LargeCatalog.definition
        let table = try Catalog(definition)
        let codes = LargeCatalog.probeCodes
        let reference = LinearReference(definition)
        let want = codes.map { reference.observe($0) }
        let wantTally = table.tally(codes)  // checked against the reference below, single-threaded
        #expect(wantTally.total == UInt64(codes.count))
        #expect(wantTally.unknown == UInt64(want.filter { $0.tier == .unknown }.count))
        #expect(wantTally.unrecognised == UInt64(want.filter { $0.tier == .module && !$0.isExact }.count))

        let failures = await withTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var bad = 0
                    // Every third task builds (and later frees) a table of its own meanwhile.
                    let own = task % 3 == 0 ? try? Catalog(definition) : nil
                    let target = own ?? table
                    let batch = target.classify(codes)
                    for (k, code) in codes.enumerated() {
                        let single = target.classify(code)
                        if single != batch[k] || reference.describe(single, in: target) != want[k] { bad += 1 }
                    }
                    if target.tally(codes) != wantTally { bad += 1 }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
