// Hostile catalog files at scale: 100,000 codes, ranges spanning all of Int64, and one conflict
// hidden among 100,000 entries, through `errcat check` and `errcat explain --catalog`.

import Foundation
import Testing

@Suite("errcat with large and extreme catalogs")
struct LargeCatalogTests {
    /// A catalog with `modules` modules of 10,000-code ranges and `perModule` codes each;
    /// `extra` is appended to the last module's codes (raw JSON objects).
    static func catalog(modules: Int, perModule: Int, extra: [String] = []) -> Data {
        var text =
            #"{"format":"swifterr-catalog/1","name":"large","success":{"code":0,"name":"success","message":{"en":"OK"}},"base":[{"code":7,"name":"tokenExpire","flags":["reauthenticate"],"message":{"en":"Sign in"}}],"modules":["#
        for m in 0..<modules {
            let first = Int64(20_000_000) + Int64(m) * 1_000_000
            var codes = (0..<perModule).map { i in
                #"{"code":\#(first + Int64(i) * 3),"name":"c\#(i)","message":{"en":"m\#(m) c\#(i)"}}"#
            }
            if m == modules - 1 { codes += extra }
            text +=
                (m == 0 ? "" : ",")
                + #"{"name":"m\#(m)","ranges":[[\#(first),\#(first + 999_999)]],"codes":["#
                + codes.joined(separator: ",") + "]}"
        }
        return Data((text + "]}").utf8)
    }

    @Test("100,000 codes: check accepts it and explain classifies through it")
    func hundredThousandCodes() throws {
        let file = try ErrcatRunner.temporaryFile(Self.catalog(modules: 10, perModule: 10_000), name: "large.json")
        let check = try ErrcatRunner.run(["check", file.path])
        #expect(check.status == 0)
        #expect(check.output.contains("100002 entries"))
        let explain = try ErrcatRunner.run([
            "explain", "--json", "--catalog", file.path,
            "29000000", "29029997", "29029998", "29999999", "30000000", "7",
        ])
        #expect(explain.status == 0, "stderr: \(String(decoding: explain.stderr, as: UTF8.self))")
        let objects = try explain.jsonLines()
        try #require(objects.count == 6)
        #expect(objects.map { $0["tier"] as? String } == ["module", "module", "module", "module", "unknown", "base"])
        #expect(objects.map { $0["name"] as? String } == ["c0", "c9999", nil, nil, nil, "tokenExpire"])
        #expect(objects[2]["module"] as? String == "m9")
    }

    @Test("one duplicate among 100,000 codes is found and named with its line")
    func duplicateAmongMany() throws {
        let duplicate = #"{"code":29000003,"name":"again","message":{"en":"dup"}}"#
        let file = try ErrcatRunner.temporaryFile(
            Self.catalog(modules: 10, perModule: 10_000, extra: [duplicate]),
            name: "dup.json")
        let check = try ErrcatRunner.run(["check", file.path])
        #expect(check.status == 1)
        let report = check.output + String(decoding: check.stderr, as: UTF8.self)
        #expect(report.contains("duplicate code 29000003"))
        #expect(report.contains("\"again\""))
        #expect(report.contains("\"c1\""))
    }

    @Test("a module owning all of Int64 but the base and success codes' gaps classifies every edge")
    func hugeRanges() throws {
        let text = #"""
            {"format":"swifterr-catalog/1","name":"huge","success":{"code":0,"name":"success","message":{"en":"OK"}},
             "base":[{"code":1,"name":"one","message":{"en":"one"}}],
             "modules":[{"name":"low","ranges":[[-9223372036854775808,-1]],"codes":[{"code":-9223372036854775808,"name":"minimum","message":{"en":"min"}}]},
                        {"name":"high","ranges":[[2,9223372036854775807]],"codes":[{"code":9223372036854775807,"name":"maximum","message":{"en":"max"}}]}]}
            """#
        let file = try ErrcatRunner.temporaryFile(Data(text.utf8), name: "huge.json")
        #expect(try ErrcatRunner.run(["check", file.path]).status == 0)
        let explain = try ErrcatRunner.run([
            "explain", "--json", "--catalog", file.path,
            "-9223372036854775808", "-9223372036854775807", "-1", "0", "1", "2",
            "9223372036854775806", "9223372036854775807",
        ])
        #expect(explain.status == 0, "stderr: \(String(decoding: explain.stderr, as: UTF8.self))")
        let objects = try explain.jsonLines()
        try #require(objects.count == 8)
        #expect(
            objects.map { $0["tier"] as? String }
                == ["module", "module", "module", "success", "base", "module", "module", "module"])
        #expect(
            objects.map { $0["module"] as? String }
                == ["low", "low", "low", nil, nil, "high", "high", "high"])
        #expect(
            objects.map { $0["name"] as? String }
                == ["minimum", nil, nil, "success", "one", nil, nil, "maximum"])
    }
}
