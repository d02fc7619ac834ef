// The one pass over an envelope's bytes behind ResponseEnvelope.parse and the stream
// classifier's code-only path: every byte validated, three members located, nothing allocated.

/// Envelope keys prepared for matching raw key bytes: each key's UTF-8, and for keys of at most
/// eight bytes the bytes packed into one word, so a key is matched with one load and compare.
package final class EnvelopeKeyMatcher: Sendable {
    /// One key.
    struct Key: Sendable {
        let utf8: [UInt8]
        /// `utf8.count`, kept beside the packed bytes.
        let length: Int
        /// The bytes in little-endian order (first byte lowest); meaningful when `utf8.count <= 8`.
        let packed: UInt64
        /// `"key":` as it appears in compact JSON, little-endian, when it fits in eight bytes and
        /// the key needs no escape; `memberMask` selects its bytes. Eight bytes equal to it under
        /// the mask are exactly what the general path would read as this key and its colon.
        let member: UInt64
        let memberMask: UInt64
        /// The length of `"key":`, or 0 when there is no such shortcut for this key.
        let memberLength: Int

        init(_ text: String) {
            utf8 = Array(text.utf8)
            length = utf8.count
            var packed: UInt64 = 0
            for (index, byte) in utf8.prefix(8).enumerated() { packed |= UInt64(byte) << (8 * UInt64(index)) }
            self.packed = packed
            let plain = !utf8.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }
            if plain && length + 3 <= 8 {
                let bytes = [UInt8(ascii: "\"")] + utf8 + [UInt8(ascii: "\""), UInt8(ascii: ":")]
                var member: UInt64 = 0
                for (index, byte) in bytes.enumerated() { member |= UInt64(byte) << (8 * UInt64(index)) }
                self.member = member
                memberLength = bytes.count
                memberMask = memberLength == 8 ? UInt64.max : (1 << (8 * UInt64(memberLength))) - 1
            } else {
                member = 1
                memberMask = 0
                memberLength = 0
            }
        }
    }

    /// The keys as given.
    package let keys: EnvelopeKeys
    let code: Key
    let message: Key
    let data: Key

    /// Prepares `keys`.
    package init(_ keys: EnvelopeKeys) {
        self.keys = keys
        code = Key(keys.code)
        message = Key(keys.message)
        data = Key(keys.data)
    }
}

/// Where a scanned envelope's members are; the message is not decoded.
struct EnvelopeScan {
    var code: Int64
    /// The message string's contents (between the quotes), when it is a string.
    var messageRange: Range<Int>?
    /// Whether the message contains an escape (so its range is not its UTF-8 as is).
    var messageEscaped: Bool
    var dataRange: Range<Int>?
    var dataKind: JSONValueKind?

    /// Validates the whole of `bytes` as one envelope object and locates its members.
    ///
    /// The checks and their order define the envelope errors: syntax errors where they occur;
    /// a top level that is not an object; a repeated key at the repeat; a code that is not an
    /// integer or lies outside `Int64` (after its value has been validated); a message that is
    /// neither a string nor `null` (before its value is validated); bytes after the object; and
    /// a missing code (offset 0) last.
    static func scan(_ bytes: UnsafeRawBufferPointer, keys: EnvelopeKeyMatcher) throws(EnvelopeError) -> EnvelopeScan {
        try scan(bytes, keys: keys, locate: true)
    }

    /// The code of the envelope in `bytes`, validated exactly as ``scan(_:keys:)`` validates.
    static func code(_ bytes: UnsafeRawBufferPointer, keys: EnvelopeKeyMatcher) throws(EnvelopeError) -> Int64 {
        try scan(bytes, keys: keys, locate: false).code
    }

