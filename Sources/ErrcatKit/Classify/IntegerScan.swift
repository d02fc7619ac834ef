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
    static func scan(_ bytes: UnsafeRawBufferPointer) -> IntegerScan {
        let count = bytes.count
        guard count > 0 else { return .notANumber }
        var index = 0
        var negative = false
        let first = bytes[0]
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        guard index < count else { return .notANumber }
        // Accumulate negatively so that Int64.min is representable.
        var value: Int64 = 0
        var overflow = false
        let digitsStart = index
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            if digit >= 10 { break }
            if !overflow {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(Int64(digit))
                overflow = o1 || o2
                value = next
            }
            index += 1
        }
        if index == digitsStart { return .notANumber }
        if index < count {
            // Only call it a non-integer number when the rest is a number's fraction and
            // exponent as JSON writes them: ".digits", "e[+-]digits", or both in that order.
            return isFractionAndExponent(bytes, from: index) ? .notInteger : .notANumber
        }
        if overflow { return .outOfRange }
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
