// `errcat explain`: text and JSON output, checked against the SwiftErr library's classification.

import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

@Suite("errcat explain")
struct ExplainTests {
    /// (code, tier, module, name, flags) expected from the default catalog.
    static let expectations: [(String, String, String?, String?, [String])] = [
        ("0", "success", nil, "success", []),
        ("11001", "base", nil, "tokenExpire", ["reauthenticate", "showUser"]),
        ("11011", "base", nil, "overVerifyCode", ["showUser"]),
        ("11210005", "module", "studyGroup", "wrongTeamCode", ["showUser"]),
        ("11020005", "module", "upload", "uploadRepeate", ["showUser"]),
        ("11219999", "module", "studyGroup", nil, []),
        ("11010000", "module", "account", nil, []),
        ("4294978297", "unknown", nil, nil, []),
        ("-99999", "unknown", nil, nil, []),
        ("-1", "unknown", nil, nil, []),
        ("-9223372036854775808", "unknown", nil, nil, []),
        ("9223372036854775807", "unknown", nil, nil, []),
        ("11000", "unknown", nil, nil, []),
    ]

    @Test("explain --json gives code, tier, module, name, message and flags", arguments: expectations)
    func json(code: String, tier: String, module: String?, name: String?, flags: [String]) throws {
        let result = try ErrcatRunner.run(["explain", "--json", code])
        #expect(result.status == 0)
        let object = try #require(try result.jsonLines().first)
        #expect((object["code"] as? NSNumber)?.int64Value == Int64(code))
        #expect(object["tier"] as? String == tier)
        #expect(object["module"] as? String == module)
        if module != nil || tier == "unknown" { #expect(object["module"] != nil) }
        #expect(object["name"] as? String == name)
        #expect(object["flags"] as? [String] == flags)
        let message = try #require(object["message"] as? String)
        #expect(message == Catalog.builtIn.describe(Int64(code)!, in: .english))
    }

    @Test("JSON for many codes agrees with Catalog.builtIn (differential)")
    func agreesWithLibrary() throws {
        let table = Catalog.builtIn
        var codes: [Int64] = [0, 1, -1, Int64.min, Int64.max, 4_294_978_297, 11001 + (1 << 32)]
        for entry in table.definition.base { codes += [entry.code, entry.code + 1] }
        for module in table.definition.modules {
            for range in module.ranges {
                codes += [range.lowerBound - 1, range.lowerBound, range.upperBound, range.upperBound + 1]
            }
            for entry in module.codes { codes.append(entry.code) }
        }
        let result = try ErrcatRunner.run(["explain", "--json"] + codes.map(String.init))
        #expect(result.status == 0)
        let objects = try result.jsonLines()
        try #require(objects.count == codes.count)
        for (code, object) in zip(codes, objects) {
            let classification = table.classify(code)
            #expect((object["code"] as? NSNumber)?.int64Value == code)
            #expect(object["tier"] as? String == classification.tier.name, "code \(code)")
            let module = classification.moduleID == 0 ? nil : table.moduleName(classification.moduleID)
            #expect(object["module"] as? String == module, "code \(code)")
            #expect(
                object["name"] as? String == classification.entryIndex.flatMap { table.entryName(at: $0) },
                "code \(code)")
            #expect(object["flags"] as? [String] == classification.flags.names, "code \(code)")
            #expect(object["exact"] as? Bool == classification.isExact, "code \(code)")
        }
    }

    @Test("README example: explain 11001 11210005 4294978297")
    func readmeExample() throws {
        let result = try ErrcatRunner.run(["explain", "11001", "11210005", "4294978297"])
        #expect(result.status == 0)
        #expect(
            result.lines == [
                "11001: base tokenExpire [reauthenticate, showUser]",
                "  Your session has expired. Please sign in again.",
                "11210005: module studyGroup.wrongTeamCode [showUser]",
                "  The class code is wrong.",
                "4294978297: unknown",
                "  Unknown response code 4294978297",
            ])
    }

    @Test("--lang zh-Hans gives the Chinese message")
    func chinese() throws {
        let result = try ErrcatRunner.run(["explain", "--json", "--lang", "zh-Hans", "11001"])
        let object = try #require(try result.jsonLines().first)
        #expect(object["message"] as? String == "登录已过期,请重新登录。")
    }

    @Test(
        "a code that is not a 64-bit integer is an input error; the others are still explained",
        arguments: ["abc", "99999999999999999999", "-9223372036854775809", "1.5", "11001x", ""])
    func badCode(argument: String) throws {
        let result = try ErrcatRunner.run(["explain", "--json", "11001", argument])
        #expect(result.status == 1)
        #expect(result.errors.contains("'\(argument)'"))
        let objects = try result.jsonLines()
        #expect(objects.count == 1)
        #expect(objects.first?["name"] as? String == "tokenExpire")
    }

    @Test("--catalog uses another catalog")
    func otherCatalog() throws {
        let catalog = try ErrcatRunner.temporaryFile(try ErrcatRunner.fixture("small-catalog.json"), name: "small.json")
        let result = try ErrcatRunner.run([
            "explain", "--json", "--catalog", catalog.path, "11001", "500001", "500999", "11210005",
        ])
        #expect(result.status == 0)
        let objects = try result.jsonLines()
        #expect(objects.map { $0["tier"] as? String } == ["unknown", "module", "module", "unknown"])
        #expect(objects[1]["name"] as? String == "quotaExceeded")
        #expect(objects[1]["flags"] as? [String] == ["retryable", "fatal"])
        #expect(objects[2]["name"] is NSNull)
        #expect(objects[1]["module"] as? String == "billing")
    }

    @Test("an invalid --catalog is reported with file:line:column and exits 1")
    func invalidCatalog() throws {
        let catalog = try ErrcatRunner.temporaryFile(
            Data("{\n  \"format\": \"swifterr-catalog/1\",\n  oops\n}\n".utf8), name: "bad.json")
        let result = try ErrcatRunner.run(["explain", "--catalog", catalog.path, "1"])
        #expect(result.status == 1)
        #expect(result.errors.contains("\(catalog.path):3:3: error: invalid JSON"))
        #expect(result.output.isEmpty)
    }

    @Test(
        "--string explains string codes: the entry's code and its explanation, the owner's unrecognised code, unknown")
    func stringCodes() throws {
        let catalog = try ErrcatRunner.temporaryFile(try ErrcatRunner.fixture("shapes-catalog.json"), name: "pay.json")
        let text = try ErrcatRunner.run([
            "explain", "--catalog", catalog.path, "--string", "--namespace", "card_error", "card_declined",
            "expired_card",
        ])
        #expect(text.status == 0, "\(text.errors)")
        #expect(
            text.lines == [
                "\"card_declined\" in namespace \"card_error\" → 101", "101: module card.cardDeclined", "  Declined.",
                "\"expired_card\" in namespace \"card_error\": module card, unrecognised",
            ])
        let json = try ErrcatRunner.run([
            "explain", "--catalog", catalog.path, "--string", "--json", "invalid_auth", "card_declined",
        ])
        let objects = try json.jsonLines()
        #expect(objects.map { $0["code"] as? Int } == [1, nil])
        #expect(objects.map { $0["tier"] as? String } == ["base", "unknown"])
        #expect(objects.map { $0["string"] as? String } == ["invalid_auth", "card_declined"])
        #expect(try ErrcatRunner.run(["explain", "--namespace", "card_error", "11"]).status == 2)
        #expect(try ErrcatRunner.run(["explain", "--string", "--present", "x"]).status == 2)
    }
}
