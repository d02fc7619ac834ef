import CErrCore

extension Catalog {
    /// Classifies many codes at once with the C core's interleaved batch search
    /// (`errcore_classify_batch()`); each result equals `classify(_:)` of the same code.
    /// - Parameters:
    ///   - codes: The codes to classify.
    ///   - output: Receives one classification per code, in order.
    /// - Precondition: `output.count >= codes.count`.
    package func classify(_ codes: UnsafeBufferPointer<Int64>, into output: UnsafeMutableBufferPointer<Classification>)
    {
        precondition(
            output.count >= codes.count, "Catalog.classify: output has \(output.count) slots for \(codes.count) codes")
        guard let input = codes.baseAddress, let out = output.baseAddress, codes.count > 0 else { return }
        // Classification is a @frozen struct whose only stored property is a UInt64, so it has
        // the layout of errcore_class (UInt64); rebinding lets C write the results in place.
        out.withMemoryRebound(to: errcore_class.self, capacity: codes.count) { raw in
            errcore_classify_batch(pointer, input, raw, codes.count)
        }
    }

    /// Classifies many codes at once with the C core's interleaved batch search
    /// (`errcore_classify_batch()`, eight searches in flight); each result equals
    /// ``classify(_:)-(Int64)`` of the same code.
    /// - Parameter codes: The codes to classify.
    /// - Returns: One classification per code, in order.
    public func classify(_ codes: some Collection<Int64>) -> [Classification] {
        var output: [Classification] = []
        classify(codes, into: &output)
        return output
    }

    /// Classifies many codes at once into an array the caller keeps between calls, so a stream
    /// can be classified block by block without allocating.
    /// - Parameters:
    ///   - codes: The codes to classify.
    ///   - output: Replaced by one classification per code, in order (its capacity is reused).
    public func classify(_ codes: some Collection<Int64>, into output: inout [Classification]) {
        output.removeAll(keepingCapacity: true)
        output.reserveCapacity(codes.count)
        let count = codes.count
        withContiguous(codes) { input in
            output.append(contentsOf: repeatElement(Classification.unknown, count: count))
            output.withUnsafeMutableBufferPointer { buffer in
                classify(input, into: buffer)
            }
        }
    }

    /// Runs `body` on the codes as one contiguous buffer, copying only when the collection is not
    /// contiguous already.
    private func withContiguous<Result>(
        _ codes: some Collection<Int64>, _ body: (UnsafeBufferPointer<Int64>) -> Result
    ) -> Result {
        if let result = codes.withContiguousStorageIfAvailable(body) {
            return result
        }
        return Array(codes).withUnsafeBufferPointer(body)
    }

    /// Adds the classifications of `codes` to `tally` in one pass (`errcore_tally_codes()`).
    /// - Parameters:
    ///   - codes: The codes to count.
    ///   - tally: The counters to add to; a stream can be tallied in chunks.
    public func tally(_ codes: some Collection<Int64>, into tally: inout CodeTally) {
        withContiguous(codes) { self.tally($0, into: &tally) }
    }

    /// ``tally(_:into:)`` over a buffer.
    package func tally(_ codes: UnsafeBufferPointer<Int64>, into tally: inout CodeTally) {
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

    /// Counts the classifications of some codes.
    /// - Parameter codes: The codes to count.
    /// - Returns: The counts per tier and per module.
    public func tally(_ codes: some Collection<Int64>) -> CodeTally {
        var result = CodeTally(moduleCount: moduleCount)
        tally(codes, into: &result)
        return result
    }
}
