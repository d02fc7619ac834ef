// IntEnumApproach.swift — the Int-enum baseline: per-module `Int` enums resolve a code with
// `Base(rawValue:)`, then `Module(rawValue:)` (generated per table into Generated/).

/// The Int-enum baseline on each table size. The per-size functions are generated.
public enum IntEnumApproach {
    /// Resolves `codes` with the enums generated for `size`.
    /// - Parameters:
    ///   - size: which table's enums to use.
    ///   - codes: the input codes.
    /// - Returns: a checksum of the resolved cases.
    public static func resolve(_ size: TableSize, _ codes: UnsafeBufferPointer<Int64>) -> Int {
        switch size {
        case .catalog32: resolve32(codes)
        case .synthetic256: resolve256(codes)
        case .synthetic4096: resolve4096(codes)
        }
    }
}

extension IntEnumApproach {
    /// What the Int enums for `size` say about one code.
    /// - Parameters:
    ///   - size: which table's enums to use.
    ///   - code: a code.
    /// - Returns: 1 when the base enum knows it, 2 when the module enum does, 0 otherwise.
    public static func kind(_ size: TableSize, _ code: Int64) -> Int {
        switch size {
        case .catalog32: kind32(code)
        case .synthetic256: kind256(code)
        case .synthetic4096: kind4096(code)
        }
    }
}
