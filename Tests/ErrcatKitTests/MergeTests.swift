// `errcat merge`: summaries of shards add up to the summary of the whole; mixes are refused.

import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

@Suite("errcat merge")
struct MergeTests {
    /// The JSON summary of `input`.
    static func summary(_ input: Data, _ extra: [String] = []) throws -> Data {
        let result = try ErrcatRunner.run(
            ["classify", "--json", "--quiet", "--max-errors", "0"] + extra + ["-"], stdin: input)
        try #require(result.status == 0, "\(result.errors)")
        return result.stdout
    }

    /// `data` split into `parts` pieces at line ends.
    static func shards(_ data: Data, _ parts: Int) -> [Data] {
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        let size = (lines.count + parts - 1) / parts
        return stride(from: 0, to: lines.count, by: size).map { start in
            var shard = Data(lines[start..<min(start + size, lines.count)].joined(separator: [0x0A]))
            if start + size < lines.count { shard.append(0x0A) }
            return shard
        }
    }

    @Test("the merge of shard summaries is the summary of the whole input, byte for byte", arguments: [2, 3, 7])
    func exactSums(parts: Int) throws {
        let sample = try ErrcatRunner.run(["sample", "20000", "--seed", "11"]).stdout
        let whole = try Self.summary(sample)
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (index, shard) in Self.shards(sample, parts).enumerated() {
            let url = directory.appendingPathComponent("shard\(index).json")
            try Self.summary(shard).write(to: url)
            paths.append(url.path)
        }
        let merged = try ErrcatRunner.run(["merge"] + paths)
        #expect(merged.status == 0, "\(merged.errors)")
        #expect(merged.output == String(decoding: whole, as: UTF8.self))
        // A merged summary merges again: ((a + b) + c) is a + b + c.
        let partial = directory.appendingPathComponent("partial.json")
        try ErrcatRunner.run(["merge"] + paths.dropLast()).stdout.write(to: partial)
        let again = try ErrcatRunner.run(["merge", partial.path, paths.last!])
        #expect(again.output == merged.output)
        let text = try ErrcatRunner.run(["merge", "--text"] + paths)
        let wholeText = try ErrcatRunner.run(["classify", "--quiet", "--max-errors", "0", "-"], stdin: sample)
        #expect(text.output == wholeText.output)
    }

    @Test("top codes merge exactly: a code second in each shard can be first in the sum")
    func topCodesExact() throws {
        let a = Data(
            (Array(repeating: "11001", count: 5) + Array(repeating: "11002", count: 4)).joined(separator: "\n").utf8)
        let b = Data(
            (Array(repeating: "11003", count: 5) + Array(repeating: "11002", count: 4)).joined(separator: "\n").utf8)
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pathA = directory.appendingPathComponent("a.json")
        let pathB = directory.appendingPathComponent("b.json")
        try Self.summary(a, ["--top", "1"]).write(to: pathA)
        try Self.summary(b, ["--top", "1"]).write(to: pathB)
        let merged = try ErrcatRunner.run(["merge", "--top", "2", pathA.path, pathB.path]).jsonObject()
        let top = try #require(merged["top"] as? [[String: Any]])
        #expect(top.map { $0["code"] as? Int } == [11002, 11001])
        #expect(top.map { $0["count"] as? Int } == [8, 5])
        #expect(merged["total"] as? Int == 18)
    }

    @Test("summaries of another catalog are refused, naming both catalogs")
    func otherCatalog() throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let builtIn = directory.appendingPathComponent("builtin.json")
        let small = directory.appendingPathComponent("small.json")
        try Self.summary(Data("11001\n0\n".utf8)).write(to: builtIn)
        try Self.summary(Data("11001\n0\n".utf8), ["--catalog", "Tests/Fixtures/small-catalog.json"]).write(to: small)
        let refused = try ErrcatRunner.run(["merge", builtIn.path, small.path])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("small.json:1:"), "\(refused.errors)")
        #expect(refused.errors.contains("made with another catalog"), "\(refused.errors)")
        #expect(refused.output.isEmpty)
        // With the catalog they were made with, those summaries merge.
        let sameCatalog = try ErrcatRunner.run([
            "merge", "--catalog", "Tests/Fixtures/small-catalog.json", small.path, small.path,
        ])
        #expect(sameCatalog.status == 0, "\(sameCatalog.errors)")
        #expect(try sameCatalog.jsonObject()["total"] as? Int == 4)
    }

    @Test("the built-in catalog and catalog/default.json have one identity")
    func identityOfEqualCatalogs() throws {
        let viaFile = try ErrcatRunner.run(
            ["classify", "--json", "--quiet", "--catalog", "catalog/default.json"], lines: ["0"])
        let builtIn = try ErrcatRunner.run(["classify", "--json", "--quiet"], lines: ["0"])
        let fileCatalog = try #require(try viaFile.jsonObject()["catalog"] as? [String: String])
        let builtInCatalog = try #require(try builtIn.jsonObject()["catalog"] as? [String: String])
        #expect(fileCatalog["hash"] == builtInCatalog["hash"])
        #expect(builtInCatalog["hash"]?.hasPrefix("fnv1a64:") == true)
        let other = try ErrcatRunner.run(
            ["classify", "--json", "--quiet", "--catalog", "Tests/Fixtures/small-catalog.json"], lines: ["0"])
        #expect((try other.jsonObject()["catalog"] as? [String: String])?["hash"] != builtInCatalog["hash"])
    }

    @Test(
        "malformed or foreign summaries are refused with line:column and what is wrong",
        arguments: [
            ("{\"schema\":\"errcat-summary/2\"}", "1:11", "schema \"errcat-summary/2\""),
            ("{\n  \"total\": 1", "2:13", "not JSON"),
            ("[]", "1:1", "a summary is a JSON object"),
            ("{\"total\":1}", "1:1", "no \"schema\" member"),
        ])
    func malformed(text: String, location: String, message: String) throws {
        let file = try ErrcatRunner.temporaryFile(Data(text.utf8), name: "bad.json")
        let result = try ErrcatRunner.run(["merge", file.path])
        #expect(result.status == 1)
        #expect(result.errors.contains("bad.json:\(location): "), "\(result.errors)")
        #expect(result.errors.contains(message), "\(result.errors)")
    }

    @Test("a summary whose counts do not add up is refused")
    func inconsistentCounts() throws {
        let good = String(decoding: try Self.summary(Data("11001\n0\n".utf8)), as: UTF8.self)
        for (from, to, message) in [
            ("\"total\":2", "\"total\":3", "\"valid\" + \"invalid\" is not \"total\""),
            ("\"success\":1", "\"success\":2", "the tiers do not add up"),
            ("[0,1]", "[0,2]", "\"codes\" and \"untracked\" do not add up"),
        ] {
            let file = try ErrcatRunner.temporaryFile(Data(good.replacingOccurrences(of: from, with: to).utf8))
            let result = try ErrcatRunner.run(["merge", file.path])
            #expect(result.status == 1)
            #expect(result.errors.contains(message), "\(result.errors)")
        }
    }
}
