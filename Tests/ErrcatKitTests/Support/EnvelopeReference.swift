/// A small, independent, strict JSON reader (RFC 8259): the reference of the envelope parser for
/// errcat's tests and for the envelope fuzz target (scripts/make/fuzz.mk compiles this file into it). It is deliberately written differently from the scanner under test: a
/// recursive reader that keeps the top-level object's members, and validates UTF-8 with the
/// standard library (`String(validating:as:)`) instead of by hand.
struct ReferenceJSON {
    /// The kind of a value, in the scanner's terms.
    enum Kind: Equatable { case object, array, string, integer, fraction, bool, null }

    /// One member of the top-level object.
    struct Member {
        var key: [UInt8]
        var kind: Kind
        var range: Range<Int>
        var decodedString: [UInt8]?
    }

    /// What the reader found.
    enum Document {
        /// Not JSON (or nested deeper than any limit the caller checks).
        case invalid
        /// A JSON text: the top-level kind, its members if it is an object, and the deepest
        /// container nesting (the top-level value is level 0).
        case valid(top: Kind, members: [Member], maxContainerLevel: Int)
    }

    private let bytes: [UInt8]
    private var at = 0
    private var maxLevel = -1

    private struct Invalid: Error {}

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Reads `bytes` (an optional UTF-8 byte order mark first).
    static func read(_ bytes: [UInt8]) -> Document {
        var reader = ReferenceJSON(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.at = 3 }
        do {
            reader.space()
            var members: [Member] = []
            let top = try reader.value(level: 0, members: &members)
            reader.space()
            guard reader.at == bytes.count else { return .invalid }
            return .valid(top: top.kind, members: members, maxContainerLevel: reader.maxLevel)
        } catch {
            return .invalid
        }
    }

    private var current: UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func space() {
        while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { at += 1 }
    }

    private mutating func take(_ b: UInt8) throws {
        guard current == b else { throw Invalid() }
        at += 1
    }

    /// Reads a value; at level 0 an object's members are collected into `members`.
    private mutating func value(level: Int, members: inout [Member]) throws -> (kind: Kind, decoded: [UInt8]?) {
        guard let b = current else { throw Invalid() }
        switch b {
        case UInt8(ascii: "{"):
            maxLevel = max(maxLevel, level)
            at += 1
            space()
            if current == UInt8(ascii: "}") {
                at += 1
                return (.object, nil)
            }
            repeat {
                space()
                let key = try string()
                space()
                try take(UInt8(ascii: ":"))
                space()
                let start = at
                var ignored: [Member] = []
                let (kind, decoded) = try value(level: level + 1, members: &ignored)
                if level == 0 {
                    members.append(Member(key: key, kind: kind, range: start..<at, decodedString: decoded))
                }
                space()
            } while try separator(close: UInt8(ascii: "}"))
            return (.object, nil)
        case UInt8(ascii: "["):
            maxLevel = max(maxLevel, level)
            at += 1
            space()
            if current == UInt8(ascii: "]") {
                at += 1
                return (.array, nil)
            }
            repeat {
                space()
                var ignored: [Member] = []
                _ = try value(level: level + 1, members: &ignored)
                space()
            } while try separator(close: UInt8(ascii: "]"))
            return (.array, nil)
        case UInt8(ascii: "\""):
            return (.string, try string())
        case UInt8(ascii: "t"):
            try word("true")
            return (.bool, nil)
        case UInt8(ascii: "f"):
            try word("false")
            return (.bool, nil)
        case UInt8(ascii: "n"):
            try word("null")
            return (.null, nil)
        default: return (try number(), nil)
        }
    }

    /// After a member or element: true for ",", false for the closing bracket.
    private mutating func separator(close: UInt8) throws -> Bool {
        if current == UInt8(ascii: ",") {
            at += 1
            return true
        }
        try take(close)
        return false
    }

    private mutating func word(_ w: String) throws {
        for b in w.utf8 { try take(b) }
    }

    private func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }

    private mutating func number() throws -> Kind {
        var integral = true
        if current == UInt8(ascii: "-") { at += 1 }
        guard isDigit(current) else { throw Invalid() }
        if current == UInt8(ascii: "0") {
            at += 1
        } else {
            while isDigit(current) { at += 1 }
        }
        if current == UInt8(ascii: ".") {
            integral = false
            at += 1
            guard isDigit(current) else { throw Invalid() }
            while isDigit(current) { at += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            integral = false
            at += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { at += 1 }
            guard isDigit(current) else { throw Invalid() }
            while isDigit(current) { at += 1 }
        }
        return integral ? .integer : .fraction
    }

    private mutating func hex4() throws -> UInt32 {
        guard at + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16),
            bytes[at..<at + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { throw Invalid() }
        at += 4
        return v
    }

    /// Reads a string; returns its unescaped UTF-8.
    private mutating func string() throws -> [UInt8] {
        try take(UInt8(ascii: "\""))
        var out: [UInt8] = []
        var run: [UInt8] = []  // raw bytes since the last escape, validated as a whole
        func flush() throws {
            // transcode returns true when it met ill-formed UTF-8 (String(validating:as:) needs
            // macOS 15, iOS 18; this runs from the platforms' floor).
            let illFormed = transcode(
                run.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true, into: { _ in })
            guard !illFormed else { throw Invalid() }
            out += run
            run.removeAll()
        }
        while true {
            guard let b = current else { throw Invalid() }
            at += 1
            if b == UInt8(ascii: "\"") {
                try flush()
                return out
            }
            if b < 0x20 { throw Invalid() }
            if b != UInt8(ascii: "\\") {
                run.append(b)
                continue
            }
            try flush()
            guard let e = current else { throw Invalid() }
            at += 1
            let simple: [UInt8: UInt8] = [
                0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C,
                0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09,
            ]
            if let c = simple[e] {
                out.append(c)
                continue
            }
            guard e == UInt8(ascii: "u") else { throw Invalid() }
            var scalar = try hex4()
            if (0xDC00...0xDFFF).contains(scalar) { throw Invalid() }
            if (0xD800...0xDBFF).contains(scalar) {
                try take(UInt8(ascii: "\\"))
                try take(UInt8(ascii: "u"))
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw Invalid() }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let s = Unicode.Scalar(scalar) else { throw Invalid() }
            out += Array(String(Character(s)).utf8)
        }
    }
}
