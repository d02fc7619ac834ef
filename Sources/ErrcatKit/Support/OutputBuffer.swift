// Buffered output to a file descriptor with write(2): no Foundation, no per-line syscalls.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects bytes and writes them to a file descriptor in large blocks.
///
/// A write error (a full disk, a closed descriptor, a closed pipe when SIGPIPE is ignored) is
/// remembered in `failure` and later output is discarded, so a command can stop or finish and
/// report it (``ErrcatIO/finish(_:command:what:)``).
struct OutputBuffer {
    /// The descriptor written to (1 for stdout, 2 for stderr).
    let descriptor: Int32
    /// Flush once this many bytes are pending.
    private let threshold: Int
    private(set) var bytes: [UInt8] = []
    /// The errno of the first failed write, if any.
    private(set) var failure: Int32? = nil

    /// The system's description of ``failure`` (`strerror`), if a write failed.
    var failureReason: String? { failure.map(systemErrorText) }

    init(descriptor: Int32, threshold: Int = 1 << 16) {
        self.descriptor = descriptor
        self.threshold = threshold
        bytes.reserveCapacity(min(threshold, 1 << 20) + 4096)
    }

    /// Appends UTF-8 text.
    mutating func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        flushIfFull()
    }

    /// Appends one byte.
    @inline(__always)
    mutating func write(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends raw bytes.
    mutating func write(raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
        flushIfFull()
    }

    /// Appends the decimal form of `value` (Int64.min included) without allocating a String.
    mutating func write(integer value: Int64) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            while magnitude > 0 {
                scratch[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[(24 - count)...]))
        }
    }

    /// Appends the decimal form of an unsigned count.
    mutating func write(count value: UInt64) {
        if value <= UInt64(Int64.max) {
            write(integer: Int64(value))
        } else {
            write(String(value))
        }
    }

    /// Appends a newline and flushes when the buffer is full.
    mutating func endLine() {
        bytes.append(0x0A)
        flushIfFull()
    }

    @inline(__always)
    mutating func flushIfFull() {
        if bytes.count >= threshold { flush() }
    }

    /// Writes everything pending.
    mutating func flush() {
        defer { bytes.removeAll(keepingCapacity: true) }
        guard failure == nil, !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { pending in
            var offset = 0
            while offset < pending.count {
                let written = systemWrite(descriptor, pending.baseAddress! + offset, pending.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
    }
}

/// write(2), under a name that the buffer's own `write` methods do not hide.
func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
