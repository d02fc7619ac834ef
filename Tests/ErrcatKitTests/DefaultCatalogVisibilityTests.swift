// SwiftErr carries no backend's codes: a program that imports only SwiftErr (or SwiftErrCore) sees no
// type or constant of the built-in catalog; importing the SwiftErrDefaultCatalog product brings them.
// Type-checked with swiftc against the modules `swift build` made for these tests.

import Foundation
import Testing

@Suite("products: the built-in catalog is visible only through SwiftErrDefaultCatalog")
struct DefaultCatalogVisibilityTests {
    /// Uses of the built-in catalog: a module enum, a base constant, the catalog itself.
    static let uses = """
        let group: StudyGroupCode? = nil
        let expired = BaseCode.tokenExpire
        let table = Catalog.builtIn
        print(group as Any, expired, table.name)

        """

    /// Type-checks `imports` followed by ``uses`` as one file.
    static func typecheck(_ imports: [String]) async throws -> ToolRun {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("main.swift")
        try Data((imports.map { "import \($0)\n" }.joined() + uses).utf8).write(to: file)
        return try await GeneratedSourceToolchain.typecheckSwift([file], in: directory)
    }

    @Test(
        "importing only SwiftErr, or only SwiftErrCore: StudyGroupCode, BaseCode.tokenExpire and Catalog.builtIn are unknown",
        .enabled(if: GeneratedSourceToolchain.swiftUnavailable == nil), arguments: ["SwiftErr", "SwiftErrCore"])
    func notVisible(module: String) async throws {
        let result = try await Self.typecheck([module])
        #expect(!result.succeeded)
        #expect(result.errors.contains("cannot find type 'StudyGroupCode' in scope"), "\(result.errors)")
        #expect(result.errors.contains("type 'BaseCode' has no member 'tokenExpire'"), "\(result.errors)")
        #expect(result.errors.contains("type 'Catalog' has no member 'builtIn'"), "\(result.errors)")
    }

    @Test(
        "importing SwiftErrDefaultCatalog too: the same uses type-check",
        .enabled(if: GeneratedSourceToolchain.swiftUnavailable == nil))
    func visibleWithTheProduct() async throws {
        let result = try await Self.typecheck(["SwiftErr", "SwiftErrDefaultCatalog"])
        #expect(result.succeeded, "\(result.errors)")
    }
}
