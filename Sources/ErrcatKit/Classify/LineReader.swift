// Streaming lines out of a file descriptor in constant memory.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file descriptor in large chunks and hands out its lines as byte slices of its
/// own buffer, with no copy and no allocation per line.
///
/// Memory stays bounded: the buffer grows only to hold one line, up to `maxLineLength`
/// bytes; a longer line is skipped to its end and reported as too long.
/// A final line without a newline is still a line; an empty input has no lines.
struct LineReader {
    /// What one call to `next` found.
    enum Line {
        /// A line's bytes (no newline; a trailing CR is removed), valid until the next call.
        case bytes(UnsafeRawBufferPointer)
        /// A line longer than `maxLineLength`, skipped; the payload is its length in bytes.
        case tooLong(UInt64)
        /// The input is over.
        case end
        /// read(2) failed with this errno.
        case failure(Int32)
    }

    private let descriptor: Int32
    let maxLineLength: Int
    private var buffer: UnsafeMutableRawBufferPointer
    /// Bytes [start, end) of `buffer` hold data not yet handed out.
    private var start = 0
    private var end = 0
    private var reachedEOF = false
    /// Total bytes read so far.
    private(set) var bytesRead: UInt64 = 0

    /// - Parameters:
    ///   - descriptor: An open descriptor to read (not closed here).
    ///   - chunkSize: Bytes per read(2); also the buffer's initial size.
    ///   - maxLineLength: Longest line handed out; longer ones come back as `.tooLong`.
    init(descriptor: Int32, chunkSize: Int = 1 << 20, maxLineLength: Int) {
        self.descriptor = descriptor
        self.maxLineLength = maxLineLength
        self.buffer = .allocate(byteCount: max(chunkSize, 64), alignment: 16)
    }

    /// Frees the buffer; the reader must not be used afterwards.
    mutating func close() {
        buffer.deallocate()
        buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    }

    /// Moves the pending bytes to the front (growing the buffer when they fill it) and reads
    /// more after them; sets `reachedEOF` at the end of input.
    /// - Returns: nil, or the errno of a failed read.
    private mutating func fill() -> Int32? {
        if start > 0 {
            // Move the pending partial line to the front.
            let pending = end - start
            if pending > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending)
            }
            start = 0
            end = pending
        }
        if end == buffer.count {
            // One line fills the buffer: grow it (bounded by maxLineLength + 1).
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
            grown.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
            buffer.deallocate()
            buffer = grown
        }
        while true {
            let count = read(descriptor, buffer.baseAddress! + end, buffer.count - end)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if count == 0 { reachedEOF = true }
            end += count
            bytesRead += UInt64(count)
            return nil
        }
    }

    /// The next line.
    mutating func next() -> Line {
        while true {
            let pending = end - start
            if pending > 0,
                let newline = memchr(buffer.baseAddress! + start, 0x0A, pending)
            {
                let lineEnd = buffer.baseAddress!.distance(to: newline)
                let line = slice(start, lineEnd)
                start = lineEnd + 1
                if line.count > maxLineLength { return .tooLong(UInt64(line.count)) }
                return .bytes(line)
            }
            if reachedEOF {
                if pending == 0 { return .end }
                let line = slice(start, end)
                start = end
                if line.count > maxLineLength { return .tooLong(UInt64(line.count)) }
                return .bytes(line)
            }
            if pending > maxLineLength {
                return skipLongLine()
            }
            if let error = fill() { return .failure(error) }
        }
    }

    /// The bytes [from, to) without a trailing CR.
    private func slice(_ from: Int, _ to: Int) -> UnsafeRawBufferPointer {
        var to = to
        if to > from && buffer[to - 1] == 0x0D { to -= 1 }
        return UnsafeRawBufferPointer(rebasing: buffer[from..<to])
    }

    /// Discards the current over-long line up to and including its newline.
    private mutating func skipLongLine() -> Line {
        var length = UInt64(end - start)
        start = 0
        end = 0
        while true {
            if reachedEOF { return .tooLong(length) }
            if let error = fill() { return .failure(error) }
            if let newline = memchr(buffer.baseAddress!, 0x0A, end) {
                let position = buffer.baseAddress!.distance(to: newline)
                length += UInt64(position)
                start = position + 1
                return .tooLong(length)
            }
            length += UInt64(end)
            start = 0
            end = 0
        }
    }
}
