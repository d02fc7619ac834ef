import CErrCore

extension Catalog {
    /// Classifies many codes at once with the C core's interleaved batch search
    /// (`errcore_classify_batch()`); each result equals `classify(_:)` of the same code.
    /// - Parameters:
    ///   - codes: The codes to classify.
    ///   - output: Receives one classification per code, in order.
    /// - Precondition: `output.count >= codes.count` (a programming error otherwise, like an
    ///   out-of-bounds subscript).
    public func classify(_ codes: UnsafeBufferPointer<Int64>, into output: UnsafeMutableBufferPointer<Classification>) {
        precondition(
            output.count >= codes.count, "Catalog.classify: output has \(output.count) slots for \(codes.count) codes")
        guard let input = codes.baseAddress, let out = output.baseAddress, codes.count > 0 else { return }
        // Classification is a @frozen struct whose only stored property is a UInt64, so it has
        // the layout of errcore_class (UInt64); rebinding lets C write the results in place.
        out.withMemoryRebound(to: errcore_class.self, capacity: codes.count) { raw in
            errcore_classify_batch(pointer, input, raw, codes.count)
        }
    }

    /// Classifies an array of codes with the batch path.
    /// - Parameter codes: The codes to classify.
    /// - Returns: One classification per code, in order.
    public func classify(_ codes: [Int64]) -> [Classification] {
        [Classification](unsafeUninitializedCapacity: codes.count) { buffer, initialized in
            codes.withUnsafeBufferPointer { input in
                classify(input, into: buffer)
            }
            initialized = codes.count
        }
    }

    /// Adds the classifications of `codes` to `tally` in one pass (`errcore_tally_codes()`).
    /// - Parameters:
    ///   - codes: The codes to count.
    ///   - tally: The counters to add to; a stream can be tallied in chunks.
    public func tally(_ codes: UnsafeBufferPointer<Int64>, into tally: inout CodeTally) {
        if tally.perModule.count != moduleCount + 1 {
            // A tally started on another table: resize, keeping the counts that still apply.
            var resized = [UInt64](repeating: 0, count: moduleCount + 1)
            for i in 0..<min(resized.count, tally.perModule.count) { resized[i] = tally.perModule[i] }
            tally.perModule = resized
        }
        var raw = errcore_tally()
        let status = tally.perModule.withUnsafeMutableBufferPointer { modules in
            errcore_tally_codes(pointer, codes.baseAddress, codes.count, &raw, modules.baseAddress)
        }
        // The only failure is a null argument, impossible here: the table is valid and a
        // buffer with a count has a base address.
        guard status == ERRCORE_OK else { return }
        tally.total += raw.total
        tally.unknown += raw.tiers.0
        tally.success += raw.tiers.1
        tally.base += raw.tiers.2
        tally.module += raw.tiers.3
        tally.unrecognised += raw.unrecognised
    }

    /// Counts the classifications of an array of codes.
    /// - Parameter codes: The codes to count.
    /// - Returns: The counts per tier and per module.
    public func tally(_ codes: [Int64]) -> CodeTally {
        var result = CodeTally(moduleCount: moduleCount)
        codes.withUnsafeBufferPointer { tally($0, into: &result) }
        return result
    }
}
