// The containers of PayloadDecoder: a keyed container over a member table built once per object,
// and an unkeyed container that walks an array in place.

import Foundation

/// One member of an object: where its key and value are.
struct PayloadMember {
    /// The key's first byte in the document, or in `PayloadMembersHeader.keyBytes` when
    /// `keyIsCopied` (a key with escapes, stored unescaped).
    var keyStart: Int
    var keyLength: Int
    var valueStart: Int
    /// The key's first eight bytes (fewer for a shorter key), first byte lowest.
    var keyPrefix: UInt64
    var keyIsCopied: Bool
    /// A later member with the key of an earlier one: JSONDecoder keeps the first.
    var isDuplicate: Bool
}

/// What a member table keeps besides its members.
struct PayloadMembersHeader {
    let document: PayloadDocument
    var count: Int
    /// Where the next lookup starts: models read their keys mostly in the order the JSON has them.
    var cursor = 0
    /// Unescaped keys (only for keys written with escapes), owned by the table.
    var keyBytes: UnsafeMutablePointer<UInt8>?
    /// For objects of more than `linearLimit` members, an open-addressing table of member
    /// index + 1 (0: empty), by key hash.
    var table: [Int32] = []
}

/// An object's members, in document order, in one allocation.
final class PayloadMembers: ManagedBuffer<PayloadMembersHeader, PayloadMember> {
    /// Objects up to this many members are searched linearly from the cursor.
    static let linearLimit = 16

    deinit {
        withUnsafeMutablePointers { header, members in
            members.deinitialize(count: header.pointee.count)
            header.pointee.keyBytes?.deallocate()
        }
    }

    /// Reads the members of the (validated) object at `offset`.
    static func index(_ document: PayloadDocument, objectAt offset: Int) throws -> PayloadMembers {
        let base = document.base
        let count = document.count
        var keyBytes: [UInt8] = []
        document.scratch.removeAll(keepingCapacity: true)
        // One allocation for the objects of most models, instead of one per doubling.
        if document.scratch.capacity < 16 { document.scratch.reserveCapacity(16) }
        var p = offset + 1
        do throws(JSONSyntaxError) {
            JSONScanner.skipWhitespace(base, count, &p)
            if base[p] != UInt8(ascii: "}") {
                while true {
                    JSONScanner.skipWhitespace(base, count, &p)
                    let keyOffset = p
                    let escaped = try JSONScanner.scanString(base, count, &p)
                    var member = PayloadMember(
                        keyStart: keyOffset + 1, keyLength: p - keyOffset - 2, valueStart: 0, keyPrefix: 0,
                        keyIsCopied: false, isDuplicate: false)
                    if escaped {
                        var scanner = JSONScanner(UnsafeRawBufferPointer(start: base, count: count))
                        scanner.position = keyOffset
                        let key = try scanner.readString()
                        member.keyStart = keyBytes.count
                        member.keyLength = key.count
                        member.keyIsCopied = true
                        keyBytes.append(contentsOf: key)
                        member.keyPrefix = key.withUnsafeBufferPointer { prefix($0.baseAddress!, $0.count) }
                    } else {
                        member.keyPrefix = prefix(base + member.keyStart, member.keyLength)
                    }
                    JSONScanner.skipWhitespace(base, count, &p)
                    p += 1  // ':'
                    JSONScanner.skipWhitespace(base, count, &p)
                    member.valueStart = p
                    try JSONScanner.skipValue(base, count, &p, depth: 1)
                    document.scratch.append(member)
                    JSONScanner.skipWhitespace(base, count, &p)
                    let next = base[p]
                    p += 1
                    if next != UInt8(ascii: ",") { break }
                }
            } else {
                p += 1
            }
        } catch {
            throw document.fallback()
        }
        document.lastObject = (offset, p)
        let found = document.scratch.count
        let table = unsafeDowncast(
            create(minimumCapacity: found) { _ in
                var header = PayloadMembersHeader(document: document, count: found)
                if !keyBytes.isEmpty {
                    let copied = UnsafeMutablePointer<UInt8>.allocate(capacity: keyBytes.count)
                    copied.initialize(from: keyBytes, count: keyBytes.count)
                    header.keyBytes = copied
                }
                return header
            }, to: PayloadMembers.self)
        table.withUnsafeMutablePointers { header, members in
            document.scratch.withUnsafeBufferPointer { scratch in
                members.initialize(from: scratch.baseAddress!, count: found)
            }
            if found <= linearLimit {
                markDuplicatesPairwise(header, members)
            } else {
                buildTable(header, members)
            }
        }
        return table
    }

