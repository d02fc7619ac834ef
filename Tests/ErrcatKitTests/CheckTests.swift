// `errcat check`: every problem of a catalog file reported with its line and column.

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
        let problems = result.lines.filter { $0.contains(": error: ") }
        for (line, text) in CheckTests.expectedProblems {
            let matching = problems.filter { $0.hasPrefix("\(file.path):\(line):") && $0.contains(text) }
            #expect(matching.count == 1, "line \(line): \(text)\n\(result.output)")
        }
        #expect(problems.count == CheckTests.expectedProblems.count, "\(result.output)")
        #expect(result.output.contains("\(CheckTests.expectedProblems.count) problems"))
    }

    @Test("a duplicate names the other entry's place")
    func relatedLocation() throws {
        let file = try ErrcatRunner.temporaryFile(Data(CheckTests.broken.utf8), name: "broken.json")
        let result = try ErrcatRunner.run(["check", file.path])
        let duplicate = try #require(result.lines.first { $0.contains("base entry \"again\" repeats") })
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
        #expect(result.output.hasPrefix("\(file.path):\(line):\(column): error: invalid JSON"), "\(result.output)")
    }

    @Test("invalid UTF-8 in a string is bad JSON")
    func invalidUTF8() throws {
        let bytes = Data("{\"name\": \"".utf8) + Data([0xC3, 0x28]) + Data("\"}".utf8)
        let file = try ErrcatRunner.temporaryFile(bytes, name: "utf8.json")
        let result = try ErrcatRunner.run(["check", file.path])
        #expect(result.status == 1)
        #expect(result.output.contains(":1:11: error: invalid JSON: invalid UTF-8 in a string"), "\(result.output)")
    }

    @Test("an empty or missing file is a problem, not a crash")
    func emptyAndMissing() throws {
        let empty = try ErrcatRunner.temporaryFile(Data(), name: "empty.json")
        let result = try ErrcatRunner.run(["check", empty.path, "/nonexistent/catalog.json"])
        #expect(result.status == 1)
        #expect(result.output.contains("\(empty.path):1:1: error: invalid JSON: the file contains no JSON value"))
        #expect(result.output.contains("/nonexistent/catalog.json: error: cannot read: No such file or directory"))
    }

    @Test("the small fixture catalog is valid")
    func smallFixture() throws {
        let file = try ErrcatRunner.temporaryFile(try ErrcatRunner.fixture("small-catalog.json"), name: "small.json")
        let result = try ErrcatRunner.run(["check", file.path])
        #expect(result.status == 0, "\(result.output)")
    }
}
