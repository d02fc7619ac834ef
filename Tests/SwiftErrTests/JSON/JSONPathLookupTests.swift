// JSONPathLookup against a reference: random JSON trees written with random whitespace and
// escapes (and now and then a repeated key), looked up along paths that exist and paths that
// miss, compared with a walk of the tree itself.

import SwiftErrCore
import Testing

@testable import SwiftErr

@Suite("JSONPathLookup: the value at a path, against a walk of the tree")
struct JSONPathLookupTests {
    /// A JSON value, members in order (repeats kept).
    indirect enum Value {
        case object([(String, Value)])
        case array([Value])
        case string(String)
        case integer(Int64)
        case bool(Bool)
        case null

        var kind: JSONValueKind {
            switch self {
            case .object: return .object
            case .array: return .array
            case .string: return .string
            case .integer: return .integer
            case .bool: return .bool
            case .null: return .null
            }
        }

        /// The reference: the value at `path`, the first member of a repeated key.
        func at(_ path: ArraySlice<ShapeDefinition.PathStep>) -> Value? {
            guard let step = path.first else { return self }
            switch (step, self) {
            case (.key(let key), .object(let members)):
                return members.first { $0.0 == key }?.1.at(path.dropFirst())
            case (.index(let index), .array(let elements)):
                return index < elements.count ? elements[index].at(path.dropFirst()) : nil
            case (.firstWhere(let key, let value), .array(let elements)):
                let match = elements.first { element in
                    if case .object(let members) = element,
                        case .string(let found)? = members.first(where: { $0.0 == key })?.1
                    {
                        return Array(found.utf8) == Array(value.utf8)
                    }
                    return false
                }
                return match?.at(path.dropFirst())
            default:
                return nil
            }
        }
    }

    static let keys = ["error", "code", "type", "details", "@type", "reason", "é", "a\"b", ""]
    static let strings = ["card_declined", "type.googleapis.com/google.rpc.ErrorInfo", "x\u{0}y", "语言", "\\", ""]

    static func randomValue(_ random: inout SplitMix64, depth: Int) -> Value {
        let choice = depth >= 5 ? 2 + random.below(4) : random.below(6)
        switch choice {
        case 0:
            return .object(
                (0..<Int(random.below(5))).map { _ in
                    (keys[Int(random.below(UInt64(keys.count)))], randomValue(&random, depth: depth + 1))
                })
        case 1:
            return .array((0..<Int(random.below(5))).map { _ in randomValue(&random, depth: depth + 1) })
        case 2: return .string(strings[Int(random.below(UInt64(strings.count)))])
        case 3: return .integer(Int64(bitPattern: random.next()) >> Int64(random.below(64)))
        case 4: return .bool(random.below(2) == 0)
        default: return .null
        }
    }

