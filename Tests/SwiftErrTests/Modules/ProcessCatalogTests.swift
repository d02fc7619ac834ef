import SwiftErrDefaultCatalog
import Testing

@testable import SwiftErr

/// The process-wide catalog of this test process, which no test installs a catalog in (tests that
/// need the built-in catalog use `DefaultCatalogRegistry`): it starts from the empty catalog, and
/// once in use refuses another catalog. A plugin-generated catalog installing itself in a process of
/// its own is tested by GeneratedSourcePropertyTests and Examples/Shop.
@Suite("Process-wide catalog: Catalog.install, Catalog.current, Catalog.register")
struct ProcessCatalogTests {
    @Test("nothing installed: the process-wide catalog starts from the empty catalog")
    func startsEmpty() throws {
        let current = Catalog.current
        #expect(current.successCode == 0)
        #expect(current.classify(11001).tier == .unknown, "no base tier: no catalog is installed in tests")
        #expect(CatalogRegistry.process.current.name == "empty")
        // A module with SwiftErr's default classifier is registered on it.
        #expect(ProcessOnlyCode.classify(31_001) == .module(.only))
        #expect(ProcessOnlyCode.classify(31_999) == .module(.other(31_999)))
        #expect(ProcessOnlyCode.classify(0) == .success)
        #expect(ProcessOnlyCode.classify(11001) == .unexpected(11001))
        let registered = try Catalog.register(ProcessOnlyCode.self)
        #expect(registered.moduleID(named: "processOnly") != nil)
        #expect(Catalog.current.moduleID(named: "processOnly") != nil)
        #expect(ModuleClassifier<ProcessOnlyCode>.registered.catalog === ProcessOnlyCode.catalog)
    }

    @Test("once in use, installing a catalog is .catalogInUse; a generated module then reports it for every code")
    func refusesAnInstall() {
        _ = Catalog.current
        #expect {
            try Catalog.install(Catalog.builtIn.definition)
        } throws: { error in
            (error as? CatalogError)?.status == .catalogInUse
        }
        #expect(throws: CatalogError.self) { try Catalog.install(Catalog.builtIn) }
        let classifier = ModuleClassifier<ProcessOnlyCode>(installing: Catalog.builtIn.definition)
        #expect(classifier.failure?.status == .catalogInUse)
        #expect(classifier.classify(31_001) == .invalidCatalog(classifier.failure!))
        #expect(classifier.catalog == nil)
    }

    @Test("`try Catalog.install(.builtIn)`, as the documentation writes it, type-checks: one overload takes .builtIn")
    func installBuiltInCompiles() {
        // Not called: installing would fix this test process's catalog.
        let install: () throws(CatalogError) -> Catalog = { try Catalog.install(.builtIn) }
        _ = install
    }

    @Test("a presentation and a description without a catalog of their own use the process-wide catalog")
    func defaultsUseCurrent() {
        let presentation = ErrorPresentation(code: 4_294_978_297, language: .english)
        #expect(presentation.title == "Unknown response code 4294978297")
    }
}

/// A module with SwiftErr's default classifier: the process-wide catalog. Its name and range
/// (31,000 ... 31,999) are used by no other test.
enum ProcessOnlyCode: ModuleCode {
    case only
    case other(Int64)

    static var moduleName: String { "processOnly" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Process only") }
    static var codeRanges: [ClosedRange<Int64>] { [31_000...31_999] }
    static var listedCases: [Self] { [.only] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    var message: LocalizedText { LocalizedText(english: "Only.") }
    var code: Int64 {
        switch self {
        case .only: return 31_001
        case .other(let code): return code
        }
    }
}
