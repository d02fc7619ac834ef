// Corpora of bodies in catalogs' shapes (the test fixture and the example catalogs of real APIs in
// catalog/examples), the same outcomes three ways: errcat classify --each --json reads each line and
// names the (namespace, string) pair it looked up; the C string table that errcat gen c writes and
// the catalog that gen swift --installing writes, each compiled into a program, classify those
// pairs; all three must agree, line by line, with the catalog file.

import Foundation
import Testing

@testable import ErrcatKit
@testable import SwiftErr
@testable import SwiftErrCatalogFile

@Suite("classify in shapes: errcat, generated C and generated Swift agree on a corpus")
struct ShapeCorpusTests {
    static let catalogFixture = "shapes-catalog.json"
    static let corpusFixture = "shapes-corpus.jsonl"
    /// Each catalog with its corpus, as repository paths.
    static let corpora: [(catalog: String, corpus: String)] = [
        ("Tests/Fixtures/shapes-catalog.json", "Tests/Fixtures/shapes-corpus.jsonl"),
        ("catalog/examples/google.json", "catalog/examples/google.jsonl"),
        ("catalog/examples/slack.json", "catalog/examples/slack.jsonl"),
        ("catalog/examples/stripe.json", "catalog/examples/stripe.jsonl"),
        ("catalog/examples/problem-details.json", "catalog/examples/problem-details.jsonl"),
    ]

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The rows of `errcat classify --each --json` over a corpus, by line number.
    static func rows(
        catalog: String = "Tests/Fixtures/\(catalogFixture)", corpus: String = "Tests/Fixtures/\(corpusFixture)"
    ) throws -> [Int: [String: Any]] {
        let result = try ErrcatRunner.run([
            "classify", "--catalog", catalog, "--each", "--json", "--jobs", "1", "--quiet", corpus,
        ])
        #expect(result.status == 0, "\(result.errors)")
        var rows: [Int: [String: Any]] = [:]
        for object in try result.jsonLines() { rows[object["line"] as! Int] = object }
        return rows
    }

