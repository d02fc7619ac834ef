import Foundation
import SwiftErr
import Testing

/// The Foundation-free envelope scanner: members found, every kind of bad input reported with
/// its reason, key and offset.
@Suite("ResponseEnvelope: parsing envelopes from bytes")
struct ResponseEnvelopeTests {
    @Test("reads code, message and the data range")
    func basic() throws {
        let text = #"{"ret": 11210005, "msg": "班级码错误", "data": {"a": [1, 2, {"b": null}]}}"#
        let envelope = try ResponseEnvelope.parse(text)
        #expect(envelope.code == 11_210_005)
        #expect(envelope.message == "班级码错误")
        let range = try #require(envelope.dataRange)
        let bytes = Array(text.utf8)
        #expect(String(decoding: bytes[range], as: UTF8.self) == #"{"a": [1, 2, {"b": null}]}"#)
        #expect(envelope.dataKind == .object)
        #expect(envelope.hasData)
    }

    @Test("keys are configurable; code/message is built in")
    func keys() throws {
        let text = #"{"code": -3, "message": null, "ret": "ignored", "data": null}"#
        let envelope = try ResponseEnvelope.parse(text, keys: .codeMessage)
        #expect(envelope.code == -3)
        #expect(envelope.message == nil)
        #expect(envelope.dataKind == .null)
        #expect(!envelope.hasData)
        let custom = EnvelopeKeys(code: "status", message: "info", data: "payload")
        let other = try ResponseEnvelope.parse(#"{"info":"x","payload":[1],"status":7}"#, keys: custom)
        #expect(other.code == 7 && other.message == "x" && other.dataKind == .array)
    }

    @Test("missing data, escapes, BOM, whitespace and Int64 extremes")
    func edges() throws {
        let plain = try ResponseEnvelope.parse(" \n{\"ret\":0}\r\n")
        #expect(plain.code == 0 && plain.dataRange == nil && plain.dataKind == nil && plain.message == nil)
        let escaped = try ResponseEnvelope.parse(#"{"r\u0065t": 1, "msg": "a\"b\\c\/\n\u00e9\ud83d\ude00"}"#)
        #expect(escaped.code == 1)
        #expect(escaped.message == "a\"b\\c/\n\u{e9}\u{1F600}")
        let bom = try ResponseEnvelope.parse([0xEF, 0xBB, 0xBF] + Array(#"{"ret":5}"#.utf8))
        #expect(bom.code == 5)
        #expect(try ResponseEnvelope.parse(#"{"ret":9223372036854775807}"#).code == .max)
        #expect(try ResponseEnvelope.parse(#"{"ret":-9223372036854775808}"#).code == .min)
        #expect(try ResponseEnvelope.parse(#"{"ret":-0}"#).code == 0)
        // Data and a non-contiguous collection give the same answer.
        let data = Data(#"{"msg":"m","ret":42}"#.utf8)
        #expect(try ResponseEnvelope.parse(data).code == 42)
        let joined = [Array(#"{"ret":"#.utf8), Array("43}".utf8)].joined()
        #expect(try ResponseEnvelope.parse(joined).code == 43)
    }

    /// Bad inputs with the reason, offset and key they must produce.
    static let failures: [(String, EnvelopeError)] = [
        (#"{"msg":"x"}"#, EnvelopeError(reason: .missingCode, offset: 0, key: "ret")),
        (
            #"{"ret":"11001"}"#,
            EnvelopeError(reason: .codeNotInteger(found: .string, literal: #""11001""#), offset: 7, key: "ret")
        ),
        (
            #"{"ret":1.0}"#,
            EnvelopeError(reason: .codeNotInteger(found: .nonIntegerNumber, literal: "1.0"), offset: 7, key: "ret")
        ),
        (
            #"{"ret":1e3}"#,
            EnvelopeError(reason: .codeNotInteger(found: .nonIntegerNumber, literal: "1e3"), offset: 7, key: "ret")
        ),
        (
            #"{"ret":true}"#,
            EnvelopeError(reason: .codeNotInteger(found: .bool, literal: "true"), offset: 7, key: "ret")
        ),
        (
            #"{"ret":null}"#,
            EnvelopeError(reason: .codeNotInteger(found: .null, literal: "null"), offset: 7, key: "ret")
        ),
        (#"{"ret":[1]}"#, EnvelopeError(reason: .codeNotInteger(found: .array, literal: "[1]"), offset: 7, key: "ret")),
        (
            #"{"ret":9223372036854775808}"#,
            EnvelopeError(reason: .codeOutOfRange(literal: "9223372036854775808"), offset: 7, key: "ret")
        ),
        (
            #"{"ret":-9223372036854775809}"#,
            EnvelopeError(reason: .codeOutOfRange(literal: "-9223372036854775809"), offset: 7, key: "ret")
        ),
        (#"{"ret":1,"ret":2}"#, EnvelopeError(reason: .duplicateKey, offset: 9, key: "ret")),
        (#"{"ret":1,"msg":3}"#, EnvelopeError(reason: .messageNotString(found: .integer), offset: 15, key: "msg")),
        (#"[1]"#, EnvelopeError(reason: .notAnObject(found: .array), offset: 0)),
        (#""ret""#, EnvelopeError(reason: .notAnObject(found: .string), offset: 0)),
        (
            #"{"ret":1} x"#,
            EnvelopeError(
                reason: .malformedJSON(expected: "the end of the input after the envelope object"), offset: 10)
        ),
        (#"{"ret":1,}"#, EnvelopeError(reason: .malformedJSON(expected: "a string"), offset: 9)),
        (#"{"ret" 1}"#, EnvelopeError(reason: .malformedJSON(expected: "':' after an object key"), offset: 7)),
        (#"{"ret":01}"#, EnvelopeError(reason: .malformedJSON(expected: "a number without leading zeros"), offset: 7)),
        (#"{"ret":1,"data":[1,]}"#, EnvelopeError(reason: .malformedJSON(expected: "a value"), offset: 19)),
        (#"{"ret":1,"data":tru}"#, EnvelopeError(reason: .malformedJSON(expected: "'true'"), offset: 16)),
        (
            #"{"ret":1,"msg":"a\x"}"#,
            EnvelopeError(reason: .malformedJSON(expected: "a valid escape character"), offset: 17)
        ),
        (
            #"{"ret":1,"msg":"\ud800"}"#,
            EnvelopeError(reason: .malformedJSON(expected: "a low surrogate escape after a high surrogate"), offset: 16)
        ),
        (#"{"ret":1"#, EnvelopeError(reason: .malformedJSON(expected: "',' or '}' in an object"), offset: 8)),
        ("", EnvelopeError(reason: .malformedJSON(expected: "a value"), offset: 0)),
    ]

    @Test("bad inputs are reported with reason, key and byte offset", arguments: failures)
    func failure(input: String, expected: EnvelopeError) {
        #expect(throws: expected) { try ResponseEnvelope.parse(input) }
    }

    @Test("raw control characters and invalid UTF-8 are rejected")
    func bytes() {
        #expect(
            throws: EnvelopeError(reason: .malformedJSON(expected: "no raw control character in a string"), offset: 17)
        ) {
            try ResponseEnvelope.parse(Array(#"{"ret":1,"msg":"a"#.utf8) + [0x0A] + Array(#""}"#.utf8))
        }
        #expect(throws: EnvelopeError(reason: .invalidUTF8, offset: 17)) {
            try ResponseEnvelope.parse(Array(#"{"ret":1,"msg":"a"#.utf8) + [0xC0, 0x80] + Array(#""}"#.utf8))
        }
        #expect(throws: EnvelopeError(reason: .invalidUTF8, offset: 17)) {
            // An encoded surrogate (ED A0 80) is not valid UTF-8.
            try ResponseEnvelope.parse(Array(#"{"ret":1,"msg":"a"#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8))
        }
    }

    @Test("deep nesting is an error, not a crash")
    func depth() {
        let deep =
            #"{"ret":1,"data":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        #expect(throws: EnvelopeError.self) { try ResponseEnvelope.parse(deep) }
        do {
            _ = try ResponseEnvelope.parse(deep)
        } catch {
            #expect(error.reason == .nestingTooDeep(limit: 512))
        }
    }

    @Test("descriptions name the key and the offset")
    func descriptions() {
        let error = EnvelopeError(reason: .codeNotInteger(found: .string, literal: #""11001""#), offset: 7, key: "ret")
        #expect(error.description == #"code member "ret" is a string ("11001"), not an integer (byte 7)"#)
    }

    /// Differential check: for valid JSON objects produced by JSONSerialization, the scanner finds
    /// the same code and message, and the data bytes re-parse to the same value.
    @Test("agrees with JSONSerialization on generated envelopes")
    func differential() throws {
        var rng = SplitMix64(seed: 11)
        for i in 0..<300 {
            let code = Int64(bitPattern: rng.next()) >> Int64(rng.next() % 60)
            var object: [String: Any] = ["ret": NSNumber(value: code), "x\(i)": ["k": [1, "s", NSNull()]]]
            if rng.next() % 2 == 0 { object["msg"] = "消息 \(i) \"quoted\" \\ \u{1F600}" }
            if rng.next() % 3 != 0 { object["data"] = ["id": i, "list": Array(0..<Int(rng.next() % 5))] }
            let data = try JSONSerialization.data(
                withJSONObject: object, options: rng.next() % 2 == 0 ? [.prettyPrinted] : [])
            let envelope = try ResponseEnvelope.parse(data)
            #expect(envelope.code == code)
            #expect(envelope.message == object["msg"] as? String)
            if let range = envelope.dataRange {
                let slice = data.subdata(in: range)
                let reparsed =
                    try JSONSerialization.jsonObject(with: slice, options: [.fragmentsAllowed]) as? NSDictionary
                #expect(reparsed == (object["data"] as? NSDictionary))
            } else {
                #expect(object["data"] == nil)
            }
        }
    }
}
