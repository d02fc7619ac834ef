import SwiftErrDefaultCatalog
import Testing

@testable import SwiftErr

/// The rules of the process-wide catalog, on registries of the tests' own: the empty starting
/// point, installing before first use, installing the same catalog again, refusing another catalog
/// after first use, and modules defined in Swift on top of the installed catalog.
@Suite("Catalog registry: the app's catalog as the starting point")
struct CatalogRegistryTests {
    /// A catalog of its own for these tests: success 7, one base code, one module.
    static let shop = CatalogDefinition(
        name: "shop",
        success: EntryDefinition(code: 7, name: "ok", message: LocalizedText(english: "OK")),
        base: [
            EntryDefinition(
                code: 401, name: "sessionExpired", flags: [.reauthenticate],
                message: LocalizedText(english: "Sign in again.")),
            EntryDefinition(code: 400, name: "badRequest", message: LocalizedText(english: "Bad request.")),
        ],
        modules: [
            ModuleDefinition(
                name: "cart", title: LocalizedText(english: "Cart"), ranges: [20_000...20_999, 22_000...22_099],
                codes: [
                    EntryDefinition(code: 20_002, name: "full", message: LocalizedText(english: "Full.")),
                    EntryDefinition(code: 20_001, name: "outOfStock", message: LocalizedText(english: "Gone.")),
                ])
        ])

    @Test("nothing installed: the starting point is the empty catalog, success 0 and nothing else")
    func emptyStart() throws {
        let registry = CatalogRegistry()
        let current = registry.current
        #expect(current.name == "empty")
        #expect(current.successCode == 0)
        #expect(current.entryCount == 1)
        #expect(current.moduleCount == 0)
        #expect(current.classify(0).tier == .success)
        #expect(current.classify(11001).tier == .unknown)
        #expect(current.definition == CatalogDefinition.empty)
        // A module defined in Swift is registered on the empty catalog: no base tier.
        let catalog = try registry.catalog(for: RegistryProbeCode.self).get()
        #expect(catalog.moduleID(named: "registryProbe") == 1)
        let classifier = registry.classifier(for: RegistryProbeCode.self)
        #expect(classifier.classify(30_001) == .module(.probe))
        #expect(classifier.classify(401) == .unexpected(401))
        #expect(classifier.classify(0) == .success)
    }

    @Test("a catalog installed before first use is the starting point; Swift modules go on top of it")
    func installThenRegister() throws {
        let registry = CatalogRegistry()
        let installed = try registry.install(Self.shop)
        #expect(installed.name == "shop")
        #expect(registry.current === installed)
        let classifier = registry.classifier(for: RegistryProbeCode.self)
        #expect(classifier.failure == nil)
        #expect(classifier.classify(401) == .base(BaseCode(rawValue: 401)))
        #expect(classifier.classification(of: 401).flags == [.reauthenticate])
        #expect(classifier.classify(7) == .success)
        #expect(classifier.classify(0) == .unexpected(0))
        #expect(classifier.classify(20_001) == .unexpected(20_001))
        #expect(classifier.classify(30_001) == .module(.probe))
        let current = registry.current
        #expect(current.moduleID(named: "cart") == 1)
        #expect(current.moduleID(named: "registryProbe") == 2)
    }

    @Test("installing the catalog in use again, its codes in another order, changes nothing")
    func installAgain() throws {
        let registry = CatalogRegistry()
        let first = try registry.install(Self.shop)
        var reordered = Self.shop
        reordered.base.reverse()
        reordered.modules[0].codes.reverse()
        reordered.modules[0].ranges.reverse()
        #expect(try registry.install(reordered) === first)
        // Read back from its table, the catalog is the same catalog too.
        #expect(try registry.install(first.definition) === first)
        #expect(try registry.install(first) === first)
    }