    @Test(
        "every pair errcat looked up classifies the same in generated C and generated Swift as errcat says",
        .enabled(if: GenerateTests.compiler != nil && GeneratedSourceToolchain.swiftUnavailable == nil),
        arguments: corpora.map(\.catalog))
    func threeWays(catalogPath: String) async throws {
        let corpusPath = try #require(Self.corpora.first { $0.catalog == catalogPath }).corpus
        let rows = try Self.rows(catalog: catalogPath, corpus: corpusPath)
        let lineCount =
            String(decoding: try RepositoryBytes.read(corpusPath), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(rows.count == lineCount)
        let catalogBytes = try RepositoryBytes.read(catalogPath)
        let definition = try CatalogDefinition(json: catalogBytes)
        let catalog = try Catalog(definition)
        let symbol = CLiteral.identifier(definition.name)
        let catalogType = GeneratedNames.catalogTypeName(catalog: definition.name)
        // The pairs errcat names, and what errcat says of each.
        let pairs = rows.keys.sorted().compactMap { line -> (line: Int, namespace: [UInt8], string: [UInt8])? in
            guard let string = rows[line]?["string"] as? String, let namespace = rows[line]?["namespace"] as? String
            else { return nil }
            return (line, Array(namespace.utf8), Array(string.utf8))
        }
        #expect(pairs.count >= 5)
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalogFile = directory.appendingPathComponent("catalog.json")
        try Data(catalogBytes).write(to: catalogFile)

        // C: the generated string table.
        let source = directory.appendingPathComponent("catalog.c")
        let header = directory.appendingPathComponent("catalog.h")
        #expect(
            try ErrcatRunner.run(["gen", "c", catalogFile.path, "--output", source.path, "--header", header.path])
                .status
                == 0)
        let cMain = directory.appendingPathComponent("main.c")
        try Data(
            """
            #include <stdio.h>
            #include <stdlib.h>
            #include "catalog.h"
            static size_t unhex(const char *text, unsigned char *out) {
                size_t n = 0;
                for (; text[0] && text[1]; text += 2) {
                    char pair[3] = {text[0], text[1], 0};
                    out[n++] = (unsigned char)strtoul(pair, NULL, 16);
                }
                return n;
            }
            int main(void) {
                static char space[1 << 18], code[1 << 18];
                static unsigned char spaceBytes[1 << 17], codeBytes[1 << 17];
                while (scanf("%262143s %262143s", space, code) == 2) {
                    size_t spaceLength = space[0] == '-' ? 0 : unhex(space, spaceBytes);
                    size_t codeLength = unhex(code, codeBytes);
                    errcore_class c = errcore_classify_string(errcore_\(symbol)_strings(), (const char *)spaceBytes, spaceLength,
                                                              (const char *)codeBytes, codeLength);
                    printf("%llu\\n", (unsigned long long)c);
                }
                return 0;
            }

            """.utf8
        ).write(to: cMain)
        let cBinary = directory.appendingPathComponent("c-pairs")
        let compile = try await GeneratedSourceToolchain.compileC(
            try #require(GenerateTests.compiler), sources: [source, cMain], binary: cBinary, in: directory)
        try #require(compile.status == 0, "\(compile.errors)")

        // Swift: the generated catalog, installed as the process-wide catalog.
        let generated = directory.appendingPathComponent("\(catalogType).swift")
        #expect(
            try ErrcatRunner.run(["gen", "swift", "--installing", catalogFile.path, "--output", generated.path]).status
                == 0)
        let swiftMain = directory.appendingPathComponent("main.swift")
        try Data(
            """
            import SwiftErr
            func unhex(_ text: Substring) -> [UInt8] {
                var bytes: [UInt8] = []
                var index = text.startIndex
                while index < text.endIndex {
                    let next = text.index(index, offsetBy: 2)
                    bytes.append(UInt8(text[index..<next], radix: 16)!)
                    index = next
                }
                return bytes
            }
            let catalog = try \(catalogType).install()
            while let line = readLine() {
                let parts = line.split(separator: " ", omittingEmptySubsequences: false)
                let namespace = String(decoding: parts[0] == "-" ? [] : unhex(parts[0]), as: UTF8.self)
                let code = String(decoding: unhex(parts[1]), as: UTF8.self)
                print(catalog.classify(string: code, namespace: namespace).rawValue)
            }

            """.utf8
        ).write(to: swiftMain)
        let swiftBinary = directory.appendingPathComponent("swift-pairs")
        let build = try await GeneratedSourceToolchain.buildSwift(
            [generated, swiftMain], binary: swiftBinary, in: directory)
        try #require(build.succeeded, "\(build.errors)")

        // An empty namespace is written as "-" (scanf and split need a word).
        let words = pairs.map { "\($0.namespace.isEmpty ? "-" : Self.hex($0.namespace)) \(Self.hex($0.string))\n" }
            .joined()
        try Data(words.utf8).write(to: directory.appendingPathComponent("pairs.txt"))
        let cRun = try await GeneratedSourceToolchain.run(
            "/bin/sh", ["-c", "\"$0\" < pairs.txt", cBinary.path], in: directory)
        let swiftRun = try await GeneratedSourceToolchain.run(
            "/bin/sh", ["-c", "\"$0\" < pairs.txt", swiftBinary.path], in: directory)
        #expect(cRun.status == 0 && swiftRun.status == 0, "\(cRun.errors)\(swiftRun.errors)")
        let cClasses = cRun.output.split(separator: "\n").map { UInt64($0)! }
        let swiftClasses = swiftRun.output.split(separator: "\n").map { UInt64($0)! }
        #expect(cClasses.count == pairs.count)
        #expect(swiftClasses == cClasses)
        for (pair, raw) in zip(pairs, cClasses) {
            let classification = Classification(rawValue: raw)
            let row = try #require(rows[pair.line])
            #expect(row["tier"] as? String == classification.tier.name, "line \(pair.line)")
            #expect(
                row["code"] as? Int64 == classification.entryIndex.flatMap { catalog.code(at: $0) }, "line \(pair.line)"
            )
            let module = classification.moduleID == 0 ? nil : catalog.moduleName(classification.moduleID)
            #expect(row["module"] as? String == module, "line \(pair.line)")
        }
    }

    @Test("in process, each line read in the catalog's shapes gives the shape and pair errcat names")
    func readerAgrees() throws {
        let rows = try Self.rows()
        let definition = try CatalogDefinition(json: Array(ErrcatRunner.fixture(Self.catalogFixture)))
        let reader = try #require(ShapeLineReader(catalog: try Catalog(definition), only: nil))
        let lines = String(decoding: try ErrcatRunner.fixture(Self.corpusFixture), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for (index, line) in lines.enumerated() {
            let row = try #require(rows[index + 1])
            switch Array(line.utf8).withUnsafeBytes({ reader.read($0) }) {
            case .problem(let problem):
                #expect(row["error"] as? String == problem.description, "line \(index + 1)")
            case .line(let read):
                #expect(row["shape"] as? String == read.shape, "line \(index + 1)")
                #expect(row["string"] as? String == read.stringKey.map { String(decoding: $0.string, as: UTF8.self) })
            }
        }
        // Spot checks against the catalog file itself.
        #expect(rows[1]?["code"] as? Int == 101)
        #expect(rows[4]?["code"] as? Int == 1, "escaped keys and values read as their text")
        #expect(rows[13]?["code"] as? Int == 101, "a Problem Details type read by its namespace prefix")
        #expect((rows[15]?["error"] as? String)?.hasPrefix("ambiguous: shapes \"stripe\" and \"aip\"") == true)
        #expect(rows[17]?["tier"] as? String == "unknown", "a string code longer than 65,535 bytes")
        #expect(rows[17]?["shape"] as? String == "slack")
        #expect(rows[18]?["shape"] as? String == "aip", "a code of the wrong kind for one shape, a failure in another")
    }

    @Test("a code found where else it may be, and a failure's default code, with the shape that gave them")
    func fallbackAndDefaultCodes() throws {
        var definition = try CatalogDefinition(json: Array(ErrcatRunner.fixture(Self.catalogFixture)))
        let slack = try #require(definition.shapes.firstIndex { $0.name == "slack" })
        definition.shapes[slack].defaultCode = .string("invalid_auth")
        let catalog = try Catalog(definition)
        let reader = try #require(ShapeLineReader(catalog: catalog, only: nil))
        func read(_ line: String) -> (shape: String?, string: String?, code: Int64?)? {
            guard case .line(let read) = Array(line.utf8).withUnsafeBytes({ reader.read($0) }) else { return nil }
            return (
                read.shape, read.stringKey.map { String(decoding: $0.string, as: UTF8.self) },
                read.classification.entryIndex.flatMap { catalog.code(at: $0) }
            )
        }
        // AIP-193 without an ErrorInfo: the status, the fixture's fallback, in the catalog's own namespace.
        let status = read(#"{"error": {"code": 401, "status": "invalid_auth"}}"#)
        #expect(status?.shape == "aip" && status?.string == "invalid_auth" && status?.code == 1)
        // Slack's failure without "error": the shape's default code.
        let defaulted = read(#"{"ok": false}"#)
        #expect(defaulted?.shape == "slack" && defaulted?.string == "invalid_auth" && defaulted?.code == 1)
        // A success reads no default.
        #expect(read(#"{"ok": true}"#)?.code == 0)
    }

    @Test("the summary counts string codes without an entry by tier and module, as untracked")
    func summary() throws {
        let result = try ErrcatRunner.run([
            "classify", "--catalog", "Tests/Fixtures/\(Self.catalogFixture)", "--json", "--quiet",
            "Tests/Fixtures/\(Self.corpusFixture)",
        ])
        let summary = try result.jsonObject()
        #expect(summary["total"] as? Int == 19)
        #expect(summary["invalid"] as? Int == 3)
        let reasons = try #require(summary["invalidReasons"] as? [String: Int])
        #expect(reasons["ambiguous shape"] == 1 && reasons["empty line"] == 1 && reasons["malformed JSON"] == 1)
        let tiers = try #require(summary["tiers"] as? [String: Int])
        #expect(tiers.values.reduce(0, +) == 16)
        // Uncoded: expired_card, LIMIT (card, unrecognised); api_error, channel_not_found, X, problem URI,
        // é, the long code, the failure without a code (unknown).
        #expect(summary["untracked"] as? Int == 9)
        #expect((summary["unrecognised"] as? [String: Int])?["card"] == 2)
    }
}
