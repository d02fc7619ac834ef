// `errcat classify`: hostile lines, summaries checked against the library, streaming edge cases.

import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

@Suite("errcat classify")
struct ClassifyTests {
    /// Hostile lines and the reason each must give.
    static let hostile: [(line: String, reason: String)] = [
        ("abc", "neither an integer code nor a JSON envelope"),
        ("{}", "no code member \"ret\""),
        ("{\"ret\":\"11001\"}", "code member \"ret\" is a string"),
        ("{\"ret\":1.5}", "not an integer"),
        ("{\"ret\":99999999999999999999}", "outside the 64-bit integer range"),
        ("{\"ret\":null}", "not an integer"),
        ("{\"ret\":true}", "not an integer"),
        ("{\"ret\":11001", "malformed JSON"),
        ("{\"ret\":11001,\"ret\":11002}", "appears twice"),
        ("[11001]", "neither an integer code nor a JSON envelope"),
        ("99999999999999999999", "outside the signed 64-bit integer range"),
        ("-9223372036854775809", "outside the signed 64-bit integer range"),
        ("1.5", "fraction or exponent"),
        ("11001abc", "neither an integer code nor a JSON envelope"),
        ("", "empty line"),
        ("   ", "empty line"),
    ]

    @Test("a hostile line is reported with its line number and reason", arguments: hostile)
    func hostileLine(line: String, reason: String) throws {
        let result = try ErrcatRunner.run(["classify", "--each", "--json"], lines: ["11001", line, "0"])
        #expect(result.status == 0)
        let objects = try result.jsonLines()
        try #require(objects.count == 3, "\(result.output)")
        #expect(objects[0]["name"] as? String == "tokenExpire")
        #expect(objects[1]["line"] as? Int == 2)
        let error = try #require(objects[1]["error"] as? String)
        #expect(error.contains(reason), "\(error)")
        #expect(objects[2]["tier"] as? String == "success")
        #expect(objects[2]["line"] as? Int == 3)
        #expect(result.errors.contains("line 2: "), "\(result.errors)")
        // The summary of the same input counts it as invalid.
        let summary = try ErrcatRunner.run(["classify", "--json"], lines: ["11001", line, "0"]).jsonObject()
        #expect(summary["total"] as? Int == 3)
        #expect(summary["invalid"] as? Int == 1)
    }

    @Test("invalid UTF-8 is an invalid line, never a crash")
    func invalidUTF8() throws {
        var input = Data("11001\n".utf8)
        input += Data([0xFF, 0xFE, 0x0A])
        input += Data("{\"ret\":11002,\"msg\":\"".utf8) + Data([0xC3, 0x28]) + Data("\"}\n".utf8)
        input += Data("{\"ret\":11003,\"msg\":\"caf\u{e9}\"}\n".utf8)
        let result = try ErrcatRunner.run(["classify", "--each", "--json"], stdin: input)
        #expect(result.status == 0)
        let objects = try result.jsonLines()
        try #require(objects.count == 4)
        #expect(objects[1]["error"] as? String == "neither an integer code nor a JSON envelope")
        #expect((objects[2]["error"] as? String)?.contains("invalid UTF-8") == true)
        #expect(objects[3]["name"] as? String == "verifyCodeIncorrect")
    }

    @Test("an empty file has no lines")
    func emptyFile() throws {
        let file = try ErrcatRunner.temporaryFile(Data(), name: "empty.jsonl")
        let result = try ErrcatRunner.run(["classify", "--json", file.path])
        #expect(result.status == 0)
        let summary = try result.jsonObject()
        #expect(summary["total"] as? Int == 0)
        #expect(summary["invalid"] as? Int == 0)
        #expect(summary["tiers"] as? [String: Int] == ["success": 0, "base": 0, "module": 0, "unknown": 0])
        let each = try ErrcatRunner.run(["classify", "--each", file.path])
        #expect(each.status == 0)
        #expect(each.output.isEmpty)
    }

    @Test("a 1 MB line is classified; with a smaller --max-line-bytes it is reported as too long")
    func megabyteLine() throws {
        let big = "{\"ret\":11210005,\"msg\":\"" + String(repeating: "x", count: 1 << 20) + "\",\"data\":null}"
        let lines = ["0", big, "11001"]
        let result = try ErrcatRunner.run(["classify", "--each", "--json"], lines: lines)
        #expect(result.status == 0)
        let objects = try result.jsonLines()
        try #require(objects.count == 3)
        #expect(objects[1]["name"] as? String == "wrongTeamCode")
        #expect(objects[2]["line"] as? Int == 3)

        let limited = try ErrcatRunner.run(["classify", "--each", "--json", "--max-line-bytes", "1000"], lines: lines)
        let limitedObjects = try limited.jsonLines()
        try #require(limitedObjects.count == 3)
        #expect((limitedObjects[1]["error"] as? String)?.contains("longer than the limit of 1000 bytes") == true)
        #expect(limitedObjects[2]["name"] as? String == "tokenExpire")
        #expect(limitedObjects[2]["line"] as? Int == 3)
    }