    /// The scan; `locate` false leaves the message and data members unrecorded (they are still
    /// validated), so that the code-only caller does no work for them.
    @inline(__always)
    private static func scan(_ bytes: UnsafeRawBufferPointer, keys: EnvelopeKeyMatcher, locate: Bool)
        throws(EnvelopeError) -> EnvelopeScan
    {
        let scanner = JSONScanner(bytes)
        let base = scanner.base
        let count = scanner.count
        var p = 0
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { p = 3 }
        JSONScanner.skipWhitespace(base, count, &p)
        guard p < count && base[p] == UInt8(ascii: "{") else {
            let kind = try lift { () throws(JSONSyntaxError) in try JSONScanner.kindAhead(base, count, p) }
            throw EnvelopeError(reason: .notAnObject(found: kind), offset: p)
        }
        var result = EnvelopeScan(code: 0, messageRange: nil, messageEscaped: false, dataRange: nil, dataKind: nil)
        var seenCode = false
        var seenMessage = false
        var seenData = false

        p &+= 1
        JSONScanner.skipWhitespace(base, count, &p)
        if p < count && base[p] == UInt8(ascii: "}") {
            p &+= 1
        } else {
            while true {
                JSONScanner.skipWhitespace(base, count, &p)
                let keyOffset = p
                // Which key this member has (three flags, not one number: a jump table on a
                // number would be an indirect branch taken to a new place at every member).
                var isCode = false
                var isMessage = false
                var isData = false
                var matched = false
                if p &+ 8 <= count {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self))
                    if word & keys.code.memberMask == keys.code.member {
                        isCode = true
                        p &+= keys.code.memberLength
                        matched = true
                    } else if word & keys.message.memberMask == keys.message.member {
                        isMessage = true
                        p &+= keys.message.memberLength
                        matched = true
                    } else if word & keys.data.memberMask == keys.data.member {
                        isData = true
                        p &+= keys.data.memberLength
                        matched = true
                    }
                }
                if !matched {
                    let keyEscaped = try lift { () throws(JSONSyntaxError) in
                        try JSONScanner.scanString(base, count, &p)
                    }
                    let keyRange = (keyOffset &+ 1)..<(p &- 1)
                    let decodedKey: [UInt8]? = keyEscaped ? scanner.decodedString(at: keyOffset) : nil
                    JSONScanner.skipWhitespace(base, count, &p)
                    guard p < count && base[p] == UInt8(ascii: ":") else {
                        throw EnvelopeError(JSONScanner.expected("':' after an object key", at: p))
                    }
                    p &+= 1
                    isCode = scanner.key(keyRange, decoded: decodedKey, is: keys.code)
                    isMessage = !isCode && scanner.key(keyRange, decoded: decodedKey, is: keys.message)
                    isData = !isCode && !isMessage && scanner.key(keyRange, decoded: decodedKey, is: keys.data)
                }
                JSONScanner.skipWhitespace(base, count, &p)
                let valueOffset = p
                if isCode {
                    guard !seenCode else {
                        throw EnvelopeError(reason: .duplicateKey, offset: keyOffset, key: keys.keys.code)
                    }
                    seenCode = true
                    result.code = try readCode(scanner, &p, key: keys.keys.code)
                } else if isMessage {
                    guard !seenMessage else {
                        throw EnvelopeError(reason: .duplicateKey, offset: keyOffset, key: keys.keys.message)
                    }
                    seenMessage = true
                    if p < count && base[p] == UInt8(ascii: "\"") {
                        let escaped = try lift { () throws(JSONSyntaxError) in
                            try JSONScanner.scanString(base, count, &p)
                        }
                        if locate {
                            result.messageRange = (valueOffset &+ 1)..<(p &- 1)
                            result.messageEscaped = escaped
                        }
                    } else {
                        let found = try lift { () throws(JSONSyntaxError) in try JSONScanner.kindAhead(base, count, p) }
                        guard found == .null else {
                            throw EnvelopeError(
                                reason: .messageNotString(found: found), offset: valueOffset, key: keys.keys.message)
                        }
                        try lift { () throws(JSONSyntaxError) in try JSONScanner.literal(base, count, &p, "null") }
                    }
                } else if isData {
                    guard !seenData else {
                        throw EnvelopeError(reason: .duplicateKey, offset: keyOffset, key: keys.keys.data)
                    }
                    seenData = true
                    if locate {
                        result.dataKind = try lift { () throws(JSONSyntaxError) in
                            try JSONScanner.kindAhead(base, count, p)
                        }
                    }
                    if !locate && p &+ 4 <= count
                        && UnsafeRawPointer(base + p).loadUnaligned(as: UInt32.self)
                            == UInt32(littleEndian: 0x6C6C_756E)
                    {
                        p &+= 4  // "null", the usual payload of a failure
                    } else {
                        try lift { () throws(JSONSyntaxError) in
                            try JSONScanner.skipValue(base, count, &p, depth: 1)
                        }
                    }
                    if locate { result.dataRange = valueOffset..<p }
                } else {
                    try lift { () throws(JSONSyntaxError) in try JSONScanner.skipValue(base, count, &p, depth: 1) }
                }
                JSONScanner.skipWhitespace(base, count, &p)
                guard p < count else { throw EnvelopeError(JSONScanner.expected("',' or '}' in an object", at: p)) }
                let next = base[p]
                p &+= 1
                if next == UInt8(ascii: ",") { continue }
                if next == UInt8(ascii: "}") { break }
                throw EnvelopeError(JSONScanner.expected("',' or '}' in an object", at: p &- 1))
            }
        }
        JSONScanner.skipWhitespace(base, count, &p)
        guard p >= count else {
            throw EnvelopeError(JSONScanner.expected("the end of the input after the envelope object", at: p))
        }
        guard seenCode else { throw EnvelopeError(reason: .missingCode, offset: 0, key: keys.keys.code) }
        return result
    }

    /// Reads the code member at `position`: a JSON integer that fits in `Int64`.
    @inline(__always)
    private static func readCode(_ scanner: JSONScanner, _ position: inout Int, key: String) throws(EnvelopeError)
        -> Int64
    {
        let base = scanner.base
        let count = scanner.count
        let start = position
        if position < count, base[position] == UInt8(ascii: "-") || base[position] &- UInt8(ascii: "0") < 10 {
            var value: Int64 = 0
            var overflow = false
            let integral = try lift { () throws(JSONSyntaxError) in
                try JSONScanner.scanNumber(base, count, &position, &value, &overflow)
            }
            if integral && !overflow { return value }
            throw codeError(scanner, start, position, integral: integral, key: key)
        }
        let kind = try lift { () throws(JSONSyntaxError) in try JSONScanner.kindAhead(base, count, position) }
        try lift { () throws(JSONSyntaxError) in try JSONScanner.skipValue(base, count, &position, depth: 1) }
        throw EnvelopeError(
            reason: .codeNotInteger(found: kind, literal: scanner.literal(start, position)), offset: start, key: key)
    }

    @inline(never)
    private static func codeError(_ scanner: JSONScanner, _ start: Int, _ end: Int, integral: Bool, key: String)
        -> EnvelopeError
    {
        let literal = scanner.literal(start, end)
        if !integral {
            return EnvelopeError(
                reason: .codeNotInteger(found: .nonIntegerNumber, literal: literal), offset: start, key: key)
        }
        return EnvelopeError(reason: .codeOutOfRange(literal: literal), offset: start, key: key)
    }

    /// Runs a scanner step, reporting its syntax error as an envelope error.
    @inline(__always)
    private static func lift<T>(_ step: () throws(JSONSyntaxError) -> T) throws(EnvelopeError) -> T {
        do {
            return try step()
        } catch {
            throw EnvelopeError(error)
        }
    }
}

