import Foundation

@testable import SwiftErr

// Models for the payload decoder's differential tests, with the shape (`PayloadShape`) the
// generator follows for each: every integer width, floating point, Bool, String, optionals,
// arrays, nested objects, String- and Int-keyed dictionaries, Foundation types, raw-value enums,
// and a hand-written init(from:) that uses every container operation.

/// The JSON shape a model expects, for the generator.
indirect enum PayloadShape: Sendable {
    case integer(bits: Int, signed: Bool)
    case float
    case double
    case bool
    case string
    case date
    case data
    case url
    case decimal
    case optional(PayloadShape)
    case array(PayloadShape)
    case dictionary(PayloadShape)
    case intDictionary(PayloadShape)
    case object([(String, PayloadShape)])
    /// One of these JSON texts.
    case oneOf([String])
    /// A value of any kind (read as the model reads it).
    case any
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)  // Int128, UInt128
struct Numbers: Decodable, Equatable {
    var i: Int
    var i8: Int8
    var i16: Int16
    var i32: Int32
    var i64: Int64
    var u: UInt
    var u8: UInt8
    var u16: UInt16
    var u32: UInt32
    var u64: UInt64
    var wide: Int128
    var uwide: UInt128
    var f: Float
    var d: Double
    var b: Bool
    var s: String

    static let shape = PayloadShape.object([
        ("i", .integer(bits: 64, signed: true)), ("i8", .integer(bits: 8, signed: true)),
        ("i16", .integer(bits: 16, signed: true)), ("i32", .integer(bits: 32, signed: true)),
        ("i64", .integer(bits: 64, signed: true)), ("u", .integer(bits: 64, signed: false)),
        ("u8", .integer(bits: 8, signed: false)), ("u16", .integer(bits: 16, signed: false)),
        ("u32", .integer(bits: 32, signed: false)), ("u64", .integer(bits: 64, signed: false)),
        ("wide", .integer(bits: 128, signed: true)), ("uwide", .integer(bits: 128, signed: false)),
        ("f", .float), ("d", .double), ("b", .bool), ("s", .string),
    ])
}

struct Optionals: Decodable, Equatable {
    var i: Int?
    var s: String?
    var d: Double?
    var f: Float?
    var b: Bool?
    var u8: UInt8?
    var i64: Int64?
    var numbers: [Int]?
    var item: Item?

    static let shape = PayloadShape.object([
        ("i", .optional(.integer(bits: 64, signed: true))), ("s", .optional(.string)), ("d", .optional(.double)),
        ("f", .optional(.float)), ("b", .optional(.bool)), ("u8", .optional(.integer(bits: 8, signed: false))),
        ("i64", .optional(.integer(bits: 64, signed: true))),
        ("numbers", .optional(.array(.integer(bits: 64, signed: true)))), ("item", .optional(Item.shape)),
    ])
}

struct Item: Decodable, Equatable {
    var id: Int
    var title: String
    var score: Double?
    var flags: [Bool]
    var kind: Kind
    var level: Level?

    enum Kind: String, Decodable, Equatable {
        case open, closed, archived
    }

    enum Level: Int, Decodable, Equatable {
        case low = 1
        case high = 2
    }

