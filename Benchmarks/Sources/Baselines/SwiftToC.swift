// SwiftToC.swift — Swift calling the C classifier directly, one `errcore_classify` call per code:
// what the facade adds to it is measured against this.

import CErrCore

/// One `errcore_classify` call per code, from Swift.
public enum SwiftToC {
    /// Classifies every code with one C call each.
    /// - Parameters:
    ///   - table: a valid table.
    ///   - codes: the input codes.
    /// - Returns: a checksum of the classes.
    @inline(never)
    public static func resolve(_ table: UnsafePointer<errcore_table>, _ codes: UnsafeBufferPointer<Int64>) -> Int {
        var sum: UInt64 = 0
        for code in codes {
            sum &+= errcore_classify(table, code)
        }
        return Int(truncatingIfNeeded: sum)
    }
}
