// A catalog loaded from a file at run time and reloaded from it: the new file in use when it is
// good, the old one kept, with each problem located, when it is not.

import Foundation
import SwiftErr
import SwiftErrCatalogFile
import SwiftErrDefaultCatalog
import Testing

@Suite("ReloadableCatalog from files: reload(contentsOfFile:), CatalogDefinition(contentsOfFile:)")
struct ReloadableCatalogFileTests {
    /// A minimal catalog file: success `0`, the base code 11001 with `message`.
    static func catalogFile(name: String, message: String) -> String {
        """
        {
          "format": "swifterr-catalog/1",
          "name": "\(name)",
          "success": {"code": 0, "name": "success", "message": {"en": "OK"}},
          "base": [
            {"code": 11001, "name": "tokenExpire", "flags": ["reauthenticate"], "message": {"en": "\(message)"}}
          ],
          "modules": []
        }
        """
    }

    /// A fresh temporary directory, removed by `body`'s end.
    static func withDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("reload-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }

    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    @Test("catalog/default.json loads with the built-in table's identity")
    func defaultFile() throws {
        let path = RepositoryFiles.root.appendingPathComponent("catalog/default.json").path
        let reloadable = try ReloadableCatalog(contentsOfFile: path)
        #expect(reloadable.snapshot.identity == Catalog.builtIn.identity)
        #expect(reloadable.snapshot.name == "default")
        #expect(
            try CatalogDefinition(contentsOfFile: path)
                == CatalogDefinition(json: RepositoryFiles.bytes("catalog/default.json")))
    }

    @Test("a good file replaces the catalog; a bad one throws, located, and the old catalog stays")
    func reloadKeepsOldOnBadFile() throws {
        try Self.withDirectory { directory in
            let file = directory.appendingPathComponent("catalog.json")
            try Self.write(Self.catalogFile(name: "first", message: "Sign in again."), to: file)
            let reloadable = try ReloadableCatalog(contentsOfFile: file.path)
            let first = reloadable.snapshot
            #expect(first.name == "first" && first.generation == 0)

            try Self.write(Self.catalogFile(name: "second", message: "Session over."), to: file)
            let second = try reloadable.reload(contentsOfFile: file.path)
            #expect(second.name == "second" && second.generation == 1)
            #expect(second.identity != first.identity)
            let entry = try #require(second.catalog.classify(11001).entryIndex)
            #expect(second.catalog.entryMessage(at: entry, in: .english) == "Session over.")

            // A base code inside a module's range: each problem names the file, its line and column.
            var broken = Self.catalogFile(name: "third", message: "x")
            broken = broken.replacingOccurrences(
                of: "\"modules\": []",
                with:
                    "\"modules\": [{\"name\": \"m\", \"title\": {\"en\": \"M\"}, \"ranges\": [[11001, 11001]], \"codes\": []}]"
            )
            try Self.write(broken, to: file)
            #expect {
                try reloadable.reload(contentsOfFile: file.path)
            } throws: { error in
                guard let error = error as? CatalogLoadError, case .invalid(let problems) = error.reason else {
                    return false
                }
                return !problems.problems.isEmpty && error.description.hasPrefix("\(file.path):")
                    && error.description.split(separator: "\n").allSatisfy { $0.hasPrefix("\(file.path):") }
            }
            #expect(reloadable.snapshot.generation == 1)
            #expect(reloadable.snapshot.identity == second.identity)

            // Not JSON at all: one problem, at line 1.
            try Self.write("{\"format\": ", to: file)
            do throws(CatalogLoadError) {
                try reloadable.reload(contentsOfFile: file.path)
                Issue.record("a truncated file was accepted")
            } catch {
                guard case .invalid(let problems) = error.reason else {
                    Issue.record("\(error)")
                    return
                }
                #expect(problems.problems.first?.location.line == 1)
                #expect(error.description.hasPrefix("\(file.path):1:"))
            }
            #expect(reloadable.snapshot.identity == second.identity)
        }
    }

    @Test("a missing file or a directory cannot be read, and says so; the catalog stays")
    func unreadable() throws {
        try Self.withDirectory { directory in
            let reloadable = ReloadableCatalog(Catalog.builtIn)
            let missing = directory.appendingPathComponent("missing.json").path
            #expect(throws: CatalogLoadError(path: missing, reason: .unreadable("No such file or directory"))) {
                try reloadable.reload(contentsOfFile: missing)
            }
            #expect(throws: CatalogLoadError(path: directory.path, reason: .unreadable("is a directory"))) {
                try reloadable.reload(contentsOfFile: directory.path)
            }
            #expect(reloadable.snapshot.generation == 0)
            #expect(reloadable.snapshot.identity == Catalog.builtIn.identity)
            #expect(
                CatalogLoadError(path: missing, reason: .unreadable("No such file or directory")).description
                    == "\(missing): No such file or directory")
        }
    }
}
