import SwiftErr
import Testing

/// Very large and hostile response bodies: each gets its envelope or a typed error naming the
/// problem, and nothing is lost (the payload range covers the whole payload).
@Suite("Stress: hostile envelope bodies")
struct HostileEnvelopeTests {
    /// `{"ret":7,"msg":"m","data":"xxxx…"}` with a payload string of `size` bytes.
    static func body(payload size: Int) -> [UInt8] {
        Array(#"{"ret":7,"msg":"m","data":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: size)
            + Array(#""}"#.utf8)
    }

    @Test("a 10 MB body parses, and its payload range covers all of it")
    func tenMegabytes() throws {
        let size = 10 * 1024 * 1024
        let bytes = Self.body(payload: size)
        let envelope = try ResponseEnvelope.parse(bytes)
        #expect(envelope.code == 7)
        #expect(envelope.message == "m")
        let range = try #require(envelope.dataRange)
        #expect(range.count == size + 2)  // the quotes included
        #expect(bytes[range.lowerBound] == UInt8(ascii: "\"") && bytes[range.upperBound - 1] == UInt8(ascii: "\""))
        #expect(envelope.dataKind == .string)
    }

    @Test("a megabyte of digits as the code is out of range, with a short literal")
    func hugeInteger() throws {
        let bytes = Array(#"{"ret":"#.utf8) + [UInt8](repeating: UInt8(ascii: "9"), count: 1 << 20) + Array("}".utf8)
        do {
            _ = try ResponseEnvelope.parse(bytes)
            Issue.record("accepted a 1 MB integer")
        } catch {
            guard case .codeOutOfRange(let literal) = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(literal.utf8.count <= 43, "literal of \(literal.utf8.count) bytes")
            #expect(error.offset == 7 && error.key == "ret")
        }
    }

    @Test("invalid UTF-8 deep in a large message is found, at its offset")
    func invalidUTF8Late() throws {
        let prefix = Array(#"{"ret":1,"msg":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let bytes = prefix + [0xC3, 0x28] + Array(#""}"#.utf8)
        do {
            _ = try ResponseEnvelope.parse(bytes)
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.reason == .invalidUTF8)
            #expect(error.offset == prefix.count)
        }
    }

    /// Many tasks parse bodies of different sizes and shapes at once; each result equals the
    /// one computed alone beforehand.
    @Test("concurrent parsing of mixed bodies equals sequential parsing", arguments: [8, 32])
    func concurrentParsing(tasks: Int) async {
        let bodies: [[UInt8]] = [
            Self.body(payload: 1 << 16),
            Array(#"{"ret":"11001"}"#.utf8),
            Array(#"{"ret":1.5}"#.utf8),
            Array(#"{"msg":"no code"}"#.utf8),
            Array(#"{"ret":-9223372036854775808,"msg":null}"#.utf8),
            Array(#"{"ret":1,"data":"#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: 2_000),
            [0xEF, 0xBB, 0xBF] + Array(#" {"ret":11001,"msg":"\u4f60"} "#.utf8),
        ]
        func outcome(_ b: [UInt8]) -> Result<ResponseEnvelope, EnvelopeError> {
            do { return .success(try ResponseEnvelope.parse(b)) } catch { return .failure(error) }
        }
        let want = bodies.map(outcome)
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var bad = 0
                    for k in 0..<bodies.count {
                        let i = (task + k) % bodies.count
                        if outcome(bodies[i]) != want[i] { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
