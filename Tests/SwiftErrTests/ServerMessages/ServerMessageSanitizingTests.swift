import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

/// ``ServerMessage/sanitized(_:)``: what is kept of a server's text, checked against a plain
/// reference for the character classes and against the limit for the length.
@Suite("ServerMessage: the server's text cleaned and bounded")
struct ServerMessageSanitizingTests {
    static let limit = ServerMessage.maximumUTF8Count

    @Test("empty, white space and controls only are absent")
    func absent() {
        for text in [
            nil, "", " ", "\t\n\r", "\u{3000}\u{00A0}", "\u{0000}\u{007F}\u{0085}", "\u{202E}\u{2066} \u{200F}",
        ] {
            #expect(ServerMessage.sanitized(text) == nil, "\(String(reflecting: text))")
        }
    }

    @Test("C0, DEL, C1 and line separators become a space; runs collapse; ends are trimmed")
    func controls() {
        #expect(ServerMessage.sanitized("  Team\u{0000}is\u{0007}\u{0007}full\n\n\r\t!  ") == "Team is full !")
        #expect(ServerMessage.sanitized("a\u{007F}b\u{0080}c\u{009F}d\u{2028}e\u{2029}f") == "a b c d e f")
        #expect(ServerMessage.sanitized("\u{001B}[31mred\u{001B}[0m") == "[31mred [0m")
        // White space other than controls is kept, once per run.
        #expect(ServerMessage.sanitized("满员\u{3000}\u{3000}了") == "满员\u{3000}了")
        // Whatever the input, no control scalar is left.
        let every = String(String.UnicodeScalarView((0...0x3000).compactMap(Unicode.Scalar.init)))
        let cleaned = ServerMessage.sanitized(every) ?? ""
        #expect(!cleaned.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test("bidirectional controls are removed, the text around them kept")
    func bidirectional() {
        let override = "Pay \u{202E}gnp.exe\u{202C} now"
        #expect(ServerMessage.sanitized(override) == "Pay gnp.exe now")
        let all: [Unicode.Scalar] = [
            "\u{061C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
            "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        ]
        for scalar in all {
            #expect(ServerMessage.sanitized("a\(scalar)b") == "ab", "U+\(String(scalar.value, radix: 16))")
        }
        #expect(ServerMessage.sanitized("مرحبا \u{200F}world") == "مرحبا world")
    }

    @Test("a message up to the limit is kept whole; a longer one is cut with an ellipsis")
    func length() {
        let exact = String(repeating: "a", count: Self.limit)
        #expect(ServerMessage.sanitized(exact) == exact)
        let longer = ServerMessage.sanitized(exact + "b")
        #expect(longer == String(repeating: "a", count: Self.limit - 3) + "…")
        #expect(longer?.utf8.count == Self.limit)
        // The cut drops white space before the ellipsis.
        let spaced = String(repeating: "ab ", count: 400)
        let cut = ServerMessage.sanitized(spaced) ?? ""
        #expect(cut.utf8.count <= Self.limit && cut.hasSuffix("b…"))
    }

    @Test("the cut falls on a character boundary: multi-byte scalars, combining marks, flags, emoji")
    func characterBoundary() {
        for unit in ["é", "e\u{0301}", "🇫🇷", "👩‍👩‍👧‍👦", "한", "𝄞"] {
            let text = String(repeating: unit, count: 600)
            let cut = ServerMessage.sanitized(text) ?? ""
            #expect(cut.utf8.count <= Self.limit, "\(unit)")
            #expect(cut.hasSuffix("…"), "\(unit)")
            let body = cut.dropLast()
            #expect(!body.isEmpty && body.allSatisfy { String($0) == unit }, "\(unit): \(cut.suffix(4))")
            // As many whole characters as fit beside the ellipsis.
            let unitBytes = unit.utf8.count
            #expect(body.count == (Self.limit - 3) / unitBytes, "\(unit)")
        }
    }

    @Test("a message whose first character alone is longer than the limit is absent")
    func oneGiantCharacter() {
        let zalgo = "Z" + String(repeating: "\u{0301}", count: 300)
        #expect(zalgo.count == 1 && zalgo.utf8.count > Self.limit)
        #expect(ServerMessage.sanitized(zalgo) == nil)
        #expect(ServerMessage.sanitized("ok " + zalgo) == "ok…")
    }

    @Test("a 1 MB message is cut after reading its first bytes")
    func oneMegabyte() {
        let huge = String(repeating: "Your team is full. ", count: 1 << 20 / 19)
        #expect(huge.utf8.count >= 1_000_000)
        let cut = ServerMessage.sanitized(huge) ?? ""
        #expect(cut.utf8.count <= Self.limit)
        #expect(cut.hasPrefix("Your team is full. Your team"))
        #expect(cut.hasSuffix("…"))
        // A megabyte of controls before the text: skipped, the text kept.
        let padded = String(repeating: "\u{0007}", count: 1 << 20) + "late text"
        #expect(ServerMessage.sanitized(padded) == "late text")
    }

    @Test("in a response body: escapes resolved, invalid UTF-8 rejected by the envelope, with its offset")
    func inABody() throws {
        let decoder = ResponseDecoder()
        func message(_ body: [UInt8]) -> Result<String?, EnvelopeError> {
            switch decoder.result(NoData.self, module: StudyGroupCode.self, from: Data(body)) {
            case .failure(.invalidEnvelope(let error)): return .failure(error)
            case .failure(let error): return .success(error.serverMessage)
            case .success: return .success("success")
            }
        }
        let escaped = Array(#"{"ret":11219999,"msg":"A\u0000B\u202eC\n\nD\\E \ud83c\uddeb\ud83c\uddf7"}"#.utf8)
        #expect(try message(escaped).get() == "A BC D\\E 🇫🇷")
        var invalid = Array(#"{"ret":11219999,"msg":"ab"}"#.utf8)
        invalid.insert(0xFF, at: 24)
        guard case .failure(let error) = message(invalid) else {
            Issue.record("invalid UTF-8 in the message was accepted")
            return
        }
        #expect(error.reason == .invalidUTF8)
        // A 1 MB escaped message, cut without decoding the rest.
        let long = Array((#"{"ret":11219999,"msg":""# + String(repeating: #"\u00e9"#, count: 200_000) + #""}"#).utf8)
        let cut = (try? message(long).get()) ?? nil
        #expect(cut?.utf8.count ?? 0 <= Self.limit && cut?.hasPrefix("éé") == true && cut?.hasSuffix("…") == true)
    }
}
