import CErrCore

/// Reads text from the C core's snprintf-style functions into Swift strings.
package enum CText {
    /// Calls `write(buffer, size)` with a stack buffer and, when it reports a longer text
    /// than fits, once more with a buffer of the reported length.
    /// - Parameter write: A C function with the `errcore_describe()` buffer contract.
    /// - Returns: The complete text.
    package static func read(_ write: (UnsafeMutablePointer<CChar>, Int) -> Int) -> String {
        let first = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer -> (String?, Int) in
            let base = buffer.baseAddress!
            let length = write(base, buffer.count)
            return length < buffer.count ? (String(cString: base), length) : (nil, length)
        }
        if let text = first.0 {
            return text
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: first.1 + 1) { buffer in
            let base = buffer.baseAddress!
            _ = write(base, buffer.count)
            return String(cString: base)
        }
    }

    /// A Swift string from a C string, or `nil` for a null pointer.
    package static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