    @Test("installing another catalog after the first use is .catalogInUse, and changes nothing")
    func installAnother() throws {
        let registry = CatalogRegistry()
        try registry.install(Self.shop)
        _ = registry.classifier(for: RegistryProbeCode.self)
        var other = Self.shop
        other.name = "other"
        #expect {
            try registry.install(other)
        } throws: { error in
            let error = error as? CatalogError
            return error?.status == .catalogInUse
                && error?.message
                    == "cannot install catalog 'other': the process-wide catalog is already in use, started from catalog 'shop'; install the app's catalog once, at start-up, before the first classification"
        }
        // The same catalog with a changed message is another catalog.
        var changed = Self.shop
        changed.base[0].message = LocalizedText(english: "Changed.")
        #expect(throws: CatalogError.self) { try registry.install(changed) }
        #expect(throws: CatalogError.self) { try registry.install(Catalog.builtIn) }
        #expect(registry.current.name == "shop")
        #expect(registry.current.moduleID(named: "registryProbe") == 2)
    }

    @Test("reading the catalog fixes the starting point: nothing installed, then another catalog is refused")
    func readingFixes() {
        let registry = CatalogRegistry()
        #expect(registry.current.name == "empty")
        #expect {
            try registry.install(Self.shop)
        } throws: { error in
            let error = error as? CatalogError
            return error?.status == .catalogInUse
                && error?.message.contains("started from the empty catalog (none was installed before its first use)")
                    == true
        }
        // A module's first use fixes it too.
        let other = CatalogRegistry()
        _ = other.classifier(for: RegistryProbeCode.self)
        #expect(throws: CatalogError.self) { try other.install(Self.shop) }
    }

    @Test("a definition that does not build is its CatalogError; the registry stays free to install")
    func installInvalid() throws {
        let registry = CatalogRegistry()
        var broken = Self.shop
        broken.base.append(EntryDefinition(code: 20_001, name: "clash", message: LocalizedText(english: "x")))
        #expect {
            try registry.install(broken)
        } throws: { error in
            (error as? CatalogError)?.status == .baseInModuleRange
                || (error as? CatalogError)?.status == .duplicateCode
        }
        #expect(try registry.install(Self.shop).name == "shop")
    }

    @Test("installing a built catalog keeps that very catalog: a static table is not rebuilt")
    func installBuilt() throws {
        let registry = CatalogRegistry()
        #expect(try registry.install(Catalog.builtIn) === Catalog.builtIn)
        #expect(registry.current === Catalog.builtIn)
        // The same catalog as a definition (file order or table order) is accepted as installed.
        #expect(try registry.install(Catalog.builtIn.definition) === Catalog.builtIn)
        // A module the catalog holds, defined in Swift with the same contents, is that module.
        let studyGroup = registry.classifier(for: SameStudyGroupCode.self)
        #expect(studyGroup.failure == nil)
        #expect(studyGroup.catalog === Catalog.builtIn)
        #expect(studyGroup.classify(11_210_005) == .module(SameStudyGroupCode.wrongTeamCode))
        #expect(studyGroup.classify(11001) == .base(.tokenExpire))
    }

    @Test("many tasks installing one catalog and classifying at once see one catalog")
    func concurrentInstall() async {
        let registry = CatalogRegistry()
        let catalogs = await withTaskGroup(of: ObjectIdentifier?.self, returning: Set<ObjectIdentifier?>.self) {
            group in
            for i in 0..<64 {
                group.addTask {
                    var catalog: Catalog? = nil
                    if i % 2 == 0 {
                        catalog = try? registry.install(Self.shop)
                    } else if case .success(let registered) = registry.catalog(for: RegistryProbeCode.self) {
                        catalog = registered
                    }
                    return catalog.map(ObjectIdentifier.init)
                }
            }
            return await group.reduce(into: []) { $0.insert($1) }
        }
        // Whichever came first fixed the starting point: either every install succeeded and the probe
        // module was added on top, or the probe came first and every install was refused.
        let shopInstalled = registry.current.name == "shop"
        #expect(!catalogs.isEmpty)
        if shopInstalled {
            #expect(registry.current.moduleID(named: "registryProbe") == 2)
            #expect(!catalogs.contains(nil))
        } else {
            #expect(registry.current.name == "empty")
        }
    }

    @Test("two catalogs installed at once from many tasks: exactly one becomes the starting point")
    func concurrentConflict() async {
        let registry = CatalogRegistry()
        var other = Self.shop
        other.name = "other"
        let installed = other
        let names = await withTaskGroup(of: String?.self, returning: [String?].self) { group in
            for i in 0..<64 {
                group.addTask {
                    (try? registry.install(i % 2 == 0 ? Self.shop : installed))?.name
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let winner = registry.current.name
        #expect(winner == "shop" || winner == "other")
        #expect(names.filter { $0 != nil }.count == 32, "every install of the winner succeeds")
        #expect(names.allSatisfy { $0 == nil || $0 == winner })
    }
}

/// A module defined in Swift for the registry tests (on registries of their own only).
enum RegistryProbeCode: ModuleCode {
    case probe
    case other(Int64)

    static var moduleName: String { "registryProbe" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Registry probe") }
    static var codeRanges: [ClosedRange<Int64>] { [30_000...30_999] }
    static var listedCases: [Self] { [.probe] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    /// Never classified through the process-wide catalog: the tests ask their registries directly.
    static var classifier: ModuleClassifier<Self> {
        ModuleClassifier(failure: CatalogError(status: .nullArgument, message: "use a registry"))
    }
    var message: LocalizedText { LocalizedText(english: "Probe.") }
    var code: Int64 {
        switch self {
        case .probe: return 30_001
        case .other(let code): return code
        }
    }
}

/// The built-in studyGroup module written again in Swift, with the same contents (its cases wrap
/// StudyGroupCode's), so a registry holding the built-in catalog takes it for that module.
enum SameStudyGroupCode: ModuleCode {
    case listed(StudyGroupCode)
    case other(Int64)

    static let wrongTeamCode = Self.listed(.wrongTeamCode)
    static var moduleName: String { StudyGroupCode.moduleName }
    static var moduleTitle: LocalizedText { StudyGroupCode.moduleTitle }
    static var codeRanges: [ClosedRange<Int64>] { StudyGroupCode.codeRanges }
    static var listedCases: [Self] { StudyGroupCode.listedCases.map(Self.listed) }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    /// Never classified through the process-wide catalog: the tests ask their registries directly.
    static var classifier: ModuleClassifier<Self> {
        ModuleClassifier(failure: CatalogError(status: .nullArgument, message: "use a registry"))
    }
    var name: String {
        if case .listed(let code) = self { return code.name }
        return "other"
    }
    var flags: CodeFlags {
        if case .listed(let code) = self { return code.flags }
        return []
    }
    var message: LocalizedText {
        if case .listed(let code) = self { return code.message }
        return Self.unrecognisedMessage
    }
    var code: Int64 {
        switch self {
        case .listed(let code): return code.code
        case .other(let code): return code
        }
    }
}
