// ReloadableCatalog: readers classify whole batches on one snapshot while catalogs are swapped
// under them, checked against a reference that scans each catalog's definition.

import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

@Suite("ReloadableCatalog: swapped atomically, never half-built, the old one kept on a bad definition")
struct ReloadableCatalogTests {
    static func entry(_ code: Int64, _ name: String, flags: CodeFlags = []) -> EntryDefinition {
        EntryDefinition(code: code, name: name, flags: flags, message: LocalizedText(english: name))
    }

    static func module(_ name: String, ranges: [ClosedRange<Int64>], codes: [EntryDefinition]) -> ModuleDefinition {
        ModuleDefinition(name: name, title: LocalizedText(english: name), ranges: ranges, codes: codes)
    }

    /// Two catalogs that classify most of `probes` differently: 500 is a base code in A and
    /// unknown in B; 1000–1999 is `orders` (module 1) in A and `users` (module 1) in B; 1001 is an
    /// exact `orders` code in A and a base code in B; 2000–2999 swaps the other way.
    static let alpha = CatalogDefinition(
        name: "alpha", success: entry(0, "ok"),
        base: [entry(500, "busy", flags: .retryable)],
        modules: [
            module(
                "orders", ranges: [1000...1999],
                codes: [entry(1001, "late"), entry(1002, "lost")]),
            module("users", ranges: [2000...2999], codes: [entry(2001, "gone")]),
        ])
    static let beta = CatalogDefinition(
        name: "beta", success: entry(0, "ok"),
        base: [entry(1001, "late", flags: .reauthenticate)],
        modules: [
            module("users", ranges: [1002...1999], codes: [entry(1500, "gone")]),
            module(
                "orders", ranges: [2000...2999],
                codes: [entry(2001, "late"), entry(2002, "lost")]),
        ])
    /// A definition that does not build: 1001 twice.
    static let broken = CatalogDefinition(
        name: "broken", success: entry(0, "ok"),
        base: [entry(1001, "one"), entry(1001, "two")], modules: [])

    /// The codes each reader classifies as one batch.
    static let probes: [Int64] =
        [Int64.min, -1, 0, 1, 499, 500, 501, 999, 1000, 1001, 1002, 1500, 1999, 2000, 2001, 2002, 2999, 3000, .max]
        + Array(stride(from: Int64(0), through: 3100, by: 37))

    /// What a classification says, in the reference's terms, with the module's name.
    struct Answer: Hashable, Sendable {
        var reference: ReferenceClassifier.Answer
        var moduleName: String?
    }

    /// The answers `definition` gives for ``probes``, from the reference (a scan of the definition).
    static func expected(_ definition: CatalogDefinition) -> [Answer] {
        let reference = ReferenceClassifier(definition)
        return probes.map { code in
            let answer = reference.classify(code)
            let name = answer.moduleID == 0 ? nil : definition.modules[Int(answer.moduleID) - 1].name
            return Answer(reference: answer, moduleName: name)
        }
    }

    /// The answers a snapshot's catalog gives for ``probes``, all on that one snapshot.
    static func classified(_ snapshot: ReloadableCatalog.Snapshot) -> [Answer] {
        probes.map { code in
            let classification = snapshot.catalog.classify(code)
            let name = classification.moduleID == 0 ? nil : snapshot.catalog.moduleName(classification.moduleID)
            return Answer(reference: ReferenceClassifier.Answer(classification), moduleName: name)
        }
    }

    @Test("the two test catalogs disagree on most probes, so a batch on the wrong table cannot pass")
    func catalogsDisagree() throws {
        let differing = zip(Self.expected(Self.alpha), Self.expected(Self.beta)).filter { $0 != $1 }.count
        #expect(differing * 2 > Self.probes.count, "\(differing) of \(Self.probes.count)")
        #expect(Self.expected(Self.alpha) == Self.classified(ReloadableCatalog(try Catalog(Self.alpha)).snapshot))
    }

