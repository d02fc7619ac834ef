import Foundation
import SwiftErrDefaultCatalog
import Testing

@testable import SwiftErr

/// The built-in payload decoder against JSONDecoder (default strategies) on random JSON for
/// many model shapes: the same value, or the same error (case, type, coding path, description).
@Suite("Payload decoder: differential against JSONDecoder")
struct PayloadDecoderDifferentialTests {
    /// Documents per model type.
    static let rounds = 1_500

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)  // Int128, UInt128
    @Test("Numbers: every integer width, Float, Double, Bool, String")
    func numbers() { Self.compare(Numbers.self, Numbers.shape, seed: 1) }

    @Test("Optionals: decodeIfPresent of every kind, null and missing")
    func optionals() { Self.compare(Optionals.self, Optionals.shape, seed: 2) }

    @Test("Nested: arrays of objects, dictionaries keyed by String and Int, nested arrays, recursion")
    func nested() { Self.compare(Nested.self, Nested.shape, seed: 3) }

    @Test("Foundation types: Date, Data, URL, Decimal as the default strategies read them")
    func foundation() { Self.compare(FoundationValues.self, FoundationValues.shape, seed: 4) }

    @Test("Hand-written init(from:): nested, unkeyed and super decoders, allKeys, codingPath, try?")
    func handwritten() { Self.compare(Handwritten.self, Handwritten.shape, seed: 5) }

    @Test("Top-level values: arrays, scalars, optionals, dictionaries")
    func topLevel() {
        Self.compare([Item].self, .array(Item.shape), seed: 6)
        Self.compare(Int.self, .integer(bits: 64, signed: true), seed: 7)
        Self.compare(UInt8.self, .integer(bits: 8, signed: false), seed: 8)
        Self.compare(Double.self, .double, seed: 9)
        Self.compare(Float.self, .float, seed: 10)
        Self.compare(String?.self, .optional(.string), seed: 11)
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            Self.compare([String: Numbers].self, .dictionary(Numbers.shape), seed: 12)
        }
        Self.compare([Int: [Double]].self, .intDictionary(.array(.double)), seed: 13)
        Self.compare(Date.self, .date, seed: 14)
        Self.compare(Decimal.self, .decimal, seed: 15)
        Self.compare(Data.self, .data, seed: 16)
        Self.compare(Item?.self, .optional(Item.shape), seed: 17)
        Self.compare([Bool?].self, .array(.optional(.bool)), seed: 18)
    }

    @Test("missing or null data: Optional gives nil, NoData succeeds, anything else is valueNotFound")
    func nullData() throws {
        for body in [#"{"ret":0,"msg":"OK"}"#, #"{"ret":0,"msg":"OK","data":null}"#] {
            let decoder = ResponseDecoder()
            let data = Data(body.utf8)
            let optional: Result<Item?, ModuleRespError<StudyGroupCode>> = decoder.result(from: data)
            #expect(try optional.get() == nil)
            let none: Result<NoData, ModuleRespError<StudyGroupCode>> = decoder.result(from: data)
            #expect(try none.get() == NoData())
            let item: Result<Item, ModuleRespError<StudyGroupCode>> = decoder.result(from: data)
            guard case .failure(.decodingFailed(let error)) = item, case DecodingError.valueNotFound = error else {
                Issue.record("expected valueNotFound, got \(item)")
                continue
            }
            #expect(Self.summary(error) == Self.summary(Self.jsonDecoderError(Item.self, "null")))
        }
    }

    @Test("a decoder or container kept by the model still reads the payload after the decode")
    func escapedDecoder() throws {
        var body = Data(#"{"ret":0,"data":{"name":"kept","n":7}}"#.utf8)
        let result: Result<EscapingModel, ModuleRespError<StudyGroupCode>> = ResponseDecoder().result(from: body)
        let model = try result.get()
        body.resetBytes(in: 0..<body.count)
        #expect(try model.container.decode(String.self, forKey: DynamicKey("name")) == "kept")
        #expect(try model.decoder.container(keyedBy: DynamicKey.self).decode(Int.self, forKey: DynamicKey("n")) == 7)
    }

    @Test("a configured JSONDecoder is used as it is: its strategies apply")
    func configuredJSONDecoder() throws {
        struct Snake: Decodable, Equatable { var userName: String }
        let json = JSONDecoder()
        json.keyDecodingStrategy = .convertFromSnakeCase
        let body = Data(#"{"ret":0,"data":{"user_name":"ann"}}"#.utf8)
        let configured: Result<Snake, ModuleRespError<StudyGroupCode>> = ResponseDecoder(jsonDecoder: json).result(
            from: body)
        #expect(try configured.get() == Snake(userName: "ann"))
        let plain: Result<Snake, ModuleRespError<StudyGroupCode>> = ResponseDecoder().result(from: body)
        guard case .failure(.decodingFailed(DecodingError.keyNotFound(let key, _))) = plain else {
            Issue.record("expected keyNotFound, got \(plain)")
            return
        }
        #expect(key.stringValue == "userName")
    }

    // MARK: - comparison

    /// Decodes random payloads for `Model` through `ResponseDecoder` and with JSONDecoder.
    static func compare<Model: Decodable & Equatable>(_ model: Model.Type, _ shape: PayloadShape, seed: UInt64) {
        var random = SplitMix(seed: seed)
        let decoder = ResponseDecoder()
        var mismatches = 0
        for round in 0..<rounds {
            let mutation = [0.0, 0.02, 0.08, 0.25][round % 4]
            var generator = PayloadGenerator(random: random, mutation: mutation)
            let payload = generator.text(generator.value(shape))
            random = generator.random
            let envelope = Data(#"{"ret":0,"msg":"OK","data":"#.utf8) + Data(payload.utf8) + Data("}".utf8)
            let ours: Result<Model, ModuleRespError<StudyGroupCode>> = decoder.result(from: envelope)
            let theirs = Result { try JSONDecoder().decode(Model.self, from: Data(payload.utf8)) }
            let same: Bool
            switch (ours, theirs) {
            case (.success(let a), .success(let b)): same = a == b
            case (.failure(.decodingFailed(let a)), .failure(let b)): same = summary(a) == summary(b)
            default: same = false
            }
            if !same {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record(
                        "\(Model.self) seed \(seed) round \(round): \(payload)\nours: \(describe(ours))\nJSONDecoder: \(describe(theirs))"
                    )
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(rounds) \(Model.self) payloads differ")
    }

    static func describe<T, E>(_ result: Result<T, E>) -> String {
        switch result {
        case .success(let value): return "\(value)"
        case .failure(let error):
            if case let failure as ModuleRespError<StudyGroupCode> = error,
                case .decodingFailed(let underlying) = failure
            {
                return summary(underlying)
            }
            return summary(error)
        }
    }

    static func jsonDecoderError<T: Decodable>(_ type: T.Type, _ text: String) -> any Error {
        do {
            _ = try JSONDecoder().decode(T.self, from: Data(text.utf8))
            return CancellationError()
        } catch {
            return error
        }
    }

    /// Everything a caller can see of an error.
    static func summary(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { "\($0.stringValue)|\($0.intValue.map(String.init) ?? "-")" }.joined(separator: "/")
                + " " + context.debugDescription + " underlying: \(context.underlyingError.map(summary) ?? "none")"
        }
        guard let error = error as? DecodingError else { return "\(type(of: error)): \(error)" }
        switch error {
        case .typeMismatch(let type, let context): return "typeMismatch \(type) \(path(context))"
        case .valueNotFound(let type, let context): return "valueNotFound \(type) \(path(context))"
        case .keyNotFound(let key, let context):
            return "keyNotFound \(key.stringValue)|\(key.intValue.map(String.init) ?? "-") \(path(context))"
        case .dataCorrupted(let context): return "dataCorrupted \(path(context))"
        @unknown default: return "\(error)"
        }
    }
}

/// A seeded generator, so that a failure names the document that shows it.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random JSON that mostly fits a shape; `mutation` is the chance of a change at each value
/// (another kind, a null, a missing, extra or repeated member, an edge-case number).
struct PayloadGenerator {
    indirect enum Value {
        case literal(String)
        case string(String)
        case array([Value])
        case object([(String, Value)])
    }

    var random: SplitMix
    let mutation: Double
    /// Inside a dictionary only one entry may fail to decode: JSONDecoder reports the first
    /// failing entry in hash order, which is not document order. Frozen, the generator makes
    /// only values that fit their shape.
    var frozen = false

    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

    mutating func value(_ shape: PayloadShape) -> Value {
        if !frozen && chance(mutation) { return mutated(shape) }
        switch shape {
        case .integer(let bits, let signed): return .literal(integer(bits: bits, signed: signed))
        case .float, .double, .date: return .literal(floating())
        case .bool: return .literal(chance(0.5) ? "true" : "false")
        case .string: return .string(string())
        case .data: return .string(base64())
        case .url:
            if frozen { return .string("https://example.com/a?b=1") }
            return .string(pick(["https://example.com/a?b=1", "", "a b", "http://[::1]:80/", "é", "x:y", "/p"]))
        case .decimal: return .literal(decimal())
        case .optional(let wrapped): return chance(0.3) ? .literal("null") : value(wrapped)
        case .array(let element):
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in value(element) })
        case .dictionary(let element):
            return dictionary(element, keys: { $0.string(short: true) })
        case .intDictionary(let element):
            return dictionary(element, keys: { String(Int.random(in: -3...20, using: &$0.random)) })
        case .object(let members):
            return .object(members.map { ($0.0, value($0.1)) })
        case .oneOf(let texts): return .literal(frozen ? texts[0] : pick(texts))
        case .any: return anyValue(depth: 0)
        }
    }

    mutating func dictionary(_ element: PayloadShape, keys: (inout PayloadGenerator) -> String) -> Value {
        let wasFrozen = frozen
        frozen = true
        var entries: [(String, Value)] = (0..<Int.random(in: 0...4, using: &random)).map { _ in
            (keys(&self), value(element))
        }
        frozen = wasFrozen
        if !frozen && !entries.isEmpty && chance(mutation * 4) {
            let index = Int.random(in: 0..<entries.count, using: &random)
            frozen = true
            entries[index].1 = chance(0.5) ? anyValue(depth: 2) : value(element)
            if chance(0.3) { entries[index].0 = "k" + entries[index].0 }
            frozen = wasFrozen
        }
        return .object(entries)
    }

    mutating func mutated(_ shape: PayloadShape) -> Value {
        if case .object(let members) = shape, !members.isEmpty, chance(0.6) {
            var entries = members.map { ($0.0, value($0.1)) }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: entries.remove(at: Int.random(in: 0..<entries.count, using: &random))
            case 1: entries.insert((string(short: true), anyValue(depth: 1)), at: 0)
            case 2: entries.append((pick(members).0, anyValue(depth: 1)))
            default: entries.shuffle(using: &random)
            }
            return .object(entries)
        }
        switch shape {
        case .dictionary, .intDictionary, .optional(.dictionary), .optional(.intDictionary):
            // Not an object of random members: that would be several failing entries.
            return chance(0.5) ? .literal("null") : .array([])
        default: break
        }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return .literal("null")
        case 1: return .literal(edgeNumber())
        default: return anyValue(depth: 1)
        }
    }

    mutating func anyValue(depth: Int) -> Value {
        switch Int.random(in: 0..<(depth > 2 ? 4 : 6), using: &random) {
        case 0: return .literal(pick(["null", "true", "false"]))
        case 1: return .literal(edgeNumber())
        case 2: return .literal(floating())
        case 3: return .string(string())
        case 4: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in anyValue(depth: depth + 1) })
        default:
            return .object(
                (0..<Int.random(in: 0...3, using: &random)).map { _ in (string(short: true), anyValue(depth: depth + 1))
                })
        }
    }

    mutating func integer(bits: Int, signed: Bool) -> String {
        if !frozen && chance(0.15) { return edgeNumber() }
        let limit = bits >= 64 ? Int64.max : (Int64(1) << (signed ? bits - 1 : bits)) - 1
        let magnitude = Int64.random(in: 0...min(limit, pick([9, 1_000, limit])), using: &random)
        return signed && chance(0.4) ? "-\(magnitude)" : "\(magnitude)"
    }

    mutating func edgeNumber() -> String {
        pick([
            "0", "-0", "1.0", "1.5", "1e2", "1E+2", "-1", "127", "128", "-128", "-129", "255", "256", "32767",
            "32768", "65535", "65536", "2147483647", "2147483648", "-2147483649", "4294967295", "4294967296",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "18446744073709551615", "18446744073709551616", "170141183460469231731687303715884105727",
            "340282366920938463463374607431768211455", "340282366920938463463374607431768211456",
            "9007199254740993", "1e400", "-1e400", "1e-400", "0e-400", "3.4028235e38", "3.5e38", "1e39", "1e-46",
            "4.9e-324", "2.2250738585072014e-308", "0.1", "-0.0", "1.0000000000000001",
            "123456789012345678901234567890",
        ])
    }

    mutating func floating() -> String {
        switch Int.random(in: 0..<(frozen ? 5 : 6), using: &random) {
        case 0: return String(Int.random(in: -100_000...100_000, using: &random))
        case 1: return String(Double.random(in: -1e6...1e6, using: &random))
        case 2: return "\(Int.random(in: -999...999, using: &random)).\(Int.random(in: 0...99_999, using: &random))"
        case 3:
            return
                "\(Int.random(in: 1...9, using: &random)).\(Int.random(in: 0...999, using: &random))e\(Int.random(in: frozen ? -30...30 : -40...40, using: &random))"
        case 4: return String(Float.random(in: -1e3...1e3, using: &random))
        default: return edgeNumber()
        }
    }

    mutating func decimal() -> String {
        switch Int.random(in: 0..<(frozen ? 3 : 4), using: &random) {
        case 0: return "\(Int.random(in: -99_999...99_999, using: &random)).\(Int.random(in: 0...99, using: &random))"
        case 1: return String(Int.random(in: Int.min...Int.max, using: &random))
        case 2: return "0.\(String(repeating: "0", count: Int.random(in: 0...8, using: &random)))1"
        default: return edgeNumber()
        }
    }

    mutating func string(short: Bool = false) -> String {
        let pieces = ["a", "b", "id", "name", "x", "é", "中文", "😀", " ", "\"", "\\", "/", "\n", "\u{1}", "\u{7F}"]
        return (0..<Int.random(in: 0...(short ? 3 : 8), using: &random)).map { _ in pick(pieces) }.joined()
    }

    mutating func base64() -> String {
        let bytes = (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let valid = Data(bytes).base64EncodedString()
        switch Int.random(in: 0..<(frozen ? 1 : 8), using: &random) {
        case 0 where !frozen: return String(valid.dropLast())
        case 1: return valid + "="
        case 2: return " " + valid
        default: return valid
        }
    }

    /// The JSON text, with random whitespace and random (valid) escapes.
    mutating func text(_ value: Value) -> String {
        let space = chance(0.2) ? pick([" ", "\n", "\t ", "\r\n"]) : ""
        switch value {
        case .literal(let text): return space + text + space
        case .string(let text): return space + quoted(text) + space
        case .array(let elements):
            return space + "[" + elements.map { text($0) }.joined(separator: ",") + "]" + space
        case .object(let members):
            return space + "{" + members.map { quoted($0.0) + space + ":" + text($0.1) }.joined(separator: ",") + "}"
                + space
        }
    }

    mutating func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += chance(0.5) ? "\\n" : "\\u000a"
            case "/": out += chance(0.5) ? "\\/" : "/"
            case "\u{0}"..."\u{1F}": out += String(format: "\\u%04x", scalar.value)
            default:
                if chance(0.05) && scalar.value < 0x10000 {
                    out += String(format: "\\u%04X", scalar.value)
                } else if chance(0.05) && scalar.value >= 0x10000 {
                    let value = scalar.value - 0x10000
                    out += String(format: "\\u%04x\\u%04x", 0xD800 + (value >> 10), 0xDC00 + (value & 0x3FF))
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