extension JSONScanner {
    /// Whether the raw key bytes in `range` (or the decoded key, when it had escapes) are `key`.
    @inline(__always)
    fileprivate func key(_ range: Range<Int>, decoded: [UInt8]?, is key: EnvelopeKeyMatcher.Key) -> Bool {
        if let decoded { return decoded == key.utf8 }
        let length = range.count
        guard length == key.length else { return false }
        let start = range.lowerBound
        if length <= 8 {
            var word: UInt64 = 0
            if start &+ 8 <= count {
                let mask = length == 8 ? UInt64.max : (1 &<< UInt64(8 &* length)) &- 1
                word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)) & mask
            } else {
                for index in 0..<length { word |= UInt64(base[start + index]) << (8 * UInt64(index)) }
            }
            return word == key.packed
        }
        for index in 0..<length where base[start + index] != key.utf8[index] { return false }
        return true
    }

    /// The JSON text from `start` to `end`, cut to 40 bytes (plus "…").
    fileprivate func literal(_ start: Int, _ end: Int) -> String {
        let shown = min(end - start, 40)
        var text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + shown)]), as: UTF8.self)
        if end - start > 40 { text += "…" }
        return text
    }

    /// The decoded string starting at `offset` (already validated by a scan).
    fileprivate func decodedString(at offset: Int) -> [UInt8] {
        var copy = self
        copy.position = offset
        return (try? copy.readString()) ?? []
    }
}
