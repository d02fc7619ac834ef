// `errcat diff` on format 3 catalogs: each change to shapes, namespaces and string codes planted
// alone, with its kind, its class and the --allow value that admits it.

import Foundation
import Testing

@testable import ErrcatKit
@testable import SwiftErr
@testable import SwiftErrCatalogFile

@Suite("errcat diff: shapes, namespaces and string codes")
struct DiffStringCodeTests {
    /// One edit of the shapes fixture: the change it must cause alone.
    struct Edit: CustomTestStringConvertible, Sendable {
        var name: String
        var edit: @Sendable (inout CatalogDefinition) -> Void
        /// Every change it causes, as (kind, class).
        var changes: [[String]]
        var allow: String?
        var testDescription: String { name }
    }

    static let edits: [Edit] = [
        Edit(
            name: "a shape removed", edit: { $0.shapes.remove(at: 1) }, changes: [["shape-removed", "breaking"]],
            allow: "shape:slack"),
        Edit(
            name: "a shape reads the message elsewhere", edit: { $0.shapes[0].message = .body([.key("msg")]) },
            changes: [["shape-changed", "breaking"]], allow: "shape:stripe"),
        Edit(
            name: "a shape added",
            edit: {
                $0.shapes.append(
                    ShapeDefinition(
                        name: "vapor", code: .body([.key("reason")]), codeType: .string,
                        failure: .flag(.body([.key("error")]), failsWhen: true)))
            }, changes: [["shape-added", "compatible"]], allow: nil),
        Edit(
            name: "a namespace no longer owned: its listed string code moves too",
            edit: {
                $0.modules[0].namespaces = []
                $0.modules[0].codes[0].namespace = nil
            },
            changes: [["namespace-removed", "breaking"], ["string-code-changed", "breaking"]],
            allow: "module:card,101"),
        Edit(
            name: "a namespace added", edit: { $0.modules[0].namespaces.append("wallet_error") },
            changes: [["namespace-added", "compatible"]], allow: nil),
        Edit(
            name: "a string code renamed", edit: { $0.base[0].string = "not_authed" },
            changes: [["string-code-changed", "breaking"]], allow: "1"),
        Edit(
            name: "a string code moved to another namespace",
            edit: { $0.modules[0].codes[1].namespace = "card_error" }, changes: [["string-code-changed", "breaking"]],
            allow: "102"),
        Edit(
            name: "a string code removed", edit: { $0.base[0].string = nil },
            changes: [["string-code-changed", "breaking"]], allow: "1"),
        Edit(
            name: "a string code added", edit: { $0.success.string = "ok" },
            changes: [["string-code-added", "compatible"]], allow: nil),
    ]

    static func write(_ definition: CatalogDefinition, in directory: URL, name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(CatalogJSONWriter.text(definition).utf8).write(to: url)
        return url.path
    }

    @Test("each edit gives exactly its changes, kinds and classes; --allow admits the breaking ones", arguments: edits)
    func edit(_ edit: Edit) throws {
        let old = try CatalogDefinition(json: RepositoryBytes.read("Tests/Fixtures/shapes-catalog.json"))
        var new = old
        edit.edit(&new)
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let oldPath = try Self.write(old, in: directory, name: "old.json")
        let newPath = try Self.write(new, in: directory, name: "new.json")
        let result = try ErrcatRunner.run(["diff", "--json", oldPath, newPath])
        let breaking = edit.changes.contains { $0[1] == "breaking" }
        #expect(result.status == (breaking ? 1 : 0), "\(result.errors)")
        let report = try result.jsonObject()
        let changes = try #require(report["changes"] as? [[String: Any]])
        #expect(changes.map { [$0["kind"] as? String ?? "", $0["class"] as? String ?? ""] } == edit.changes)
        if let allow = edit.allow {
            let allowed = try ErrcatRunner.run(["diff", "--allow", allow, oldPath, newPath])
            #expect(allowed.status == 0, "\(allowed.output)\(allowed.errors)")
            #expect(allowed.lines.dropLast().allSatisfy { $0.hasPrefix("ALLOWED") }, "\(allowed.output)")
        }
    }
}