    /// The first eight bytes of a key (fewer for a shorter one), first byte lowest.
    @inline(__always)
    static func prefix(_ start: UnsafePointer<UInt8>, _ length: Int) -> UInt64 {
        var word: UInt64 = 0
        for index in 0..<min(length, 8) { word |= UInt64(start[index]) &<< UInt64(8 &* index) }
        return word
    }

    @inline(__always)
    private static func keyStart(
        _ member: PayloadMember, _ header: UnsafeMutablePointer<PayloadMembersHeader>
    ) -> UnsafePointer<UInt8> {
        if member.keyIsCopied, let copied = header.pointee.keyBytes {
            return UnsafePointer(copied + member.keyStart)
        }
        return header.pointee.document.base + member.keyStart
    }

    /// Whether `member`'s key is the `length` bytes at `key` (whose prefix is `prefix`).
    @inline(__always)
    private static func matches(
        _ member: PayloadMember, _ header: UnsafeMutablePointer<PayloadMembersHeader>, _ key: UnsafePointer<UInt8>,
        _ length: Int, _ prefix: UInt64
    ) -> Bool {
        guard member.keyLength == length && member.keyPrefix == prefix else { return false }
        if length <= 8 { return true }
        return memcmp(keyStart(member, header) + 8, key + 8, length - 8) == 0
    }

    private static func markDuplicatesPairwise(
        _ header: UnsafeMutablePointer<PayloadMembersHeader>, _ members: UnsafeMutablePointer<PayloadMember>
    ) {
        let count = header.pointee.count
        guard count > 1 else { return }
        for later in 1..<count {
            let member = members[later]
            let start = keyStart(member, header)
            for earlier in 0..<later where matches(members[earlier], header, start, member.keyLength, member.keyPrefix)
            {
                members[later].isDuplicate = true
                break
            }
        }
    }

