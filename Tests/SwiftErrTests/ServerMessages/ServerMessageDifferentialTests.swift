import Foundation
import SwiftErr
import SwiftErrCore
import SwiftErrDefaultCatalog
import Testing

/// ``ServerMessage/sanitized(_:)``, which reads scalars one at a time and stops at the limit,
/// against a plain reference that cleans the whole text first and cuts whole characters after; and
/// the decoder's path, which reads the message from the body's bytes, against the `String` path.
@Suite("ServerMessage: the bounded reader against a whole-text reference")
struct ServerMessageDifferentialTests {
    /// Scalars that exercise every rule: ASCII, controls, DEL and C1, line separators, white space,
    /// bidirectional controls, combining marks, multi-byte letters, flags and emoji sequences.
    static let pool: [Unicode.Scalar] = [
        "a", "b", "Z", " ", ".", "\\", "\"", "\u{0000}", "\u{0007}", "\t", "\n", "\r", "\u{001F}", "\u{007F}",
        "\u{0085}", "\u{009F}", "\u{2028}", "\u{2029}", "\u{00A0}", "\u{3000}", "\u{061C}", "\u{200E}", "\u{200F}",
        "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{0301}", "\u{0308}", "é", "ß", "满", "한", "𝄞", "😀",
        "\u{200D}", "👩", "\u{1F1EB}", "\u{1F1F7}", "\u{FE0F}",
    ]

    /// The reference: clean the whole text, then keep the longest prefix of whole characters that
    /// leaves room for "…".
    static func reference(_ text: String) -> String? {
        var cleaned = String.UnicodeScalarView()
        var inSpace = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if [0x061C, 0x200E, 0x200F].contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value)
            {
                continue
            }
            let mapped: Unicode.Scalar =
                value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 ? " " : scalar
            if mapped.properties.isWhitespace {
                if !inSpace { cleaned.append(mapped) }
                inSpace = true
            } else {
                cleaned.append(mapped)
                inSpace = false
            }
        }
        var whole = String(cleaned)
        while let first = whole.unicodeScalars.first, first.properties.isWhitespace {
            whole.unicodeScalars.removeFirst()
        }
        while let last = whole.unicodeScalars.last, last.properties.isWhitespace { whole.unicodeScalars.removeLast() }
        guard !whole.isEmpty else { return nil }
        let limit = ServerMessage.maximumUTF8Count
        guard whole.utf8.count > limit else { return whole }
        var kept = ""
        for character in whole {
            guard kept.utf8.count + character.utf8.count <= limit - 3 else { break }
            kept.append(character)
        }
        while let last = kept.last, last.isWhitespace { kept.removeLast() }
        return kept.isEmpty ? nil : kept + "…"
    }

    static func randomText(_ rng: inout SplitMix64) -> String {
        let length = Int.random(in: 0...400, using: &rng)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length { scalars.append(pool.randomElement(using: &rng)!) }
        return String(scalars)
    }

    @Test("2,000 random texts of up to 400 tricky scalars: the same result as the reference")
    func againstReference() {
        var rng = SplitMix64(seed: 20_261_125)
        for _ in 0..<2_000 {
            let text = Self.randomText(&rng)
            let expected = Self.reference(text)
            let actual = ServerMessage.sanitized(text)
            #expect(actual == expected, "\(String(reflecting: text))")
            if let actual { #expect(actual.utf8.count <= ServerMessage.maximumUTF8Count) }
        }
    }

    @Test("the decoder's message, read from raw and from escaped JSON, is the String path's")
    func decoderAgainstStringPath() throws {
        var rng = SplitMix64(seed: 7)
        let decoder = ResponseDecoder()
        for _ in 0..<500 {
            let text = Self.randomText(&rng)
            // JSONSerialization escapes what JSON requires; every other scalar stays raw UTF-8.
            let raw = try JSONSerialization.data(withJSONObject: ["ret": 11_219_999, "msg": text])
            // The same message with every scalar escaped as \uXXXX (surrogate pairs above U+FFFF).
            let escapedText = text.utf16.map { String(format: "\\u%04x", $0) }.joined()
            let escaped = Data((#"{"ret":11219999,"msg":""# + escapedText + #""}"#).utf8)
            for body in [raw, escaped] {
                let result = decoder.result(NoData.self, module: StudyGroupCode.self, from: body)
                guard case .failure(let error) = result, error.rawCode == 11_219_999 else {
                    Issue.record("expected the code back, got \(result) for \(String(reflecting: text))")
                    continue
                }
                #expect(error.serverMessage == ServerMessage.sanitized(text), "\(String(reflecting: text))")
            }
        }
    }
}
