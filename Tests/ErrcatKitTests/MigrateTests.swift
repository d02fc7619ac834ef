// `errcat migrate` and the catalog writer on format 3: a /1 or /2 file becomes a /3 file of the
// same catalog, a file with problems is left as it was, and a catalog with shapes, namespaces and
// string codes is written and read back unchanged.

import Foundation
import Testing

@testable import ErrcatKit
@testable import SwiftErr
@testable import SwiftErrCatalogFile

@Suite("errcat migrate and the format 3 writer")
struct MigrateTests {
    /// Writes `bytes` as catalog.json in a new folder and returns its path.
    static func file(_ bytes: [UInt8]) throws -> String {
        let url = try ErrcatRunner.temporaryDirectory().appendingPathComponent("catalog.json")
        try Data(bytes).write(to: url)
        return url.path
    }

    static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("a format 2 file becomes the same catalog in format 3; a second run writes nothing")
    func secondFormat() throws {
        let original = Array(
            #"""
            {"format": "swifterr-catalog/2", "name": "two", "languages": ["en", "fr"],
             "success": {"code": 0, "name": "ok", "message": {"en": "OK", "fr": "D'accord"}},
             "modules": [{"name": "billing", "ranges": [[10, 19]],
                          "codes": [{"code": 11, "name": "late", "flags": ["fatal", "retryable"], "message": {"en": "Late"}}]}]}
            """#.utf8)
        let path = try Self.file(original)
        let first = try ErrcatRunner.run(["migrate", path])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.lines == ["\(path): migrated from swifterr-catalog/2 to swifterr-catalog/3"])
        let migrated = try Self.read(path)
        #expect(String(decoding: migrated, as: UTF8.self).contains("\"format\": \"swifterr-catalog/3\""))
        #expect(try CatalogDefinition(json: migrated) == CatalogDefinition(json: original))
        // The flags keep the order the file wrote them in.
        #expect(String(decoding: migrated, as: UTF8.self).contains("\"fatal\",\n"))
        let second = try ErrcatRunner.run(["migrate", path])
        #expect(second.status == 0)
        #expect(second.lines == ["\(path): already in swifterr-catalog/3; nothing written"])
        #expect(try Self.read(path) == migrated)
    }

    @Test("a format 1 file keeps its English and Chinese texts, now under \"languages\"")
    func firstFormat() throws {
        let original = Array(
            #"""
            {"format": "swifterr-catalog/1", "name": "old",
             "success": {"code": 0, "name": "ok", "message": {"en": "OK", "zh-Hans": "成功"}},
             "base": [{"code": 7, "name": "later", "flags": ["retryable"], "message": {"en": "Later"}}]}
            """#.utf8)
        let path = try Self.file(original)
        let output = path + ".new"
        let result = try ErrcatRunner.run(["migrate", path, "--output", output])
        #expect(result.status == 0, "\(result.errors)")
        #expect(try Self.read(path) == original)
        let migrated = try CatalogDefinition(json: try Self.read(output))
        #expect(migrated == (try CatalogDefinition(json: original)))
        #expect(migrated.languages.map(\.tag) == ["en", "zh-Hans"])
    }

    @Test("a file with problems is reported where they are, and not written")
    func problems() throws {
        let original = Array(
            #"{"format": "swifterr-catalog/2", "name": "bad", "languages": ["en"], "success": {"code": 0, "name": "ok"}}"#
                .utf8)
        let path = try Self.file(original)
        let result = try ErrcatRunner.run(["migrate", path])
        #expect(result.status == 1)
        #expect(result.errors.contains("\(path):1:"), "\(result.errors)")
        #expect(try Self.read(path) == original)
        #expect(try ErrcatRunner.run(["migrate"]).status == 2)
    }

    @Test("a catalog with shapes, namespaces and string codes is written and read back unchanged")
    func shapesRoundTrip() throws {
        let bytes = try RepositoryBytes.read("Tests/Fixtures/shapes-catalog.json")
        let definition = try CatalogDefinition(json: bytes)
        let written = Array(CatalogJSONWriter.text(definition).utf8)
        let back = try CatalogDefinition(json: written)
        #expect(back == definition)
        // Written once more, the same bytes: the layout is a function of the catalog.
        #expect(Array(CatalogJSONWriter.text(back).utf8) == written)
        // A module entry in the catalog's own namespace says so; one in its module's first does not.
        let root = try #require(try JSONSerialization.jsonObject(with: Data(written)) as? [String: Any])
        let modules = try #require(root["modules"] as? [[String: Any]])
        let codes = try #require(modules.first?["codes"] as? [[String: Any]])
        #expect(codes.map { $0["namespace"] as? String } == [nil, ""])
    }

    @Test(
        "every kind of location, step, failure rule, fallback and default code survives the writer", arguments: 0..<32)
    func randomShapes(seed: UInt64) throws {
        var random = SplitMix64(seed: 0xC0DE + seed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.below(UInt64(items.count)))] }
        func location() -> ShapeDefinition.Location {
            if random.below(4) == 0 { return .header(pick(["x-code", "grpc-status", "X_A!"])) }
            let steps: [ShapeDefinition.PathStep] = (0...Int(random.below(5))).map { _ in
                pick([
                    .key("error"), .key("\u{0}é\"\\"), .key(""), .index(0), .index(Int(random.below(1_000))),
                    .firstWhere(key: "@type", equals: "type.googleapis.com/google.rpc.ErrorInfo"),
                ])
            }
            return .body(steps)
        }
        var shapes: [ShapeDefinition] = []
        for index in 0..<(1 + Int(random.below(6))) {
            let kind = pick(ShapeDefinition.Kind.allCases)
            let codeType: ShapeDefinition.CodeType = kind == .json ? pick(ShapeDefinition.CodeType.allCases) : .integer
            let namespace: ShapeDefinition.NamespaceSource? =
                codeType == .string ? pick([nil, .codePrefix, .location(location())]) : nil
            let failures: [ShapeDefinition.Failure] =
                kind == .json
                ? [.status, .code, .flag(location(), failsWhen: random.below(2) == 0), .present(location())] : [.status]
            let failure = pick(failures)
            let fallbackCodes = kind == .json ? (0..<Int(random.below(3))).map { _ in location() } : []
            var defaultCode: ShapeDefinition.CodeValue? = nil
            if kind == .json, failure != .code, random.below(2) == 0 {
                defaultCode =
                    codeType == .string
                    ? .string(pick(["about:blank", "\u{0}é\"\\", "UNKNOWN"])) : .integer(pick([0, -1, .max, .min]))
            }
            shapes.append(
                ShapeDefinition(
                    name: "shape\(index)", kind: kind, contentType: pick([nil, "application/problem+json"]),
                    code: kind == .json ? location() : nil, fallbackCodes: fallbackCodes, codeType: codeType,
                    defaultCode: defaultCode, namespace: namespace, secondary: pick([nil, location()]),
                    message: pick([nil, location()]), payload: pick([nil, location()]), failure: failure))
        }
        var definition = try CatalogDefinition(json: try RepositoryBytes.read("Tests/Fixtures/shapes-catalog.json"))
        // Keep only shapes the file accepts (two that no response tells apart are refused).
        definition.shapes = shapes.enumerated().filter { i, shape in
            shapes[..<i].allSatisfy { $0.isDistinguishable(from: shape) }
        }.map(\.element)
        let back = try CatalogDefinition(json: Array(CatalogJSONWriter.text(definition).utf8))
        #expect(back.shapes == definition.shapes)
    }
}