    static let shape = PayloadShape.object([
        ("id", .integer(bits: 64, signed: true)), ("title", .string), ("score", .optional(.double)),
        ("flags", .array(.bool)), ("kind", .oneOf([#""open""#, #""closed""#, #""archived""#, #""\u006fpen""#])),
        ("level", .optional(.oneOf(["1", "2", "1.0", "3"]))),
    ])
}

struct Nested: Decodable, Equatable {
    var name: String
    var items: [Item]
    var tags: [String: Int]
    var byID: [Int: String]
    var matrix: [[Double]]
    var groups: [String: [Item]]?
    var inner: Inner?

    struct Inner: Decodable, Equatable {
        var depth: UInt16
        var next: [Inner]
        var note: String?

        static let shape = PayloadShape.object([
            ("depth", .integer(bits: 16, signed: false)),
            (
                "next",
                .array(.oneOf([#"{"depth":1,"next":[]}"#, #"{"depth":2,"next":[{"depth":3,"next":[],"note":"x"}]}"#]))
            ),
            ("note", .optional(.string)),
        ])
    }

    static let shape = PayloadShape.object([
        ("name", .string), ("items", .array(Item.shape)), ("tags", .dictionary(.integer(bits: 64, signed: true))),
        ("byID", .intDictionary(.string)), ("matrix", .array(.array(.double))),
        ("groups", .optional(.dictionary(.array(Item.shape)))), ("inner", .optional(Inner.shape)),
    ])
}

struct FoundationValues: Decodable, Equatable {
    var date: Date
    var data: Data
    var url: URL
    var decimal: Decimal
    var dates: [Date]?
    var link: URL?
    var amounts: [Decimal]

    static let shape = PayloadShape.object([
        ("date", .date), ("data", .data), ("url", .url), ("decimal", .decimal), ("dates", .optional(.array(.date))),
        ("link", .optional(.url)), ("amounts", .array(.decimal)),
    ])
}

/// Uses every container operation by hand and records what it saw (coding paths, keys, counts),
/// so that differences in those show up as different values.
struct Handwritten: Decodable, Equatable {
    var seen: [String] = []

    static let shape = PayloadShape.object([
        ("head", .object([("x", .integer(bits: 32, signed: true)), ("y", .optional(.string))])),
        ("list", .array(.optional(.integer(bits: 16, signed: true)))),
        ("pairs", .array(.array(.string))),
        ("parent", .object([("base", .string)])),
        ("maybe", .optional(.integer(bits: 64, signed: true))),
        ("lenient", .integer(bits: 8, signed: false)),
        ("rest", .any),
    ])

    enum Keys: String, CodingKey {
        case head, list, pairs, parent, maybe, lenient, rest, absent
    }

    enum HeadKeys: String, CodingKey {
        case x, y
    }

    static func describe(_ path: [any CodingKey]) -> String {
        path.map { "\($0.stringValue)|\($0.intValue.map(String.init) ?? "-")" }.joined(separator: "/")
    }

    init(from decoder: any Decoder) throws {
        seen.append("top " + Self.describe(decoder.codingPath))
        let container = try decoder.container(keyedBy: Keys.self)
        seen.append("keys " + container.allKeys.map(\.stringValue).sorted().joined(separator: ","))
        seen.append("contains \(container.contains(.absent)) \(container.contains(.maybe))")
        let head = try container.nestedContainer(keyedBy: HeadKeys.self, forKey: .head)
        seen.append("head " + Self.describe(head.codingPath))
        seen.append("x \(try head.decode(Int32.self, forKey: .x))")
        seen.append("y \(String(describing: try head.decodeIfPresent(String.self, forKey: .y)))")
        var list = try container.nestedUnkeyedContainer(forKey: .list)
        seen.append("list count \(String(describing: list.count)) " + Self.describe(list.codingPath))
        while !list.isAtEnd {
            if try list.decodeNil() {
                seen.append("nil at \(list.currentIndex)")
            } else {
                seen.append("int \(try list.decode(Int16.self)) now \(list.currentIndex)")
            }
        }
        seen.append("past end \(String(describing: try list.decodeIfPresent(Int.self))) \(list.currentIndex)")
        var pairs = try container.nestedUnkeyedContainer(forKey: .pairs)
        while !pairs.isAtEnd {
            var pair = try pairs.nestedUnkeyedContainer()
            seen.append("pair " + Self.describe(pair.codingPath))
            while !pair.isAtEnd { seen.append("s " + (try pair.decode(String.self))) }
        }
        let parent = try container.superDecoder(forKey: .parent)
        seen.append("super " + Self.describe(parent.codingPath))
        let base = try parent.container(keyedBy: DynamicKey.self)
        seen.append("base " + (try base.decode(String.self, forKey: DynamicKey("base"))))
        let missing = try container.superDecoder(forKey: .absent)
        seen.append("absent super nil \(try missing.singleValueContainer().decodeNil())")
        seen.append("maybe nil \(String(describing: try? container.decodeNil(forKey: .maybe)))")
        // A `try?` around a value JSONDecoder reads through its slow path: the result must
        // still be JSONDecoder's.
        seen.append("lenient \(String(describing: try? container.decode(UInt8.self, forKey: .lenient)))")
        let rest = try container.superDecoder(forKey: .rest)
        let single = try rest.singleValueContainer()
        if single.decodeNil() {
            seen.append("rest null")
        } else if let number = try? single.decode(Double.self) {
            seen.append("rest number \(number)")
        } else if let text = try? single.decode(String.self) {
            seen.append("rest string \(text)")
        } else if var array = try? rest.unkeyedContainer() {
            seen.append("rest array \(String(describing: array.count))")
            if !array.isAtEnd { _ = try? array.superDecoder() }
        } else {
            let object = try rest.container(keyedBy: DynamicKey.self)
            seen.append("rest object " + object.allKeys.map(\.stringValue).sorted().joined(separator: ","))
        }
    }
}

struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A model that keeps its decoder: reading it after the decode must still work.
final class EscapingModel: Decodable, @unchecked Sendable {
    // @unchecked Sendable, justified: the tests use an instance on one task only.
    let decoder: any Decoder
    let container: KeyedDecodingContainer<DynamicKey>

    init(from decoder: any Decoder) throws {
        self.decoder = decoder
        container = try decoder.container(keyedBy: DynamicKey.self)
    }
}