    /// `text` as a JSON string, each character escaped at random (`\uXXXX`, or the short forms).
    static func write(string text: String, _ random: inout SplitMix64, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
            if mustEscape || random.below(4) == 0 {
                if scalar.value > 0xFFFF {
                    let value = scalar.value - 0x10000
                    for unit in [0xD800 + (value >> 10), 0xDC00 + (value & 0x3FF)] {
                        out += "\\u" + String(unit, radix: 16, uppercase: random.below(2) == 0)
                    }
                } else if scalar == "\"" && random.below(2) == 0 {
                    out += "\\\""
                } else {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    static func write(_ value: Value, _ random: inout SplitMix64, into out: inout String) {
        func space() { out += ["", " ", "\n", "\t ", "\r\n  "][Int(random.below(5))] }
        space()
        switch value {
        case .object(let members):
            out += "{"
            for (index, (key, member)) in members.enumerated() {
                if index > 0 { out += "," }
                space()
                write(string: key, &random, into: &out)
                space()
                out += ":"
                write(member, &random, into: &out)
            }
            space()
            out += "}"
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                write(element, &random, into: &out)
            }
            space()
            out += "]"
        case .string(let text): write(string: text, &random, into: &out)
        case .integer(let number): out += String(number)
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        }
        space()
    }

    /// A path along the tree (each step one that exists), then perturbed now and then.
    static func randomPath(in value: Value, _ random: inout SplitMix64) -> [ShapeDefinition.PathStep] {
        var path: [ShapeDefinition.PathStep] = []
        var current = value
        while path.count < 6, random.below(5) != 0 {
            switch current {
            case .object(let members) where !members.isEmpty:
                let member = members[Int(random.below(UInt64(members.count)))]
                path.append(.key(member.0))
                current = member.1
            case .array(let elements) where !elements.isEmpty:
                let index = Int(random.below(UInt64(elements.count)))
                if random.below(2) == 0 {
                    path.append(.index(index))
                } else {
                    path.append(
                        .firstWhere(
                            key: keys[Int(random.below(UInt64(keys.count)))],
                            equals: strings[Int(random.below(UInt64(strings.count)))]))
                }
                current = elements[index]
            default:
                path.append(
                    random.below(2) == 0
                        ? .key(keys[Int(random.below(UInt64(keys.count)))]) : .index(Int(random.below(3))))
                return path
            }
        }
        if random.below(4) == 0 { path.append(.key("missing")) }
        if random.below(6) == 0 { path.append(.index(7)) }
        return path
    }

    /// 50 random documents from `seed`, each written with random whitespace and escapes, and
    /// `body` called 10 times with each (the tree and its text).
    static func eachDocument(seed: UInt64, _ body: (Value, String, inout SplitMix64) throws -> Void) rethrows {
        var random = SplitMix64(seed: seed)
        for _ in 0..<50 {
            let value = randomValue(&random, depth: 0)
            var text = ""
            write(value, &random, into: &text)
            for _ in 0..<10 { try body(value, text, &random) }
        }
    }

    @Test("random documents and paths: found where the tree has a value, with its kind and value", arguments: 0..<40)
    func differential(seed: UInt64) throws {
        try Self.eachDocument(seed: 0x9A7B_0000 + seed) { value, text, random in
            let bytes = Array(text.utf8)
            let path = Self.randomPath(in: value, &random)
            let expected = value.at(path[...])
            try bytes.withUnsafeBytes { raw in
                var lookup = JSONPathLookup(raw)
                let found = try lookup.find(path)
                #expect(found?.kind == expected?.kind, "\(text) at \(path)")
                guard let found, let expected else { return }
                switch expected {
                case .string(let string):
                    #expect(try lookup.string(at: found.offset) == Array(string.utf8))
                case .integer(let number):
                    #expect(try lookup.integer(at: found.offset) == number)
                case .bool(let flag):
                    #expect(lookup.bool(at: found.offset) == flag)
                default:
                    break
                }
            }
        }
    }

    @Test(
        "a path resumed after the steps it shares with another finds what the tree has there",
        arguments: 0..<40)
    func resumed(seed: UInt64) throws {
        try Self.eachDocument(seed: 0x5EA3_0000 + seed) { value, text, random in
            let bytes = Array(text.utf8)
            let first = Self.randomPath(in: value, &random)
            let shared = Int(random.below(UInt64(first.count + 1)))
            // The second path: the first's beginning, then its own way on from there.
            var second = Array(first.prefix(shared))
            if let reached = value.at(first.prefix(shared)[...]) {
                second += Self.randomPath(in: reached, &random)
            } else {
                second.append(.key("missing"))
            }
            let expected = value.at(second[...])
            try bytes.withUnsafeBytes { raw in
                var lookup = JSONPathLookup(raw)
                var trail = [Int](repeating: -1, count: first.count + 1)
                _ = try trail.withUnsafeMutableBufferPointer { buffer in
                    try lookup.find(JSONPath(first), trail: buffer)
                }
                let found: (offset: Int, kind: JSONValueKind)?
                if trail[shared] >= 0 {
                    found = try lookup.find(JSONPath(second), resuming: (shared, trail[shared]))
                } else {
                    // The first walk stopped inside the shared steps: the second has no value.
                    #expect(expected == nil, "\(text): \(second) after \(first)")
                    found = nil
                }
                #expect(found?.kind == expected?.kind, "\(text): \(second) after \(shared) steps of \(first)")
                if let found, case .string(let string)? = expected {
                    #expect(try lookup.string(at: found.offset) == Array(string.utf8))
                }
                if let found, case .integer(let number)? = expected {
                    #expect(try lookup.integer(at: found.offset) == number)
                }
            }
        }
    }
}
