// Workload.swift — one table (default catalog, 256 or 4,096 codes) and the fixed-seed input
// stream every approach reads, shared by the `compare` tool and the package-benchmark suite.

import CBaselines
import CErrCore
import CErrDefaultCatalog

/// The three table sizes every approach is measured on.
public enum TableSize: String, CaseIterable, Sendable {
    /// The built-in catalog (`errcore_default_table()`, 32 codes, 7 module ranges).
    case catalog32 = "default"
    /// The generated 256-code catalog (15 base codes, 8 modules of 30 codes).
    case synthetic256 = "256"
    /// The generated 4,096-code catalog (63 base codes, 16 modules of 252 codes).
    case synthetic4096 = "4096"

    /// A short column label: "default(32)", "256", "4096".
    public var label: String {
        switch self {
        case .catalog32: "default(32)"
        case .synthetic256: "256"
        case .synthetic4096: "4096"
        }
    }
}

/// Why a workload could not be made.
public struct WorkloadError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, in one line.
    public let description: String

    /// Makes an error.
    /// - Parameter description: what went wrong, in one line.
    public init(description: String) {
        self.description = description
    }
}

/// A table and an input stream of codes drawn from it, allocated once and never written after `init`.
///
/// `@unchecked Sendable`: every stored property is a `let`; the table storage and the code buffer
/// are written only inside `init` and freed only in `deinit`, so sharing it between threads only
/// ever reads immutable memory.
public final class Workload: @unchecked Sendable {
    /// The seed of the input stream (the same for every approach and every run).
    public static let defaultSeed: UInt64 = 0x5EED_2026_0000_0001

    /// Which table this is.
    public let size: TableSize
    /// The table, valid for the life of this object.
    public let table: UnsafePointer<errcore_table>
    /// The input codes.
    public let codes: UnsafeBufferPointer<Int64>
    /// How many hits, unlisted in-range codes and unknown codes `codes` holds.
    public let mix: cbl_input_mix
    private let built: UnsafeMutablePointer<cbl_built_table>?

    /// Builds the table (synthetic ones through `errcore_build`) and draws `count` codes.
    /// - Parameters:
    ///   - size: the table.
    ///   - count: how many codes to draw.
    ///   - hitPercent: the share of codes that are table entries (the rest are split between
    ///     unlisted codes inside module ranges and unknown codes).
    ///   - seed: the splitmix64 seed.
    /// - Throws: `WorkloadError` when the synthetic table does not build.
    public init(size: TableSize, count: Int, hitPercent: UInt32 = 80, seed: UInt64 = Workload.defaultSeed) throws {
        self.size = size
        switch size {
        case .catalog32:
            built = nil
            table = errcore_default_table()
        case .synthetic256, .synthetic4096:
            let holder = UnsafeMutablePointer<cbl_built_table>.allocate(capacity: 1)
            holder.initialize(to: cbl_built_table())
            var message = [CChar](repeating: 0, count: 256)
            let status = cbl_table_build(size == .synthetic256 ? 256 : 4096, holder, &message, message.count)
            guard status == 0 else {
                holder.deallocate()
                let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                throw WorkloadError(description: "building the \(size.rawValue)-code table failed (\(status)): \(text)")
            }
            built = holder
            table = UnsafeRawPointer(holder).assumingMemoryBound(to: errcore_table.self)
        }
        let buffer = UnsafeMutableBufferPointer<Int64>.allocate(capacity: count)
        mix = cbl_make_input(table, seed, hitPercent, buffer.baseAddress, count)
        codes = UnsafeBufferPointer(buffer)
    }

    deinit {
        codes.deallocate()
        if let built {
            cbl_table_free(built)
            built.deallocate()
        }
    }

    /// The number of codes in the table.
    public var entryCount: Int { table.pointee.entry_count }
}
