import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

/// Mutated envelopes: the scanner never crashes, accepts only what JSONSerialization accepts, and
/// when both accept, reads the same code; the decoder gives exactly one outcome for each.
@Suite("Envelope mutations: differential against JSONSerialization")
struct EnvelopeMutationTests {
    static let seeds: [String] = [
        #"{"ret":0,"msg":"ok","data":{"classId":"c-1","name":"三年二班","n":[1,2.5,-3e2,true,null]}}"#,
        #"{"ret":11210005,"msg":"班级码错误","data":null}"#,
        #"{ "data" : [ {"a":"\u00e9\n"} ], "ret" : -42 , "msg" : "\"quoted\"" }"#,
    ]

    static let alphabet: [UInt8] =
        Array(#"{}[]:,"\ 0123456789-+.eEtrufalsn"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xA9, 0xE4, 0xFF]

    @Test("random byte mutations")
    func mutations() throws {
        var rng = SplitMix64(seed: 2026)
        let decoder = ResponseDecoder()
        var bothAccepted = 0
        var bothRejected = 0
        for i in 0..<3000 {
            var bytes = Array(Self.seeds[i % Self.seeds.count].utf8)
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let position = Int(rng.next() % UInt64(bytes.count + 1))
                let byte = Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))]
                switch rng.next() % 3 {
                case 0 where position < bytes.count: bytes[position] = byte
                case 1 where position < bytes.count: bytes.remove(at: position)
                default: bytes.insert(byte, at: position)
                }
            }
            let data = Data(bytes)
            let ours = Result { () throws(EnvelopeError) -> ResponseEnvelope in try ResponseEnvelope.parse(data) }
            let reference = try? JSONSerialization.jsonObject(with: data, options: [])
            switch ours {
            case .success(let envelope):
                bothAccepted += 1
                let object = try #require(
                    reference as? NSDictionary,
                    "we accepted what JSONSerialization rejects: \(String(decoding: bytes, as: UTF8.self))")
                let ret = try #require(object["ret"] as? NSNumber)
                #expect(ret.int64Value == envelope.code, "\(String(decoding: bytes, as: UTF8.self))")
            case .failure(let error):
                if case .malformedJSON = error.reason, !Self.hasTrailingComma(bytes) {
                    // Structural rejections must agree with JSONSerialization, except for trailing
                    // commas, which RFC 8259 forbids and Foundation tolerates.
                    #expect(
                        reference == nil,
                        "JSONSerialization accepts what we call malformed (\(error)): \(String(decoding: bytes, as: UTF8.self))"
                    )
                    bothRejected += 1
                }
            }
            // The decoder yields exactly one outcome, whatever the bytes.
            let outcome: Result<NoData, ModuleRespError<StudyGroupCode>> = decoder.result(from: data)
            switch outcome {
            case .success: #expect(ResponseEnvelopeCode.isSuccess(data))
            case .failure: break
            }
        }
        #expect(
            bothAccepted > 50 && bothRejected > 500,
            "mutations should exercise both sides: \(bothAccepted) / \(bothRejected)")
    }
}

extension EnvelopeMutationTests {
    /// Whether a ',' is followed (after whitespace) by '}' or ']'.
    static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        var lastSignificant: UInt8 = 0
        for byte in bytes {
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D { continue }
            if (byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")) && lastSignificant == UInt8(ascii: ",") {
                return true
            }
            lastSignificant = byte
        }
        return false
    }
}

/// Helper: whether an envelope parses with the success code.
enum ResponseEnvelopeCode {
    static func isSuccess(_ data: Data) -> Bool {
        (try? ResponseEnvelope.parse(data))?.code == 0
    }
}
