// Reading a plain integer code from the bytes of one line, without allocating.

/// The result of scanning a line that should hold one decimal integer.
enum IntegerScan: Equatable {
    case value(Int64)
    /// Digits, but outside the Int64 range.
    case outOfRange
    /// A number with a fraction or exponent (e.g. `1.5`, `1e5`).
    case notInteger
    /// Not a number at all.
    case notANumber

    /// Scans `bytes` (no surrounding whitespace expected): an optional `+` or `-`, then
    /// ASCII digits only.
    @inline(__always)
    static func scan(_ bytes: UnsafeRawBufferPointer) -> IntegerScan {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return .notANumber
        }
        var index = 0
        let first = base[0]
        let negative = first == UInt8(ascii: "-")
        if negative || first == UInt8(ascii: "+") { index = 1 }
        let digitsStart = index
        // Up to 18 digits cannot overflow; longer ones (leading zeros included) are redone exactly.
        var magnitude: UInt64 = 0
        while index < count {
            let digit = base[index] &- UInt8(ascii: "0")
            if digit >= 10 { break }
            magnitude = magnitude &* 10 &+ UInt64(digit)
            index &+= 1
        }
        if index == digitsStart { return .notANumber }
        if index < count {
            // Only call it a non-integer number when the rest is a number's fraction and
            // exponent as JSON writes them: ".digits", "e[+-]digits", or both in that order.
            return isFractionAndExponent(bytes, from: index) ? .notInteger : .notANumber
        }
        if index &- digitsStart > 18 { return exactValue(bytes, digitsStart, negative: negative) }
        let value = Int64(bitPattern: magnitude)
        return .value(negative ? 0 &- value : value)
    }

    /// The value of the digits from `start` to the end, accumulated with overflow checks.
    private static func exactValue(_ bytes: UnsafeRawBufferPointer, _ start: Int, negative: Bool) -> IntegerScan {
        // Accumulate negatively so that Int64.min is representable.
        var value: Int64 = 0
        for index in start..<bytes.count {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.subtractingReportingOverflow(Int64(bytes[index] &- UInt8(ascii: "0")))
            if o1 || o2 { return .outOfRange }
            value = next
        }
        if negative { return .value(value) }
        if value == Int64.min { return .outOfRange }
        return .value(-value)
    }

    /// Whether `bytes[from...]` is `.digits`, `e[+-]digits` (or `E`), or the first then the second.
    private static func isFractionAndExponent(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Bool {
        let count = bytes.count
        var index = start
        func digits() -> Bool {
            let first = index
            while index < count && bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return index > first
        }
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return false }
        }
        if index < count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard digits() else { return false }
        }
        return index == count && index > start
    }
}
