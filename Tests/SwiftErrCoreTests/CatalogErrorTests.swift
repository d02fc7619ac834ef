import SwiftErrCore
import SwiftErrDefaultCatalog
import SwiftErrTesting
import Testing

/// Inconsistent catalogs are rejected with a clear error naming what collides.
@Suite("CatalogError: collisions are reported when a catalog is assembled")
struct CatalogErrorTests {
    private func module(_ name: String, _ ranges: [ClosedRange<Int64>], _ codes: [(Int64, String)]) -> ModuleDefinition
    {
        ModuleDefinition(
            name: name, title: LocalizedText(english: name), ranges: ranges,
            codes: codes.map { EntryDefinition(code: $0.0, name: $0.1, message: LocalizedText(english: $0.1)) })
    }

    @Test("two modules listing the same code")
    func duplicateCode() throws {
        // Ranges do not overlap, but 'homework' lists a code studyGroup already lists.
        let definition = Catalog.builtIn.definition.adding(
            module("homework", [11_300_000...11_309_999], [(11_210_005, "copy")]))
        let error = try #require(buildFailure(definition))
        #expect(error.status == .duplicateCode)
        #expect(error.code == 11_210_005)
        #expect(error.message.contains("homework.copy"), "\(error.message)")
        #expect(error.message.contains("studyGroup.wrongTeamCode"), "\(error.message)")
    }

    @Test("the same code twice in the base tier")
    func duplicateBase() throws {
        var definition = Catalog.builtIn.definition.withoutModules
        definition.base.append(EntryDefinition(code: 11001, name: "again", message: LocalizedText(english: "again")))
        let error = try #require(buildFailure(definition))
        #expect(error.status == .duplicateCode)
        #expect(error.code == 11001)
        #expect(error.message.contains("base.again") && error.message.contains("base.tokenExpire"), "\(error.message)")
    }

    @Test("overlapping ranges")
    func overlap() throws {
        let definition = Catalog.builtIn.definition.adding(module("clash", [11_219_000...11_229_999], []))
        let error = try #require(buildFailure(definition))
        #expect(error.status == .rangeOverlap)
        #expect(error.message.contains("clash range 11219000...11229999"), "\(error.message)")
        #expect(error.message.contains("studyGroup range 11210000...11219999"), "\(error.message)")
    }

    @Test("a module range covering a base code")
    func baseInModule() throws {
        let definition = Catalog.builtIn.definition.adding(module("wide", [11_000...11_999], []))
        let error = try #require(buildFailure(definition))
        #expect(error.status == .baseInModuleRange)
        #expect(error.message.contains("wide"), "\(error.message)")
    }

    @Test("a module code outside its own ranges")
    func outside() throws {
        let definition = Catalog.builtIn.definition.withoutModules.adding(module("m", [100...199], [(250, "far")]))
        let error = try #require(buildFailure(definition))
        #expect(error.status == .codeOutsideModule)
        #expect(error.message.contains("m.far"), "\(error.message)")
    }

    @Test("the success code inside a module")
    func successInModule() throws {
        let definition = Catalog.builtIn.definition.withoutModules.adding(module("zero", [-5...5], []))
        let error = try #require(buildFailure(definition))
        #expect(error.status == .successInModule)
    }

    @Test("empty names, NUL bytes and duplicate module names")
    func malformed() throws {
        let emptyName = Catalog.builtIn.definition.withoutModules.adding(module("", [100...199], []))
        #expect(buildFailure(emptyName)?.status == .emptyName)
        let nul = Catalog.builtIn.definition.withoutModules.adding(module("m\u{0}x", [100...199], []))
        let nulError = try #require(buildFailure(nul))
        #expect(nulError.status == .badString)
        #expect(nulError.message.contains("NUL"))
        let twice = Catalog.builtIn.definition.withoutModules.adding(module("m", [100...199], [])).adding(
            module("m", [200...299], []))
        let twiceError = try #require(buildFailure(twice))
        #expect(twiceError.status == .duplicateModuleName)
        #expect(twiceError.message.contains("'m'"))
    }

    @Test("a classifier without a catalog gives every code the invalid-catalog outcome with the error")
    func rejectedCatalog() throws {
        var failure: CatalogError?
        do {
            _ = try Catalog(Catalog.builtIn.definition.adding(module("clash", [11_219_000...11_229_999], [])))
        } catch {
            failure = error
        }
        let error = try #require(failure)
        #expect(error.status == .rangeOverlap)
        let classifier = ModuleClassifier<StudyGroupCode>(failure: error)
        #expect(classifier.failure == error)
        #expect(classifier.catalog == nil)
        for code: Int64 in [0, 11001, 11_210_005, 5] {
            #expect(classifier.classify(code) == .invalidCatalog(error))
        }
    }

    @Test("a catalog without the module is reported as such")
    func moduleMissing() throws {
        let catalog = try Catalog(Catalog.builtIn.definition.withoutModules)
        let classifier = ModuleClassifier<StudyGroupCode>(catalog: catalog)
        let failure = try #require(classifier.failure)
        #expect(failure.status == .undeclaredModule)
        #expect(failure.message.contains("studyGroup"))
        #expect(classifier.classify(11_210_005) == .invalidCatalog(failure))
    }
}
