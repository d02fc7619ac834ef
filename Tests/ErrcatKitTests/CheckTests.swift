// `errcat check`: every problem of a catalog file reported on stderr with its line and column, the
// list capped, text from the file escaped, files over the size limit refused.

import Foundation
import Testing

@Suite("errcat check")
struct CheckTests {
    @Test("the default catalog is valid")
    func defaultCatalog() throws {
        let result = try ErrcatRunner.run(["check", "catalog/default.json"])
        #expect(result.status == 0)
        #expect(result.output.contains("catalog/default.json: ok"))
        #expect(result.output.contains("32 entries"))
    }

    /// A catalog with one problem of every kind; line numbers are those of this text.
    static let broken = """
        {
          "format": "swifterr-catalog/1",
          "name": "broken",
          "success": {"code": 11010005, "name": "success", "message": {"en": "OK"}},
          "base": [
            {"code": 11001, "name": "tokenExpire", "message": {"en": "a"}},
            {"code": 11001, "name": "again", "message": {"en": "b"}},
            {"code": 11020001, "name": "baseInRange", "message": {"en": "c"}},
            {"code": 11003, "name": "", "message": {"en": "d"}},
            {"code": 11004, "name": "flagged", "flags": ["retry"], "message": {"en": "e"}},
            {"code": 99999999999999999999, "name": "huge", "message": {"en": "f"}},
            {"code": 11006, "name": "noMessage"},
            {"code": 11007, "name": "extra", "message": {"en": "g"}, "colour": "red"}
          ],
          "modules": [
            {"name": "account", "ranges": [[11010000, 11019999]], "codes": [
              {"code": 11029999, "name": "outside", "message": {"en": "h"}},
              {"code": 11001, "name": "crossTier", "message": {"en": "i"}}
            ]},
            {"name": "upload", "ranges": [[11015000, 11029999]], "codes": []},
            {"name": "account", "ranges": [[11090000, 11080000]], "codes": []},
            {"name": "bad name", "ranges": [[1.5, 2]], "codes": []}
          ]
        }
        """

    /// (line, text the message must contain) for each problem of `broken`.
    static let expectedProblems: [(Int, String)] = [
        (4, "the success code 11010005 lies in range [11010000, 11019999] of module \"account\""),
        (7, "duplicate code 11001: base entry \"again\" repeats base entry \"tokenExpire\""),
        (8, "code 11020001 of base entry \"baseInRange\" lies in range [11015000, 11029999] of module \"upload\""),
        (9, "has an empty name"),
        (10, "unknown flag \"retry\""),
        (11, "99999999999999999999 does not fit in a signed 64-bit integer"),
        (12, "has no \"message\""),
        (13, "unknown key \"colour\""),
        (
            17,
            "code 11029999 of module \"account\" entry \"outside\" lies outside every range of module \"account\"; it is in range [11015000, 11029999] of module \"upload\""
        ),
        (18, "code 11001 of module \"account\" entry \"crossTier\" lies outside every range of module \"account\""),
        (18, "duplicate code 11001: module \"account\" entry \"crossTier\" repeats base entry \"tokenExpire\""),
        (
            20,
            "range [11015000, 11029999] of module \"upload\" overlaps range [11010000, 11019999] of module \"account\""
        ),
        (21, "duplicate module name \"account\": module 3 repeats module 1"),
        (21, "range [11090000, 11080000] of module \"account\" is empty"),
        (22, "name \"bad name\" is not an identifier"),
        (22, "must be an integer, found 1.5"),
    ]

    @Test("every problem is reported, each at its line")
    func everyProblem() throws {
        let file = try ErrcatRunner.temporaryFile(Data(CheckTests.broken.utf8), name: "broken.json")
        let result = try ErrcatRunner.run(["check", file.path])
        #expect(result.status == 1)
        #expect(result.output.isEmpty, "problems are diagnostics: stderr only")
        let problems = result.errorLines.filter { $0.contains(": error: ") }
        for (line, text) in CheckTests.expectedProblems {
            let matching = problems.filter { $0.hasPrefix("\(file.path):\(line):") && $0.contains(text) }
            #expect(matching.count == 1, "line \(line): \(text)\n\(result.errors)")
        }
        #expect(problems.count == CheckTests.expectedProblems.count, "\(result.errors)")
        #expect(result.errors.contains("\(CheckTests.expectedProblems.count) problems"))
        let lines = problems.map { line in
            Int(line.dropFirst(file.path.count + 1).prefix { $0 != ":" }) ?? 0
        }
        #expect(lines == lines.sorted(), "problems are listed in file order")
    }

    @Test("a duplicate names the other entry's place")
    func relatedLocation() throws {
        let file = try ErrcatRunner.temporaryFile(Data(CheckTests.broken.utf8), name: "broken.json")
        let result = try ErrcatRunner.run(["check", file.path])
        let duplicate = try #require(result.errorLines.first { $0.contains("base entry \"again\" repeats") })
        #expect(duplicate.hasSuffix("(see \(file.path):6:14)"))
    }

