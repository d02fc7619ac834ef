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
            let rest = bytes[index]
            if rest == UInt8(ascii: ".") || rest == UInt8(ascii: "e") || rest == UInt8(ascii: "E") {
                // Only call it a non-integer number when the rest really is a number's tail.
                var tail = index + 1
                while tail < count {
                    let byte = bytes[tail]
                    let isNumberByte =
                        byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                    if !isNumberByte { return .notANumber }
                    tail += 1
                }
                return .notInteger
            }
            return .notANumber
        }
        if overflow { return .outOfRange }
        if negative { return .value(value) }
        if value == Int64.min { return .outOfRange }
        return .value(-value)
    }
}