    @Test("2^32 + 11001, negative codes and the Int64 extremes are unknown, not truncated")
    func wideCodes() throws {
        let codes = ["4294978297", "-11001", "-1", "-9223372036854775808", "9223372036854775807", "+11001"]
        let result = try ErrcatRunner.run(["classify", "--each", "--json", "--format", "codes"], lines: codes)
        let objects = try result.jsonLines()
        try #require(objects.count == codes.count)
        #expect(objects.prefix(5).map { $0["tier"] as? String } == Array(repeating: "unknown", count: 5))
        #expect((objects[3]["code"] as? NSNumber)?.int64Value == Int64.min)
        #expect((objects[4]["code"] as? NSNumber)?.int64Value == Int64.max)
        #expect(objects[5]["name"] as? String == "tokenExpire")
    }

    @Test("the summary agrees with Catalog.builtIn over a sample (differential)", arguments: [UInt64(7), 12345])
    func summaryDifferential(seed: UInt64) throws {
        let sample = try ErrcatRunner.run(["sample", "30000", "--seed", String(seed), "--format", "codes"])
        #expect(sample.status == 0)
        // Reference: parse and classify each line in the test with the library, one by one.
        let table = Catalog.builtIn
        var tiers: [String: Int] = ["success": 0, "base": 0, "module": 0, "unknown": 0]
        var modules: [String: Int] = [:]
        var unrecognised: [String: Int] = [:]
        for id in 1...table.moduleCount {
            modules[table.moduleName(UInt16(id))!] = 0
            unrecognised[table.moduleName(UInt16(id))!] = 0
        }
        var invalid = 0
        var counts: [Int64: Int] = [:]
        for line in sample.lines {
            guard let code = Int64(line) else {
                invalid += 1
                continue
            }
            let classification = table.classify(code)
            tiers[classification.tier.name]! += 1
            counts[code, default: 0] += 1
            if classification.tier == .module, let name = table.moduleName(classification.moduleID) {
                modules[name]! += 1
                if !classification.isExact { unrecognised[name]! += 1 }
            }
        }
        let summary = try ErrcatRunner.run(["classify", "--json", "--top", "5", "-"], stdin: sample.stdout).jsonObject()
        #expect(summary["total"] as? Int == sample.lines.count)
        #expect(summary["invalid"] as? Int == invalid)
        #expect(summary["valid"] as? Int == sample.lines.count - invalid)
        #expect(summary["tiers"] as? [String: Int] == tiers)
        #expect(summary["modules"] as? [String: Int] == modules)
        #expect(summary["unrecognised"] as? [String: Int] == unrecognised)
        let top = try #require(summary["top"] as? [[String: Any]])
        let expectedTop = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(5)
        #expect(top.map { ($0["code"] as? NSNumber)?.int64Value } == expectedTop.map { $0.key })
        #expect(top.map { $0["count"] as? Int } == expectedTop.map { $0.value })
        #expect(invalid > 0 && tiers.values.allSatisfy { $0 > 0 })
    }

    @Test("JSONL and code-per-line samples of the same seed give the same tiers")
    func envelopesMatchCodes() throws {
        let envelopes = try ErrcatRunner.run(["sample", "20000", "--seed", "3"])
        let codes = try ErrcatRunner.run(["sample", "20000", "--seed", "3", "--format", "codes"])
        let fromEnvelopes = try ErrcatRunner.run(["classify", "--json"], stdin: envelopes.stdout).jsonObject()
        let fromCodes = try ErrcatRunner.run(["classify", "--json"], stdin: codes.stdout).jsonObject()
        #expect(fromEnvelopes["tiers"] as? [String: Int] == fromCodes["tiers"] as? [String: Int])
        #expect(fromEnvelopes["modules"] as? [String: Int] == fromCodes["modules"] as? [String: Int])
        #expect(fromEnvelopes["invalid"] as? Int == fromCodes["invalid"] as? Int)
    }

    @Test("a file and standard input give the same result; CRLF and blanks around codes are accepted")
    func fileAndStdin() throws {
        let input = Data(
            "11001\r\n  11210005 \t\n{\"ret\":0,\"msg\":\"OK\",\"data\":{\"id\":[1,2,{\"x\":null}]}}\r\n11219999".utf8)
        let file = try ErrcatRunner.temporaryFile(input, name: "mixed.jsonl")
        let fromFile = try ErrcatRunner.run(["classify", "--each", "--json", file.path])
        let fromStdin = try ErrcatRunner.run(["classify", "--each", "--json", "-"], stdin: input)
        #expect(fromFile.stdout == fromStdin.stdout)
        let objects = try fromFile.jsonLines()
        #expect(objects.map { $0["name"] as? String } == ["tokenExpire", "wrongTeamCode", "success", nil])
        #expect(objects.map { $0["line"] as? Int } == [1, 2, 3, 4])
        #expect(objects[3]["module"] as? String == "studyGroup")
    }