    /// FNV-1a over a key's bytes.
    @inline(__always)
    private static func hash(_ key: UnsafePointer<UInt8>, _ length: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for index in 0..<length { hash = (hash ^ UInt64(key[index])) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    private static func buildTable(
        _ header: UnsafeMutablePointer<PayloadMembersHeader>, _ members: UnsafeMutablePointer<PayloadMember>
    ) {
        let count = header.pointee.count
        var size = 1
        while size < count * 2 { size <<= 1 }
        var table = [Int32](repeating: 0, count: size)
        for index in 0..<count {
            let member = members[index]
            let start = keyStart(member, header)
            var slot = hash(start, member.keyLength) & (size - 1)
            while true {
                let occupant = Int(table[slot])
                if occupant == 0 {
                    table[slot] = Int32(index + 1)
                    break
                }
                if matches(members[occupant - 1], header, start, member.keyLength, member.keyPrefix) {
                    members[index].isDuplicate = true
                    break
                }
                slot = (slot + 1) & (size - 1)
            }
        }
        header.pointee.table = table
    }

    /// The value offset of the member named `key`, or `nil`.
    func valueStart(forKey key: String) -> Int? {
        var name = key
        return name.withUTF8 { utf8 -> Int? in
            guard let start = utf8.baseAddress else {
                // An empty key: any address will do, no byte is read.
                return withUnsafePointer(to: UInt8(0)) { valueStart(forKey: $0, 0) }
            }
            return valueStart(forKey: start, utf8.count)
        }
    }

    private func valueStart(forKey key: UnsafePointer<UInt8>, _ length: Int) -> Int? {
        withUnsafeMutablePointers { header, members -> Int? in
            let count = header.pointee.count
            let prefix = Self.prefix(key, length)
            if header.pointee.table.isEmpty {
                var index = header.pointee.cursor
                for _ in 0..<count {
                    if index == count { index = 0 }
                    let member = members[index]
                    if !member.isDuplicate && Self.matches(member, header, key, length, prefix) {
                        header.pointee.cursor = index + 1
                        return member.valueStart
                    }
                    index += 1
                }
                return nil
            }
            return header.pointee.table.withUnsafeBufferPointer { table -> Int? in
                let mask = table.count - 1
                var slot = Self.hash(key, length) & mask
                while true {
                    let occupant = Int(table[slot])
                    if occupant == 0 { return nil }
                    let member = members[occupant - 1]
                    if Self.matches(member, header, key, length, prefix) { return member.valueStart }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// The keys, each once, in document order.
    func keys() -> [String] {
        withUnsafeMutablePointers { header, members in
            (0..<header.pointee.count).compactMap { index -> String? in
                let member = members[index]
                guard !member.isDuplicate else { return nil }
                let start = Self.keyStart(member, header)
                return String(decoding: UnsafeBufferPointer(start: start, count: member.keyLength), as: UTF8.self)
            }
        }
    }
}

/// A keyed container over an object's member table.
struct PayloadKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: PayloadDecoder
    let members: PayloadMembers
    let path: PayloadPath?

    var codingPath: [any CodingKey] { PayloadPath.path(path) }

    var allKeys: [Key] { members.keys().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members.valueStart(forKey: key.stringValue) != nil }

    /// The value offset of `key`, or `keyNotFound`.
    @inline(__always)
    private func value(_ key: some CodingKey) throws -> Int {
        guard let offset = members.valueStart(forKey: key.stringValue) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."
                ))
        }
        return offset
    }

    /// The value offset of `key` when it is present and not `null`.
    @inline(__always)
    private func presentValue(_ key: Key) -> Int? {
        guard let offset = members.valueStart(forKey: key.stringValue),
            decoder.kind(offset) != UInt8(ascii: "n")
        else { return nil }
        return offset
    }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.kind(try value(key)) == UInt8(ascii: "n") }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.readBool(value(key), path, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.readString(value(key), path, key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try float(Double.self, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try float(Float.self, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(Int.self, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(Int8.self, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(Int16.self, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(Int32.self, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(Int64.self, key) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(Int128.self, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(UInt.self, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(UInt8.self, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(UInt16.self, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(UInt32.self, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(UInt64.self, key) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(UInt128.self, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(T.self, at: value(key), parent: path, key: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try presentValue(key).map { try decoder.readBool($0, path, key) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try presentValue(key).map { try decoder.readString($0, path, key) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try presentValue(key).map { try decoder.readFloat(Double.self, $0, path, key) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try presentValue(key).map { try decoder.readFloat(Float.self, $0, path, key) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try integerIfPresent(Int.self, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try integerIfPresent(Int8.self, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try integerIfPresent(Int16.self, key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try integerIfPresent(Int32.self, key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try integerIfPresent(Int64.self, key)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        try integerIfPresent(Int128.self, key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try integerIfPresent(UInt.self, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try integerIfPresent(UInt8.self, key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try integerIfPresent(UInt16.self, key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try integerIfPresent(UInt32.self, key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try integerIfPresent(UInt64.self, key)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        try integerIfPresent(UInt128.self, key)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try presentValue(key).map { try decoder.unwrap(T.self, at: $0, parent: path, key: key) }
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.readInteger(T.self, value(key), path, key)
    }

    @inline(__always)
    private func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T? {
        try presentValue(key).map { try decoder.readInteger(T.self, $0, path, key) }
    }

    @inline(__always)
    private func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.readFloat(T.self, value(key), path, key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let offset = try value(key)
        let members = try decoder.objectMembers(at: offset, path: path, key: key)
        return KeyedDecodingContainer(
            PayloadKeyedContainer<NestedKey>(
                decoder: decoder, members: members, path: PayloadPath(parent: path, key: key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let offset = try value(key)
        let start = try decoder.arrayStart(at: offset, path: path, key: key)
        return PayloadUnkeyedContainer(decoder: decoder, start: start, path: PayloadPath(parent: path, key: key))
    }

    func superDecoder() throws -> any Decoder { superDecoder(PayloadIndexKey.super) }

    func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(key) }

    /// A new decoder at `key`'s value (`null` when there is none), as JSONDecoder makes one.
    private func superDecoder(_ key: some CodingKey) -> any Decoder {
        let offset = members.valueStart(forKey: key.stringValue) ?? PayloadDocument.missing
        return PayloadDecoder(document: decoder.document, value: offset, path: PayloadPath(parent: path, key: key))
    }
}

/// An unkeyed container that walks an array in place.
struct PayloadUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: PayloadDecoder
    /// The first element's offset (or the `]`'s), for `count`.
    let start: Int
    let path: PayloadPath?
    /// The next element's offset, or the `]`'s at the end.
    private var position: Int
    private(set) var currentIndex = 0

    init(decoder: PayloadDecoder, start: Int, path: PayloadPath?) {
        self.decoder = decoder
        self.start = start
        self.path = path
        position = start
    }

    var codingPath: [any CodingKey] { PayloadPath.path(path) }

    var isAtEnd: Bool { decoder.document.base[position] == UInt8(ascii: "]") }

    var count: Int? {
        var elements = 0
        var p = start
        let document = decoder.document
        while document.base[p] != UInt8(ascii: "]") {
            elements += 1
            p = (try? decoder.end(of: p)) ?? p
            JSONScanner.skipWhitespace(document.base, document.count, &p)
            if document.base[p] == UInt8(ascii: ",") { p += 1 }
            JSONScanner.skipWhitespace(document.base, document.count, &p)
        }
        return elements
    }

    private var indexKey: PayloadIndexKey { PayloadIndexKey(index: currentIndex) }

    /// The next element's offset, or `valueNotFound` at the end.
    private func next(_ type: Any.Type, _ message: String = "Unkeyed container is at end.") throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: PayloadPath.path(path, indexKey), debugDescription: message))
        }
        return position
    }

    /// Moves past the element at `position`.
    private mutating func advance() throws {
        var p = try decoder.end(of: position)
        let document = decoder.document
        JSONScanner.skipWhitespace(document.base, document.count, &p)
        if document.base[p] == UInt8(ascii: ",") {
            p += 1
            JSONScanner.skipWhitespace(document.base, document.count, &p)
        }
        position = p
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.kind(try next(Never.self)) == UInt8(ascii: "n") else { return false }
        try advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try element { try $0.readBool($1, $2, $3) }
    }
    mutating func decode(_ type: String.Type) throws -> String {
        try element { try $0.readString($1, $2, $3) }
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        try element { try $0.readFloat(Double.self, $1, $2, $3) }
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        try element { try $0.readFloat(Float.self, $1, $2, $3) }
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(Int128.self) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(UInt128.self) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try element(T.self) { try $0.unwrap(T.self, at: $1, parent: $2, key: $3) }
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
        try elementIfPresent { try $0.readBool($1, $2, $3) }
    }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
        try elementIfPresent { try $0.readString($1, $2, $3) }
    }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
        try elementIfPresent { try $0.readFloat(Double.self, $1, $2, $3) }
    }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
        try elementIfPresent { try $0.readFloat(Float.self, $1, $2, $3) }
    }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try integerIfPresent(Int.self) }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try integerIfPresent(Int8.self) }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try integerIfPresent(Int16.self) }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try integerIfPresent(Int32.self) }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try integerIfPresent(Int64.self) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? { try integerIfPresent(Int128.self) }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try integerIfPresent(UInt.self) }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try integerIfPresent(UInt8.self) }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try integerIfPresent(UInt16.self) }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try integerIfPresent(UInt32.self) }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try integerIfPresent(UInt64.self) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? { try integerIfPresent(UInt128.self) }
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        try elementIfPresent { try $0.unwrap(T.self, at: $1, parent: $2, key: $3) }
    }

    /// Reads the next element with `read` (given its offset and key) and moves past it.
    @inline(__always)
    private mutating func element<T>(
        _ type: T.Type = T.self, _ read: (PayloadDecoder, Int, PayloadPath?, PayloadIndexKey) throws -> T
    ) throws -> T {
        let result = try read(decoder, try next(T.self), path, indexKey)
        try advance()
        return result
    }

    /// As JSONDecoder: `nil` at the end or for `null`, and either way the index moves on.
    @inline(__always)
    private mutating func elementIfPresent<T>(_ read: (PayloadDecoder, Int, PayloadPath?, PayloadIndexKey) throws -> T)
        throws -> T?
    {
        if isAtEnd {
            currentIndex += 1
            return nil
        }
        if decoder.kind(position) == UInt8(ascii: "n") {
            try advance()
            return nil
        }
        let result = try read(decoder, position, path, indexKey)
        try advance()
        return result
    }

    @inline(__always)
    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try element { try $0.readInteger(T.self, $1, $2, $3) }
    }

    @inline(__always)
    private mutating func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type) throws -> T? {
        try elementIfPresent { try $0.readInteger(T.self, $1, $2, $3) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let offset = try next(KeyedDecodingContainer<NestedKey>.self)
        let key = indexKey
        let members = try decoder.objectMembers(at: offset, path: path, key: key)
        try advance()
        return KeyedDecodingContainer(
            PayloadKeyedContainer<NestedKey>(
                decoder: decoder, members: members, path: PayloadPath(parent: path, key: key)))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let offset = try next((any UnkeyedDecodingContainer).self)
        let key = indexKey
        let start = try decoder.arrayStart(at: offset, path: path, key: key)
        try advance()
        return PayloadUnkeyedContainer(decoder: decoder, start: start, path: PayloadPath(parent: path, key: key))
    }

    mutating func superDecoder() throws -> any Decoder {
        let offset = try next((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        let key = indexKey
        try advance()
        return PayloadDecoder(document: decoder.document, value: offset, path: PayloadPath(parent: path, key: key))
    }
}
