import CErrCore
import SwiftErrCore
import SwiftErrDefaultCatalog
import Testing

/// Module names are looked up by comparing UTF-8 bytes with the table's C strings; the answers
/// must be those of the C core's `errcore_module_find()`.
@Suite("Module lookup: Swift names against the table's C names")
struct ModuleLookupTests {
    /// The built-in catalog plus a module whose name is not ASCII.
    static func catalog() throws -> Catalog {
        let module = ModuleDefinition(
            name: "作业", title: LocalizedText(english: "Homework"), ranges: [11_300_000...11_309_999], codes: [])
        return try Catalog(Catalog.builtIn.definition.adding(module))
    }

    /// What the C core answers for `name`, read as a C string.
    static func cAnswer(_ catalog: Catalog, _ name: String) -> UInt16? {
        let id = name.withCString { errcore_module_find(catalog.pointer, $0) }
        return id == UInt16(ERRCORE_MODULE_NONE) ? nil : id
    }

    @Test("moduleID(named:) answers like errcore_module_find for names, prefixes, extensions and NULs")
    func agreesWithC() throws {
        let catalog = try Self.catalog()
        var names = ["", "\0", "x", "studyGroup\0", "studyGroup\0junk", "作", "作业\0业"]
        for id in 1...UInt16(catalog.moduleCount) {
            let name = try #require(catalog.moduleName(id))
            names += [name, String(name.dropLast()), name + "x", "x" + name, name.uppercased()]
        }
        for name in names {
            #expect(catalog.moduleID(named: name) == Self.cAnswer(catalog, name), "\(name.debugDescription)")
        }
        #expect(catalog.moduleID(named: "作业") == UInt16(catalog.moduleCount))
        #expect(catalog.moduleID(named: "studyGroup\0junk") == catalog.moduleID(named: "studyGroup"))
    }

    @Test("module(_:isNamed:) is exact: no prefix, no extension, no NUL")
    func exactName() throws {
        let catalog = try Self.catalog()
        let id = try #require(catalog.moduleID(named: "studyGroup"))
        #expect(catalog.module(id, isNamed: "studyGroup"))
        #expect(!catalog.module(id, isNamed: "studyGrou"))
        #expect(!catalog.module(id, isNamed: "studyGroups"))
        #expect(!catalog.module(id, isNamed: "studyGroup\0"))
        #expect(!catalog.module(id, isNamed: ""))
        #expect(!catalog.module(0, isNamed: "studyGroup"))
        #expect(!catalog.module(UInt16(catalog.moduleCount) + 1, isNamed: "studyGroup"))
        #expect(catalog.module(UInt16(catalog.moduleCount), isNamed: "作业"))
    }
}
