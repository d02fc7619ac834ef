// Reading catalog files as a library: the default catalog file against the built-in C table,
// and problems located by line and column.

import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

@testable import SwiftErrCatalogFile

@Suite("Catalog files: CatalogDefinition(json:)")
struct CatalogFileTests {
    static func bytes(_ path: String) throws -> [UInt8] {
        try RepositoryFiles.bytes(path)
    }

    @Test("catalog/default.json decodes to exactly the built-in C table's catalog")
    func defaultMatchesBuiltIn() throws {
        let definition = try CatalogDefinition(json: try CatalogFileTests.bytes("catalog/default.json"))
        let builtIn = Catalog.builtIn.definition
        #expect(definition.success == builtIn.success)
        #expect(definition.base == builtIn.base)
        #expect(definition.modules == builtIn.modules)
        #expect(definition.name == "default")
    }

    @Test("a table built from the decoded file classifies like the built-in table")
    func builtTableAgrees() throws {
        let table = try Catalog(try CatalogDefinition(json: try CatalogFileTests.bytes("catalog/default.json")))
        var codes: [Int64] = [Int64.min, -1, 0, 1, Int64.max, 4_294_978_297]
        for code in stride(from: Int64(10_990), through: 11_020, by: 1) { codes.append(code) }
        for code in stride(from: Int64(11_000_000), through: 11_230_000, by: 997) { codes.append(code) }
        for code in codes {
            let ours = table.classify(code)
            let theirs = Catalog.builtIn.classify(code)
            #expect(ours.tier == theirs.tier, "code \(code)")
            #expect(ours.moduleID == theirs.moduleID, "code \(code)")
            #expect(ours.flags == theirs.flags, "code \(code)")
            #expect(
                ours.entryIndex.flatMap { table.entryName(at: $0) }
                    == theirs.entryIndex.flatMap { Catalog.builtIn.entryName(at: $0) })
        }
    }

    @Test("decoding keeps file order, optional keys and escapes")
    func smallFixture() throws {
        let definition = try CatalogDefinition(json: try Self.bytes("Tests/Fixtures/small-catalog.json"))
        #expect(definition.name == "small")
        #expect(definition.success.code == 200)
        #expect(definition.base.first?.message.english == "Sign in \"again\"\\now??=")
        #expect(definition.base.first?.message.simplifiedChinese == "请重新登录")
        #expect(definition.base.first?.flags == [.reauthenticate])
        let billing = try #require(definition.modules.first)
        #expect(billing.title == LocalizedText(english: "Billing"))
        #expect(billing.ranges == [500_000...500_999])
        #expect(billing.codes.map(\.name) == ["quotaExceeded", "default"])
        #expect(billing.codes.first?.flags == [.retryable, .fatal])
        #expect(billing.codes.first?.message.english == "Quota\nexceeded\ttab \u{e9} */ end")
        let big = definition.modules[1]
        #expect(big.title.english == "big")
        #expect(big.ranges == [Int64.min...(-9_000_000_000_000_000_000), 9_000_000_000_000_000_000...Int64.max])
        #expect(big.codes.first?.flags == CodeFlags(rawValue: 0x10))
        #expect(big.codes.map(\.code) == [Int64.min, Int64.max])
    }

    @Test("problems are sorted by location and carry line and column")
    func problemLocations() throws {
        let text = """
            {"format": "swifterr-catalog/9", "name": "x",
             "success": {"code": 0, "name": "ok", "message": {"en": "OK", "fr": "D'accord"}},
             "base": [{"code": 0, "name": "zero", "message": {"en": "z"}}]}
            """
        do {
            _ = try CatalogDefinition(json: Array(text.utf8))
            Issue.record("decoding should fail")
        } catch {
            #expect(
                error.problems.map(\.location) == [
                    SourceLocation(line: 1, column: 12),
                    SourceLocation(line: 3, column: 20),
                ])
            #expect(error.problems.first?.message.contains("unsupported format \"swifterr-catalog/9\"") == true)
            #expect(
                error.problems.last?.message.contains(
                    "duplicate code 0: base entry \"zero\" repeats success entry \"ok\"") == true)
            #expect(error.problems.last?.related == SourceLocation(line: 2, column: 22))
        }
    }

    @Test("a swifterr-catalog/1 file has en and zh-Hans only: another key is unknown, at its place")
    func firstFormatKeys() throws {
        let text = """
            {"format": "swifterr-catalog/1", "name": "x",
             "success": {"code": 0, "name": "ok", "message": {"en": "OK", "fr": "D'accord"}}}
            """
        do {
            _ = try CatalogDefinition(json: Array(text.utf8))
            Issue.record("decoding should fail")
        } catch {
            #expect(error.problems.map(\.location) == [SourceLocation(line: 2, column: 63)])
            #expect(error.problems.first?.message.contains("unknown key \"fr\"") == true)
        }
    }

    @Test("duplicate entry names within a scope, a module without ranges, a NUL in a message")
    func namesAndRanges() throws {
        let text = """
            {"format": "swifterr-catalog/1", "name": "x",
             "success": {"code": 0, "name": "ok", "message": {"en": "OK"}},
             "base": [{"code": 1, "name": "same", "message": {"en": "a"}},
                      {"code": 2, "name": "same", "message": {"en": "b\\u0000c"}}],
             "modules": [{"name": "m", "ranges": [], "codes": []},
                         {"name": "n", "ranges": [[10, 19]], "codes": [{"code": 11, "name": "same", "message": {"en": "c"}}]}]}
            """
        do {
            _ = try CatalogDefinition(json: Array(text.utf8))
            Issue.record("decoding should fail")
        } catch {
            let messages = error.problems.map(\.message)
            #expect(messages.count == 3, "\(messages)")
            #expect(
                messages.contains {
                    $0.contains(
                        "duplicate name \"same\": base entry \"same\" (code 2) repeats base entry \"same\" (code 1)")
                })
            #expect(messages.contains { $0.contains("contains a NUL character") })
            #expect(messages.contains { $0.contains("module \"m\" has no ranges") })
            // The module entry named "same" is in another scope (its own enum): no problem.
        }
    }

    @Test("columns count Unicode scalars, not bytes")
    func columnsInScalars() throws {
        let text = "{\"name\": \"学习\", \"x\": 1}"
        do {
            _ = try CatalogDefinition(json: Array(text.utf8))
            Issue.record("decoding should fail")
        } catch {
            let unknown = try #require(error.problems.first { $0.message.contains("unknown key \"x\"") })
            #expect(unknown.location == SourceLocation(line: 1, column: 16))
        }
    }

    @Test("deep nesting is an error, not a stack overflow")
    func deepNesting() throws {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try CatalogDefinition(json: Array(text.utf8))
            Issue.record("decoding should fail")
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.problems[0].message.contains("nested deeper than 512 levels"), "\(error.problems[0].message)")
        }
    }
}
