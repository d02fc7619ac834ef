// `errcat classify --jobs N`: chunks classified in parallel give exactly the output of one
// thread, whatever the chunk size; and lines cut by reads or chunks are read whole.

import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("errcat classify --jobs")
struct ClassifyJobsTests {
    /// Lines of every kind: codes, envelopes, invalid lines, CRLF, a BOM, blanks, empty lines,
    /// lines longer than the limit the tests set (200 bytes), unknown codes.
    static let mixedInput: Data = {
        var text = "\u{FEFF}11001\r\n"
        var rng = TestRandom(seed: 99)
        for index in 0..<3000 {
            switch rng.next() % 14 {
            case 0: text += "\(Int64(bitPattern: rng.next() % 40_000_000))\n"
            case 1: text += "{\"ret\":\(11_210_000 + rng.next() % 30),\"msg\":\"m\\u00e9\",\"data\":{\"a\":[1,2]}}\r\n"
            case 2: text += "\n"
            case 3: text += "  \t\n"
            case 4: text += "{\"ret\":1.5}\n"
            case 5: text += "{\"msg\":\"no code\"}\n"
            case 6:
                text += "{\"ret\":0,\"msg\":\"" + String(repeating: "x", count: 150 + Int(rng.next() % 200)) + "\"}\n"
            case 7: text += "<html>\(index)</html>\n"
            case 8: text += "{\"ret\":11001,\"msg\":\"\\ud800\"}\n"
            case 9: text += "\u{FEFF} {\"ret\":11002}\r\n"
            case 10: text += "10.0.0.\(index % 256)\n"
            case 11: text += "-\(rng.next() % 100)\n"
            default:
                text += "{\"ret\":\(rng.next() % 3 == 0 ? 0 : 11001 + rng.next() % 12),\"msg\":\"OK\",\"data\":null}\n"
            }
        }
        text += "{\"ret\":11003}"  // no newline at the end
        return Data(text.utf8)
    }()

    static let variants: [[String]] = [
        ["--json"],
        ["--each", "--json"],
        ["--each"],
        [],
    ]

    @Test(
        "--jobs 2 and 3 at chunk sizes from 16 bytes up give the output of --jobs 1",
        arguments: [16, 37, 200, 4096, 1 << 20])
    func sameOutputAtEveryChunkSize(chunk: Int) throws {
        let file = try ErrcatRunner.temporaryFile(Self.mixedInput, name: "mixed.jsonl")
        for variant in Self.variants {
            let common = ["classify", "--quiet", "--max-line-bytes", "200", "--max-errors", "5"] + variant
            let one = try ErrcatRunner.run(common + ["--jobs", "1", file.path])
            #expect(one.status == 0)
            #expect(!one.stdout.isEmpty)
            for jobs in ["2", "3"] {
                let many = try ErrcatRunner.run(common + ["--jobs", jobs, "--chunk-bytes", String(chunk), file.path])
                #expect(many.status == 0)
                #expect(many.stdout == one.stdout, "\(variant) --jobs \(jobs) at \(chunk)-byte chunks")
                #expect(many.errors == one.errors, "\(variant) --jobs \(jobs) at \(chunk)-byte chunks")
                let stdin = try ErrcatRunner.run(
                    common + ["--jobs", jobs, "--chunk-bytes", String(chunk), "-"], stdin: Self.mixedInput)
                #expect(stdin.stdout == one.stdout, "\(variant) from stdin, --jobs \(jobs) at \(chunk)-byte chunks")
            }
            let sequentialSmallChunks = try ErrcatRunner.run(
                common + ["--jobs", "1", "--chunk-bytes", "16", file.path])
            #expect(sequentialSmallChunks.stdout == one.stdout, "\(variant) --jobs 1 at 16-byte chunks")
        }
    }

    @Test("the summary counts every line once, whatever the jobs and chunks")
    func everyLineCounted() throws {
        let lineCount = Self.mixedInput.split(separator: 0x0A, omittingEmptySubsequences: false).count
        let summary = try ErrcatRunner.run(
            ["classify", "--json", "--quiet", "--max-line-bytes", "200", "--jobs", "2", "--chunk-bytes", "64", "-"],
            stdin: Self.mixedInput
        ).jsonObject()
        #expect(summary["total"] as? Int == lineCount)
        let reasons = try #require(summary["invalidReasons"] as? [String: Int])
        #expect((reasons["line too long"] ?? 0) > 0)
        #expect((reasons["empty line"] ?? 0) > 0)
        #expect(reasons.values.reduce(0, +) == summary["invalid"] as? Int)
    }

