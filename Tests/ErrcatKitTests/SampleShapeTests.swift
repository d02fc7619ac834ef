// `errcat sample` in a catalog's JSON shapes: every kind of line it writes, for every JSON shape of
// the test fixture and of the example catalogs of real APIs, reads back in that shape as what it
// was written as; and the command's options around shapes.

import Foundation
import Testing

@testable import ErrcatKit
@testable import SwiftErr
@testable import SwiftErrCatalogFile

@Suite("errcat sample in a catalog's shapes")
struct SampleShapeTests {
    /// What `reader` makes of `line`.
    static func read(_ line: [UInt8], _ reader: ShapeLineReader) -> ShapeLineOutcome {
        line.withUnsafeBytes { reader.read($0) }
    }

    static func classification(_ line: [UInt8], _ reader: ShapeLineReader) -> Classification? {
        if case .line(let read) = read(line, reader) { return read.classification }
        return nil
    }

    @Test(
        "each line written in a shape reads back in it as written: entries, success, unlisted, unknown, malformed",
        arguments: ShapeCorpusTests.corpora.map(\.catalog))
    func readsBack(catalogPath: String) throws {
        let definition = try CatalogDefinition(json: try RepositoryBytes.read(catalogPath))
        let catalog = try Catalog(definition)
        for shape in catalog.shapes where shape.kind == .json {
            let lines = try ShapeSampleLines(catalog: catalog, shape: shape, language: .english)
            let reader = try #require(ShapeLineReader(catalog: catalog, only: shape.name))
            let text = { (line: [UInt8]) in "\(shape.name): \(String(decoding: line, as: UTF8.self))" }
            // One line per entry the shape can carry, each read as that entry: every entry for an
            // integer shape; for a string shape each with a string, in a namespace the shape has a
            // place for (or the catalog's own).
            var namespaced = false
            switch shape.namespace {
            case .location(.body)?, .codePrefix?: namespaced = true
            default: break
            }
            let carried = (definition.base + definition.modules.flatMap(\.codes)).filter {
                shape.codeType == .integer || ($0.string != nil && (namespaced || ($0.namespace ?? "").isEmpty))
            }
            #expect(lines.base.count + lines.module.count == carried.count, "\(shape.name)")
            var seen: Set<Int64> = []
            for line in lines.base + lines.module {
                let classification = Self.classification(line, reader)
                #expect(classification?.isExact == true, "\(text(line))")
                if let index = classification?.entryIndex, let code = catalog.code(at: index) { seen.insert(code) }
            }
            #expect(seen == Set(carried.map(\.code)), "\(shape.name): every entry written once")
            for line in lines.base {
                #expect(Self.classification(line, reader)?.tier == .base, "\(text(line))")
            }
            for line in lines.module {
                #expect(Self.classification(line, reader)?.tier == .module, "\(text(line))")
            }
            for line in lines.unrecognised {
                let classification = Self.classification(line, reader)
                #expect(classification?.tier == .module && classification?.isExact == false, "\(text(line))")
            }
            #expect(!lines.unknown.isEmpty)
            for line in lines.unknown {
                #expect(Self.classification(line, reader)?.tier == .unknown, "\(text(line))")
            }
            let success = lines.success.prefix + Array("12345".utf8) + lines.success.suffix
            #expect(Self.classification(success, reader)?.tier == .success, "\(text(success))")
            #expect(lines.invalid.count >= 3)
            for line in lines.invalid {
                if case .line = Self.read(line, reader) { Issue.record("read as a line: \(text(line))") }
            }
        }
    }

    @Test("the sample of an example catalog classifies with that catalog: the mix, and no line of another shape")
    func mix() throws {
        let catalog = "catalog/examples/stripe.json"
        let sample = try ErrcatRunner.run(["sample", "20000", "--seed", "9", "--catalog", catalog])
        #expect(sample.status == 0, "\(sample.errors)")
        #expect(sample.lines.filter { $0.hasPrefix("{") }.allSatisfy { !$0.contains("\"ret\"") })
        let summary = try ErrcatRunner.run(["classify", "--json", "--catalog", catalog], stdin: sample.stdout)
            .jsonObject()
        let tiers = try #require(summary["tiers"] as? [String: Int])
        #expect(tiers["success"]! > 12_000)
        #expect(tiers["base"]! > 1_000)
        #expect(tiers["unknown"]! > 100)
        let invalid = try #require(summary["invalid"] as? Int)
        #expect(invalid > 10 && invalid < 1_000)
        let again = try ErrcatRunner.run(["sample", "20000", "--seed", "9", "--catalog", catalog])
        #expect(again.stdout == sample.stdout, "the same seed, the same lines")
    }

    @Test(
        "--shape names the shape; a name the catalog lacks, --keys with shapes, and --shape with codes are usage errors"
    )
    func options() throws {
        let fixture = "Tests/Fixtures/\(ShapeCorpusTests.catalogFixture)"
        let definition = try CatalogDefinition(json: try RepositoryBytes.read(fixture))
        let names = definition.shapes.filter { $0.kind == .json }.map(\.name)
        #expect(names.count >= 2)
        let first = try ErrcatRunner.run(["sample", "300", "--catalog", fixture])
        let named = try ErrcatRunner.run(["sample", "300", "--catalog", fixture, "--shape", names[0]])
        let other = try ErrcatRunner.run(["sample", "300", "--catalog", fixture, "--shape", names[1]])
        #expect(first.status == 0 && named.status == 0 && other.status == 0)
        #expect(first.stdout == named.stdout, "the first JSON shape by default")
        #expect(other.stdout != first.stdout)
        let missing = try ErrcatRunner.run(["sample", "3", "--catalog", fixture, "--shape", "nope"])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("--shape \"nope\" names no JSON shape of the catalog"))
        let keys = try ErrcatRunner.run(["sample", "3", "--catalog", fixture, "--keys", "code"])
        #expect(keys.status == 2)
        #expect(keys.errors.contains("--keys cannot be used with a catalog's shapes"))
        let codes = try ErrcatRunner.run([
            "sample", "3", "--format", "codes", "--shape", names[0], "--catalog", fixture,
        ])
        #expect(codes.status == 2)
        let plain = try ErrcatRunner.run(["sample", "3", "--format", "codes", "--catalog", fixture])
        #expect(plain.status == 0 && plain.lines.count == 3)
    }
}
