import SwiftErrCore
import SwiftErrDefaultCatalog
import Testing

/// A classifier's errors carry names and compose their message when it is read; the message, equality
/// and hashing are those of an error created with the same text.
@Suite("Classifier failures: composed messages")
struct ClassifierFailureTests {
    @Test("a module missing from its catalog: the exact message, equal to the same error with given text")
    func moduleMissing() throws {
        let catalog = try Catalog(Catalog.builtIn.definition.withoutModules)
        let failure = try #require(ModuleClassifier<StudyGroupCode>(catalog: catalog).failure)
        let text = """
            module 'studyGroup' is not part of catalog '\(catalog.name)'; \
            classify it through a catalog that includes it
            """
        #expect(failure.message == text)
        #expect(failure.description == text)
        let given = CatalogError(status: .undeclaredModule, message: text)
        #expect(failure == given)
        #expect(failure.hashValue == given.hashValue)
        #expect(Set([failure, given]).count == 1)
        #expect(failure != CatalogError(status: .duplicateModuleName, message: text))
        #expect(failure != CatalogError(status: .undeclaredModule, message: text + "."))
    }

    @Test("setting the message of a composed error replaces it")
    func replacedMessage() throws {
        let catalog = try Catalog(Catalog.builtIn.definition.withoutModules)
        var failure = try #require(ModuleClassifier<StudyGroupCode>(catalog: catalog).failure)
        failure.message = "replaced"
        #expect(failure.message == "replaced")
        #expect(failure == CatalogError(status: .undeclaredModule, message: "replaced"))
    }
}