    @Test("unknown codes beyond the tracking limit are counted the same with --jobs (first come, first tracked)")
    func trackingLimitIsOrdered() throws {
        // 70,000 distinct unknown codes, then a repeat of the first ones and of the last ones.
        var text = ""
        for code in 0..<70_000 { text += "\(5_000_000_000 + code)\n" }
        for code in 0..<10 { text += "\(5_000_000_000 + code)\n\(5_000_069_990 + code)\n" }
        let input = Data(text.utf8)
        let one = try ErrcatRunner.run(["classify", "--json", "--quiet", "--jobs", "1", "-"], stdin: input)
        let two = try ErrcatRunner.run(
            ["classify", "--json", "--quiet", "--jobs", "2", "--chunk-bytes", "5000", "-"], stdin: input)
        #expect(one.stdout == two.stdout)
        let summary = try one.jsonObject()
        #expect(summary["untracked"] as? Int == 70_000 - 65_536 + 10)
    }

    /// Writes `bytes` into a pipe in pieces of `piece` bytes from another thread and classifies
    /// the pipe's other end.
    static func classifyThroughPipe(_ arguments: [String], _ bytes: Data, piece: Int) throws -> ErrcatResult {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let writer = descriptors[1]
        let thread = Thread {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let count = min(piece, raw.count - offset)
                    let written = write(writer, raw.baseAddress! + offset, count)
                    if written <= 0 { break }
                    offset += written
                    usleep(200)
                }
            }
            close(writer)
        }
        thread.start()
        defer { close(descriptors[0]) }
        return try ErrcatRunner.run(arguments, inputDescriptor: descriptors[0])
    }

    @Test("a line of exactly --max-line-bytes plus CRLF is valid, from a file and through a pipe cut between CR and LF")
    func crlfAtTheLimit() throws {
        // 10 + 3 + 8 = 21 bytes of envelope, then CR LF: pieces of 22 bytes end between CR and LF.
        let line = "{\"ret\":11001,\"msg\":\"x\"}"
        let limit = String(line.utf8.count)
        let input = Data((line + "\r\n" + line + "\r\n" + "1" + line + "\r\n").utf8)
        let arguments = ["classify", "--each", "--json", "--quiet", "--max-line-bytes", limit]
        let file = try ErrcatRunner.temporaryFile(input)
        let fromFile = try ErrcatRunner.run(arguments + ["--jobs", "1", file.path])
        let objects = try fromFile.jsonLines()
        try #require(objects.count == 3)
        #expect(objects[0]["name"] as? String == "tokenExpire")
        #expect(objects[1]["name"] as? String == "tokenExpire")
        #expect((objects[2]["error"] as? String)?.contains("line of \(line.utf8.count + 1) bytes") == true)
        for jobs in ["1", "2"] {
            let piped = try Self.classifyThroughPipe(
                arguments + ["--jobs", jobs, "-"], input, piece: line.utf8.count + 1)
            #expect(piped.stdout == fromFile.stdout, "through a pipe, --jobs \(jobs)")
        }
    }

    @Test("a pipe written a few bytes at a time gives the output of the file", arguments: [1, 7, 64])
    func smallWrites(piece: Int) throws {
        let input = Self.mixedInput.prefix(6000)
        let arguments = ["classify", "--each", "--json", "--quiet", "--max-line-bytes", "200"]
        let file = try ErrcatRunner.temporaryFile(Data(input))
        let fromFile = try ErrcatRunner.run(arguments + ["--jobs", "1", file.path])
        let piped = try Self.classifyThroughPipe(arguments + ["--jobs", "2", "-"], Data(input), piece: piece)
        #expect(piped.stdout == fromFile.stdout)
    }

    @Test("--jobs is checked: 0 and words are usage errors")
    func jobsUsage() throws {
        #expect(try ErrcatRunner.run(["classify", "--jobs", "0"], lines: ["0"]).status == 2)
        #expect(try ErrcatRunner.run(["classify", "--jobs", "many"], lines: ["0"]).status == 2)
        #expect(try ErrcatRunner.run(["classify", "--jobs", "2", "--quiet"], lines: ["0"]).status == 0)
    }
}

/// A small deterministic generator (splitmix64) for test inputs.
struct TestRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
