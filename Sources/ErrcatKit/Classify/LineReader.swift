// Reading a file descriptor in chunks of whole lines, in bounded memory.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A buffer the reader fills with whole lines; owned by one thread at a time.
struct ChunkBuffer {
    private(set) var storage: UnsafeMutableRawBufferPointer
    /// Bytes of whole lines at the start of `storage`: every line ends with a newline, except
    /// the input's last line when the input does not end with one.
    var count = 0
    /// The size the buffer returns to after holding one long line.
    let standardSize: Int

    init(size: Int) {
        standardSize = max(size, 16)
        storage = .allocate(byteCount: standardSize, alignment: 16)
    }

    /// The lines.
    var lines: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<count]) }

    /// Makes room for `capacity` bytes, keeping the first `keeping` bytes.
    mutating func resize(to capacity: Int, keeping: Int) {
        let resized = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        if keeping > 0 { resized.baseAddress!.copyMemory(from: storage.baseAddress!, byteCount: keeping) }
        storage.deallocate()
        storage = resized
    }

    /// Frees the storage; the buffer must not be used afterwards.
    mutating func free() {
        storage.deallocate()
        storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    }
}

/// Cuts the bytes of a file descriptor into chunks of whole lines.
///
/// Memory stays bounded: a chunk buffer grows only to hold one line, up to `maxLineLength` plus
/// CR LF, and returns to its standard size for the next chunk; a longer line is skipped to its
/// end (never held) and reported as too long. A line's length is counted without its newline
/// and without a CR before it, so where a read(2) ends (between CR and LF, say) never changes
/// whether a line is too long: a file and a pipe give the same chunks' lines.
/// A final line without a newline is still a line; an empty input has no lines.
struct ChunkReader {
    /// What one call to `next(into:)` found.
    enum Chunk: Equatable {
        /// The buffer holds one or more whole lines.
        case lines
        /// One line longer than `maxLineLength` was skipped; the payload is its length in bytes.
        case tooLong(UInt64)
        /// The input is over.
        case end
        /// read(2) failed with this errno.
        case failure(Int32)
    }

    private let descriptor: Int32
    let maxLineLength: Int
    /// The start of a line read past the last chunk's end, moved to the next chunk.
    private var carry: UnsafeMutableRawBufferPointer
    private var carryCount = 0
    private var reachedEOF = false
    /// Total bytes read so far.
    private(set) var bytesRead: UInt64 = 0

    /// - Parameters:
    ///   - descriptor: An open descriptor to read (not closed here).
    ///   - maxLineLength: Longest line handed out; longer ones come back as `.tooLong`.
    init(descriptor: Int32, maxLineLength: Int) {
        self.descriptor = descriptor
        self.maxLineLength = maxLineLength
        carry = .allocate(byteCount: 4096, alignment: 16)
    }

    /// Frees the reader's own storage.
    mutating func close() {
        carry.deallocate()
        carry = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    }

    /// read(2) into `buffer` at `offset`, retried on EINTR. Returns the byte count or -errno.
    private mutating func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        while true {
            let count = readFromDescriptor(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count >= 0 {
                bytesRead += UInt64(count)
                if count == 0 { reachedEOF = true }
                return count
            }
            if errno != EINTR { return -Int(errno) }
        }
    }

    /// Keeps `bytes` as the start of the next chunk.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count > carry.count {
            carry.deallocate()
            carry = .allocate(byteCount: bytes.count, alignment: 16)
        }
        if !bytes.isEmpty { carry.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
        carryCount = bytes.count
    }

    /// Fills `buffer` with the next whole lines. Reads until at least one line is complete (or
    /// the buffer is full), so lines from a slow pipe are handed on as they arrive.
    mutating func next(into buffer: inout ChunkBuffer) -> Chunk {
        // The one line kept from the previous chunk may need a grown buffer again.
        let standard = max(buffer.standardSize, carryCount)
        if buffer.storage.count != standard { buffer.resize(to: standard, keeping: 0) }
        var filled = carryCount
        if carryCount > 0 {
            buffer.storage.baseAddress!.copyMemory(from: carry.baseAddress!, byteCount: carryCount)
            carryCount = 0
        }
        buffer.count = 0
        // After a skipped long line the bytes kept may hold whole lines.
        if filled > 0, let newline = lastNewline(buffer.storage.baseAddress!, filled) {
            keep(UnsafeRawBufferPointer(rebasing: buffer.storage[(newline + 1)..<filled]))
            buffer.count = newline + 1
            return .lines
        }
        while true {
            if reachedEOF {
                if filled == 0 { return .end }
                buffer.count = filled
                return .lines
            }
            if filled == buffer.storage.count {
                // One line fills the buffer. Up to maxLineLength + CR + LF it must be held whole.
                if filled >= maxLineLength + 2 { return skipLongLine(buffer.storage, filled: filled) }
                buffer.resize(to: min(filled * 2, maxLineLength + 2), keeping: filled)
            }
            let count = read(into: buffer.storage, at: filled)
            if count < 0 { return .failure(Int32(-count)) }
            guard count > 0 else { continue }
            let start = buffer.storage.baseAddress! + filled
            filled += count
            if let newline = lastNewline(start, count) {
                let end = filled - count + newline + 1
                keep(UnsafeRawBufferPointer(rebasing: buffer.storage[end..<filled]))
                buffer.count = end
                return .lines
            }
        }
    }

    /// Skips the line that fills `storage` (no newline in its `filled` bytes) to its end.
    private mutating func skipLongLine(_ storage: UnsafeMutableRawBufferPointer, filled: Int) -> Chunk {
        var length = UInt64(filled)
        var last = storage[filled - 1]
        while true {
            if reachedEOF { return .tooLong(length - (last == 0x0D ? 1 : 0)) }
            let count = read(into: storage, at: 0)
            if count < 0 { return .failure(Int32(-count)) }
            guard count > 0 else { continue }
            if let newline = memchr(storage.baseAddress!, 0x0A, count) {
                let position = storage.baseAddress!.distance(to: newline)
                length += UInt64(position)
                if position > 0 { last = storage[position - 1] }
                keep(UnsafeRawBufferPointer(rebasing: storage[(position + 1)..<count]))
                return .tooLong(length - (last == 0x0D ? 1 : 0))
            }
            length += UInt64(count)
            last = storage[count - 1]
        }
    }
}

/// read(2), under a name that the reader's own `read` does not hide.
private func readFromDescriptor(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}

/// The offset of the last newline in `bytes[0..<count]`, searching backwards (a chunk's last
/// line is short next to the chunk).
private func lastNewline(_ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int? {
    var index = count - 1
    while index >= 0 {
        if bytes.load(fromByteOffset: index, as: UInt8.self) == 0x0A { return index }
        index -= 1
    }
    return nil
}