    @Test("--format codes refuses envelopes and --format jsonl refuses bare codes")
    func strictFormats() throws {
        let lines = ["11001", "{\"ret\":11002}"]
        let codes = try ErrcatRunner.run(["classify", "--each", "--json", "--format", "codes"], lines: lines)
            .jsonLines()
        #expect(codes[0]["name"] as? String == "tokenExpire")
        #expect(codes[1]["error"] as? String == "neither an integer code nor a JSON envelope")
        let envelopes = try ErrcatRunner.run(["classify", "--each", "--json", "--format", "jsonl"], lines: lines)
            .jsonLines()
        #expect((envelopes[0]["error"] as? String)?.contains("not an object") == true)
        #expect(envelopes[1]["name"] as? String == "verifyCodeExpire")
    }

    @Test("envelope keys: --keys code and --code-key")
    func keys() throws {
        let lines = ["{\"code\":11001,\"message\":\"m\",\"data\":null}", "{\"status\":11002,\"msg\":\"m\"}"]
        let preset = try ErrcatRunner.run(["classify", "--each", "--json", "--keys", "code"], lines: lines).jsonLines()
        #expect(preset[0]["name"] as? String == "tokenExpire")
        #expect((preset[1]["error"] as? String)?.contains("no code member \"code\"") == true)
        let custom = try ErrcatRunner.run(["classify", "--each", "--json", "--code-key", "status"], lines: lines)
            .jsonLines()
        #expect((custom[0]["error"] as? String)?.contains("no code member \"status\"") == true)
        #expect(custom[1]["name"] as? String == "verifyCodeExpire")
        let message = try ErrcatRunner.run(["classify", "--each", "--json"], lines: ["{\"ret\":11001,\"msg\":42}"])
            .jsonLines()
        #expect((message[0]["error"] as? String)?.contains("message member \"msg\"") == true)
    }

    @Test("--strict exits 1 when a line is invalid; --max-errors limits stderr reports")
    func strictAndMaxErrors() throws {
        let lines = ["abc", "def", "ghi", "11001"]
        let strict = try ErrcatRunner.run(["classify", "--strict", "--max-errors", "2"], lines: lines)
        #expect(strict.status == 1)
        #expect(strict.errors.contains("line 1: "))
        #expect(strict.errors.contains("line 2: "))
        #expect(!strict.errors.contains("line 3: "))
        #expect(strict.errors.contains("3 invalid lines (first 2 shown)"))
        let clean = try ErrcatRunner.run(["classify", "--strict"], lines: ["11001", "0"])
        #expect(clean.status == 0)
    }

    @Test("throughput is reported on stderr, not stdout; --quiet drops it")
    func throughput() throws {
        let result = try ErrcatRunner.run(["classify", "--json"], lines: ["0", "11001"])
        #expect(result.errors.contains("2 lines in "))
        #expect(result.errors.contains("lines/s"))
        _ = try result.jsonObject()
        let quiet = try ErrcatRunner.run(["classify", "--json", "--quiet"], lines: ["0"])
        #expect(quiet.errors.isEmpty)
    }

    @Test("the text summary names tiers, modules and top codes with messages")
    func textSummary() throws {
        let result = try ErrcatRunner.run(["classify"], lines: ["11001", "11001", "11210005", "4294978297", "oops"])
        #expect(result.status == 0)
        let text = result.output
        #expect(text.contains("lines               5"))
        #expect(text.contains("invalid             1"))
        #expect(text.contains("studyGroup"))
        #expect(text.contains("Your session has expired. Please sign in again."))
        #expect(text.contains("Unknown response code 4294978297"))
    }

    @Test("a missing file exits 1 with the reason")
    func missingFile() throws {
        let result = try ErrcatRunner.run(["classify", "/nonexistent/responses.jsonl"])
        #expect(result.status == 1)
        #expect(result.errors.contains("/nonexistent/responses.jsonl: No such file or directory"))
    }

    @Test("the example response file classifies with every tier present")
    func exampleFile() throws {
        let result = try ErrcatRunner.run(["classify", "--json", "Examples/responses.jsonl"])
        #expect(result.status == 0)
        let summary = try result.jsonObject()
        let tiers = try #require(summary["tiers"] as? [String: Int])
        #expect(tiers.values.allSatisfy { $0 > 0 })
        #expect((summary["invalid"] as? Int ?? 0) > 0)
    }
}
