// `errcat classify` against an independent strict JSON reader (Support/EnvelopeReference.swift),
// line by line, on hostile lines cut into chunks of many sizes and classified by several threads.

import Foundation
import Testing

@Suite("errcat classify: differential against a strict JSON reader")
struct ClassifyDifferentialTests {
    /// The code a strict reader finds in `line` as an envelope with ret/msg/data, or nil when
    /// the line is not a valid envelope.
    static func referenceCode(_ line: [UInt8]) -> Int64? {
        guard case .valid(let top, let members, let maxLevel) = ReferenceJSON.read(line), top == .object,
            maxLevel < 512
        else { return nil }
        let keys = [Array("ret".utf8), Array("msg".utf8), Array("data".utf8)]
        for key in keys where members.filter({ $0.key == key }).count > 1 { return nil }
        guard let code = members.first(where: { $0.key == keys[0] }), code.kind == .integer,
            let value = Int64(String(decoding: line[code.range], as: UTF8.self))
        else { return nil }
        if let message = members.first(where: { $0.key == keys[1] }), message.kind != .string, message.kind != .null {
            return nil
        }
        return value
    }

    static let seeds: [String] = [
        #"{"ret":0,"msg":"OK","data":{"id":389829}}"#,
        #"{"ret":11005,"msg":"Signing in with this app ID failed.","data":null}"#,
        #"{ "data" : [ {"a":"\u00e9\n"} ], "ret" : -42 , "msg" : "\"quoted\" 班级码错误" }"#,
        #"{"r\u0065t":7,"msg":null,"data":[1,2.5e3,-0,true,false,null,{}]}"#,
        #"{"ret":9223372036854775807,"msg":"long message with many words in it, past sixteen bytes"}"#,
    ]

    static let alphabet: [UInt8] =
        Array(#"{}[]:,"\ 0123456789-+.eEtrufalsnu"#.utf8) + [
            0x00, 0x09, 0x0D, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xE4, 0xED, 0xF0, 0xFF,
        ]

    /// Hostile lines: mutated envelopes (no newline inside, no CR at the end).
    static let lines: [[UInt8]] = {
        var rng = TestRandom(seed: 2027)
        var lines: [[UInt8]] = []
        for index in 0..<6000 {
            var bytes = Array(seeds[index % seeds.count].utf8)
            for _ in 0..<(Int(rng.next() % 4)) {
                let position = Int(rng.next() % UInt64(bytes.count + 1))
                let byte = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                switch rng.next() % 3 {
                case 0 where position < bytes.count: bytes[position] = byte
                case 1 where position < bytes.count: bytes.remove(at: position)
                default: bytes.insert(byte, at: position)
                }
            }
            while bytes.last == 0x0D { bytes.removeLast() }
            lines.append(bytes)
        }
        return lines
    }()

    @Test(
        "every line: the code the strict reader finds, or an invalid line",
        arguments: [("1", 1 << 20), ("2", 61), ("3", 997)])
    func linesAgree(jobs: String, chunk: Int) throws {
        var input = Data()
        for line in Self.lines {
            input.append(contentsOf: line)
            input.append(0x0A)
        }
        let result = try ErrcatRunner.run(
            [
                "classify", "--each", "--json", "--quiet", "--max-errors", "0", "--format", "jsonl", "--jobs", jobs,
                "--chunk-bytes", String(chunk), "-",
            ],
            stdin: input)
        #expect(result.status == 0)
        let objects = try result.jsonLines()
        try #require(objects.count == Self.lines.count)
        var valid = 0
        var invalid = 0
        for (index, line) in Self.lines.enumerated() {
            let object = objects[index]
            #expect(object["line"] as? Int == index + 1)
            let want = Self.referenceCode(line)
            let got = (object["code"] as? NSNumber)?.int64Value
            #expect(got == want, "line \(index + 1): \(String(decoding: line, as: UTF8.self)) → \(object)")
            if want == nil { invalid += 1 } else { valid += 1 }
        }
        #expect(valid > 500 && invalid > 500, "both sides exercised: \(valid) valid, \(invalid) invalid")
    }
}