    @Test("1,000 swaps while 4 tasks classify continuously: every batch is wholly the catalog its snapshot names")
    func swapsUnderReaders() async throws {
        let reloadable = try ReloadableCatalog(Self.alpha)
        let alphaIdentity = try Catalog(Self.alpha).identity
        let betaIdentity = try Catalog(Self.beta).identity
        #expect(alphaIdentity != betaIdentity)
        let expected = [alphaIdentity: Self.expected(Self.alpha), betaIdentity: Self.expected(Self.beta)]
        let swaps = 1000

        struct ReaderReport: Sendable {
            var batches = 0
            /// The first few wrong batches, described.
            var wrong: [String] = []
            var wrongCount = 0
            var identities: Set<String> = []
        }
        let reports = try await withThrowingTaskGroup(of: ReaderReport?.self) { group in
            for reader in 0..<4 {
                group.addTask {
                    var report = ReaderReport()
                    var lastGeneration: UInt64 = 0
                    while !Task.isCancelled {
                        let snapshot = reloadable.snapshot
                        let answers = Self.classified(snapshot)
                        report.batches += 1
                        report.identities.insert(snapshot.identity)
                        // Generation 0 is alpha and the writer alternates, so the parity says which
                        // catalog the snapshot must hold; the identity and the answers must agree.
                        let wanted = snapshot.generation % 2 == 0 ? alphaIdentity : betaIdentity
                        let right =
                            snapshot.identity == wanted && answers == expected[snapshot.identity]
                            && snapshot.generation >= lastGeneration
                        if !right {
                            report.wrongCount += 1
                            if report.wrong.count < 5 {
                                report.wrong.append(
                                    "reader \(reader): generation \(snapshot.generation) after \(lastGeneration), "
                                        + "identity \(snapshot.identity), answers match: \(answers == expected[snapshot.identity])"
                                )
                            }
                        }
                        lastGeneration = snapshot.generation
                        await Task.yield()
                    }
                    return report
                }
            }
            group.addTask {
                for swap in 1...swaps {
                    try reloadable.replace(with: swap % 2 == 1 ? Self.beta : Self.alpha)
                    if swap % 100 == 0 {
                        let before = reloadable.snapshot
                        #expect(throws: CatalogError.self) { try reloadable.replace(with: Self.broken) }
                        let after = reloadable.snapshot
                        #expect(after.generation == before.generation && after.identity == before.identity)
                    }
                    await Task.yield()
                }
                return nil
            }
            var reports: [ReaderReport] = []
            // The writer ends first; the readers run until cancelled.
            while let report = try await group.next() {
                if let report {
                    reports.append(report)
                } else {
                    group.cancelAll()
                }
            }
            return reports
        }
        #expect(reports.count == 4)
        #expect(reloadable.snapshot.generation == UInt64(swaps))
        #expect(reloadable.snapshot.identity == alphaIdentity)
        for report in reports {
            #expect(report.batches > 0)
            #expect(report.wrongCount == 0, "\(report.wrong)")
        }
        let seen = reports.reduce(into: Set<String>()) { $0.formUnion($1.identities) }
        #expect(seen == [alphaIdentity, betaIdentity], "the readers saw the swaps")
    }

    @Test("a definition that does not build throws and keeps the catalog in use and its snapshots")
    func brokenKeepsOld() throws {
        let reloadable = try ReloadableCatalog(Self.alpha)
        let before = reloadable.snapshot
        #expect(before.generation == 0)
        #expect(before.name == "alpha")
        #expect {
            try reloadable.replace(with: Self.broken)
        } throws: { error in
            (error as? CatalogError)?.status == .duplicateCode
        }
        let after = reloadable.snapshot
        #expect(after.generation == 0)
        #expect(after.catalog === before.catalog)
        #expect(Self.classified(after) == Self.expected(Self.alpha))
        let next = try reloadable.replace(with: Self.beta)
        #expect(next.generation == 1 && next.name == "beta")
        // The snapshot taken before still classifies with the catalog it holds.
        #expect(Self.classified(before) == Self.expected(Self.alpha))
        #expect(Self.classified(reloadable.snapshot) == Self.expected(Self.beta))
    }

    @Test("the identity is the table's: one catalog written in two orders, or rebuilt, has one identity")
    func identityIsContent() throws {
        var reordered = Self.alpha
        reordered.modules[0].codes.reverse()
        #expect(try Catalog(reordered).identity == Catalog(Self.alpha).identity)
        var renamed = Self.alpha
        renamed.base[0].name = "busier"
        #expect(try Catalog(renamed).identity != Catalog(Self.alpha).identity)
        let identity = try Catalog(Self.alpha).identity
        #expect(identity.hasPrefix("fnv1a64:") && identity.count == 24)
        let reloadable = try ReloadableCatalog(Self.alpha)
        let same = try reloadable.replace(with: reordered)
        #expect(same.generation == 1 && same.identity == identity, "a new generation, the same contents")
    }

    @Test("every language's text is part of the identity: one Hindi message, one Hindi title, one language more")
    func identityCoversEveryLanguage() throws {
        let builtIn = Catalog.builtIn.definition
        #expect(builtIn.languages.contains(.hindi))
        let identity = try Catalog(builtIn).identity
        var message = builtIn
        message.base[0].message[.hindi] = (message.base[0].message[.hindi] ?? "") + " "
        #expect(try Catalog(message).identity != identity)
        var title = builtIn
        title.modules[0].title[.hindi] = "\(title.modules[0].title[.hindi] ?? "")!"
        #expect(try Catalog(title).identity != identity)
        var language = builtIn
        let portuguese = try #require(Language(tag: "pt-BR"))
        language.languages.append(portuguese)
        language.base[0].message[portuguese] = "Sua sessão expirou."
        #expect(try Catalog(language).identity != identity)
        #expect(try Catalog(builtIn).identity == identity)
    }
}
