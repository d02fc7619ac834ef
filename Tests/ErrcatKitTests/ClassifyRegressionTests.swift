// `errcat classify`: small wrong answers and a closed output, each pinned by a test.

import ErrcatKit
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("errcat classify: regressions")
struct ClassifyRegressionTests {
    static let byteOrderMark = "\u{FEFF}"

    @Test("a UTF-8 byte order mark before a plain code keeps the code", arguments: ["codes", "auto"])
    func byteOrderMarkBeforeCode(format: String) throws {
        let result = try ErrcatRunner.run(
            ["classify", "--each", "--json", "--format", format], lines: [Self.byteOrderMark + "11001", "0"])
        let objects = try result.jsonLines()
        try #require(objects.count == 2)
        #expect(objects[0]["name"] as? String == "tokenExpire", "\(objects[0])")
        #expect(objects[0]["line"] as? Int == 1)
    }

    @Test("a byte order mark and blanks before an envelope: valid in auto as in jsonl", arguments: ["auto", "jsonl"])
    func byteOrderMarkSpaceEnvelope(format: String) throws {
        let line = Self.byteOrderMark + " \t{\"ret\":11002,\"msg\":\"m\"}"
        let result = try ErrcatRunner.run(["classify", "--each", "--json", "--format", format], lines: [line])
        let objects = try result.jsonLines()
        try #require(objects.count == 1)
        #expect(objects[0]["name"] as? String == "verifyCodeExpire", "\(objects[0])")
    }

    @Test("envelope byte offsets count from the start of the line, blanks and byte order mark included")
    func offsetsFromLineStart() throws {
        let lines = ["{\"ret\":\"x\"}", "   {\"ret\":\"x\"}", Self.byteOrderMark + "{\"ret\":\"x\"}", "\t{\"ret\":1,}"]
        let objects = try ErrcatRunner.run(["classify", "--each", "--json"], lines: lines).jsonLines()
        try #require(objects.count == 4)
        #expect((objects[0]["error"] as? String)?.hasSuffix("(byte 7)") == true, "\(objects[0])")
        #expect((objects[1]["error"] as? String)?.hasSuffix("(byte 10)") == true, "\(objects[1])")
        #expect((objects[2]["error"] as? String)?.hasSuffix("(byte 10)") == true, "\(objects[2])")
        #expect((objects[3]["error"] as? String)?.hasSuffix("(byte 10)") == true, "\(objects[3])")
    }

    @Test(
        "what is not a number is not called a number with a fraction",
        arguments: ["10.0.0.1", "1.", "1e", "1.5.5", "1e5e5", "1.e5", ".5", "1-2"])
    func notANumber(text: String) throws {
        let objects = try ErrcatRunner.run(["classify", "--each", "--json"], lines: [text]).jsonLines()
        #expect(objects.first?["error"] as? String == "neither an integer code nor a JSON envelope", "\(text)")
    }

    @Test("numbers with a fraction or an exponent are still called so", arguments: ["1.5", "1e5", "1.5E+3", "-2.0e-1"])
    func fractionalNumber(text: String) throws {
        let objects = try ErrcatRunner.run(["classify", "--each", "--json"], lines: [text]).jsonLines()
        #expect((objects.first?["error"] as? String)?.contains("fraction or exponent") == true, "\(text)")
    }

    @Test("plain codes of 18, 19 and more digits, leading zeros and signs keep their exact value")
    func longPlainCodes() throws {
        let lines = [
            "999999999999999999", "1000000000000000000", "9223372036854775807", "-9223372036854775808",
            "0000000000000000000000011001", "+000000000000000000000", "9223372036854775808",
            "-00000000000000000009223372036854775809",
        ]
        let objects = try ErrcatRunner.run(["classify", "--each", "--json", "--format", "codes"], lines: lines)
            .jsonLines()
        try #require(objects.count == lines.count)
        let codes = objects.map { ($0["code"] as? NSNumber)?.int64Value }
        #expect(
            Array(codes.prefix(6)) == [
                999_999_999_999_999_999, 1_000_000_000_000_000_000, Int64.max, Int64.min, 11001, 0,
            ])
        #expect((objects[6]["error"] as? String)?.contains("outside the signed 64-bit") == true)
        #expect((objects[7]["error"] as? String)?.contains("outside the signed 64-bit") == true)
    }

    @Test("classify stops reading at the first failed write", arguments: ["1", "2"])
    func stopsAtFailedWrite(jobs: String) throws {
        var text = ""
        for index in 0..<400_000 { text += index % 2 == 0 ? "11001\n" : "0\n" }
        let file = try ErrcatRunner.temporaryFile(Data(text.utf8))
        let input = open(file.path, O_RDONLY)
        let full = open("/dev/full", O_WRONLY)
        let error = open("/dev/null", O_WRONLY)
        defer { for descriptor in [input, full, error] { close(descriptor) } }
        try #require(input >= 0 && full >= 0 && error >= 0)
        let status = Errcat.run(
            ["classify", "--each", "--jobs", jobs, "--chunk-bytes", "65536", "-"],
            io: ErrcatIO(input: input, output: full, error: error))
        #expect(status == 1)
        let readUpTo = lseek(input, 0, SEEK_CUR)
        #expect(readUpTo < off_t(text.utf8.count / 2), "read \(readUpTo) of \(text.utf8.count) bytes")
    }
}