    @Test(
        "bad JSON is reported with its line and column",
        arguments: [
            ("{\n  \"format\": \"swifterr-catalog/1\",\n  \"name\": \"x\",,\n}", 3, 15),
            ("{\n  \"name\": \"unterminated\n}", 2, 24),
            ("{\n  \"a\": [1, 2\n", 3, 1),
            ("\n\n   ", 3, 4),
            ("{\"a\": tru}", 1, 7),
            ("{\"a\": 01}", 1, 7),
            ("{\"a\": \"\\x\"}", 1, 8),
            ("{\"a\": 1} {}", 1, 10),
        ])
    func badJSON(text: String, line: Int, column: Int) throws {
        let file = try ErrcatRunner.temporaryFile(Data(text.utf8), name: "bad.json")
        let result = try ErrcatRunner.run(["check", file.path])
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("\(file.path):\(line):\(column): error: invalid JSON"), "\(result.errors)")
    }

    @Test("invalid UTF-8 in a string is bad JSON")
    func invalidUTF8() throws {
        let bytes = Data("{\"name\": \"".utf8) + Data([0xC3, 0x28]) + Data("\"}".utf8)
        let file = try ErrcatRunner.temporaryFile(bytes, name: "utf8.json")
        let result = try ErrcatRunner.run(["check", file.path])
        #expect(result.status == 1)
        #expect(result.errors.contains(":1:11: error: invalid JSON: invalid UTF-8 in a string"), "\(result.errors)")
    }

    @Test("an empty or missing file is a problem, not a crash")
    func emptyAndMissing() throws {
        let empty = try ErrcatRunner.temporaryFile(Data(), name: "empty.json")
        let result = try ErrcatRunner.run(["check", empty.path, "/nonexistent/catalog.json"])
        #expect(result.status == 1)
        #expect(result.errors.contains("\(empty.path):1:1: error: invalid JSON: the file contains no JSON value"))
        #expect(result.errors.contains("/nonexistent/catalog.json: error: cannot read: No such file or directory"))
    }

    @Test("the small fixture catalog is valid")
    func smallFixture() throws {
        let file = try ErrcatRunner.temporaryFile(try ErrcatRunner.fixture("small-catalog.json"), name: "small.json")
        let result = try ErrcatRunner.run(["check", file.path])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("check escapes control and invisible characters it echoes from the file")
    func escapedEcho() throws {
        let text = """
            {"format": "swifterr-\\u001b[2J", "name": "a\\u001b]0;pwned\\u0007b", "colour\u{202E}": 1,
             "success": {"code": 0, "name": "ok\\r\\nX", "flags": ["\\u001b[31m"], "message": {"en": "x"}}}
            """
        let file = try ErrcatRunner.temporaryFile(Data(text.utf8), name: "echo.json")
        let result = try ErrcatRunner.run(["check", file.path])
        #expect(result.status == 1)
        #expect(!result.stderr.contains(0x1B), "a raw ESC reached the terminal: \(result.errors)")
        #expect(!result.stderr.contains(0x07) && !result.stderr.contains(0x0D))
        #expect(!result.errors.unicodeScalars.contains("\u{202E}"))
        #expect(result.errors.contains("unsupported format \"swifterr-\\u{1B}[2J\""), "\(result.errors)")
        #expect(result.errors.contains("the catalog name \"a\\u{1B}]0;pwned\\u{7}b\" is not an identifier"))
        #expect(result.errors.contains("unknown key \"colour\\u{202E}\""))
        #expect(result.errors.contains("name \"ok\\r\\nX\" is not an identifier"))
        #expect(result.errors.contains("unknown flag \"\\u{1B}[31m\""))
    }

    @Test("problems listed are capped (default 100, --max-problems N) with the count of the rest")
    func problemCap() throws {
        let text = """
            {"format": "swifterr-catalog/1", "name": "many", "success": {"code": 0, "name": "ok", "message": {"en": "x"}},
             "base": [\(Array(repeating: "0", count: 250).joined(separator: ",\n"))]}
            """
        let file = try ErrcatRunner.temporaryFile(Data(text.utf8), name: "many.json")
        let all = try ErrcatRunner.run(["check", file.path])
        #expect(all.status == 1)
        let problems = all.errorLines.filter { $0.contains(": error: ") }
        #expect(problems.count == 100)
        #expect(problems.first?.hasPrefix("\(file.path):2:11: error: a base entry must be an object") == true)
        #expect(problems.last?.hasPrefix("\(file.path):101:1: error: ") == true, "the first 100 in file order")
        #expect(all.errorLines.last == "\(file.path): 250 problems (the first 100 listed; --max-problems N lists more)")
        let five = try ErrcatRunner.run(["check", "--max-problems", "5", file.path])
        #expect(five.errorLines.count == 6)
        let none = try ErrcatRunner.run(["check", "--max-problems", "0", file.path])
        #expect(none.errorLines == ["\(file.path): 250 problems (none listed: --max-problems 0)"])
        let every = try ErrcatRunner.run(["check", "--max-problems", "1K", file.path])
        #expect(every.errorLines.count == 251)
        #expect(every.errorLines.last == "\(file.path): 250 problems")
        let usage = try ErrcatRunner.run(["check", "--max-problems", "lots", file.path])
        #expect(usage.status == 2)
    }

    @Test("a catalog file over 64 MiB is refused before it is read; one of exactly 64 MiB is read")
    func sizeLimit() throws {
        let directory = try ErrcatRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let limit = 64 << 20
        for (size, tooLarge) in [(limit + 1, true), (limit, false)] {
            // Sparse files: no 64 MiB written to disk.
            let file = directory.appendingPathComponent("size-\(size).json")
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
            let result = try ErrcatRunner.run(["check", file.path])
            #expect(result.status == 1)
            if tooLarge {
                #expect(
                    result.errors
                        == "\(file.path): error: cannot read: larger than 64 MiB (67,108,864 bytes), the limit for a catalog file\n"
                )
            } else {
                #expect(result.errors.contains("\(file.path):1:1: error: invalid JSON"), "\(result.errors)")
            }
        }
    }
}
