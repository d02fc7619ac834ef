// The bytes of one summary file at a time, read straight into one buffer that every file of a
// merge reuses, and followed by zero bytes so that a scanner may look a few bytes past the end.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `read(2)`, named apart from ``SummaryInput/read(_:standardInput:)``.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Bytes followed by at least ``padding`` zero bytes that are not part of them.
///
/// A zero byte can be neither JSON structure, nor a digit, nor whitespace, so a scanner that
/// compares the byte at its position with what it expects stops at the padding without a bounds
/// check, as long as it never steps more than ``padding`` bytes past a byte it has checked.
struct PaddedBytes {
    /// Zero bytes after the end.
    static let padding = 16

    /// The first byte (the padding's first byte for empty bytes).
    let base: UnsafePointer<UInt8>
    /// The number of bytes, padding excluded.
    let count: Int

    /// The bytes without the padding.
    var raw: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}

/// Reads summary files one after another into one reused buffer: the file's bytes go straight
/// into it (no copy), with room made from `fstat`'s size before the first `read(2)`.
///
/// The limit, the errors and their texts are those of ``readWholeFile(_:standardInput:limit:)``:
/// a regular file larger than the limit is refused before it is read, a stream (a pipe, `-`)
/// once it has delivered more, and `read(2)` is repeated until it reports the end.
final class SummaryInput {
    /// The largest file accepted, in bytes.
    let limit: Int
    private var storage: UnsafeMutablePointer<UInt8>
    /// Bytes `storage` holds, padding included.
    private var capacity: Int
    /// Bytes of the last file read.
    private var count = 0

    /// Creates an empty input.
    /// - Parameter limit: The largest file accepted, in bytes.
    init(limit: Int = catalogSizeLimit) {
        self.limit = limit
        capacity = 1 << 16
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// The last file's bytes; valid until the next ``read(_:standardInput:)``.
    var bytes: PaddedBytes { PaddedBytes(base: UnsafePointer(storage), count: count) }

    /// Reads the whole file at `path` (`-`: `standardInput`, left open) into the buffer.
    /// - Throws: `FileError` when it cannot be opened or read or is larger than ``limit``.
    func read(_ path: String, standardInput: Int32) throws(FileError) {
        count = 0
        let descriptor = try openInput(path, standardInput: standardInput)
        defer { if path != "-" { close(descriptor) } }
        var info = stat()
        if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG {
            if info.st_size > limit { throw tooLarge(path) }
            // One byte more than the size, so a file of the size it had is read by one read(2).
            reserve(Int(info.st_size) + 1)
        }
        while true {
            if count == capacity - PaddedBytes.padding { reserve(count + 1) }
            let room = min(capacity - PaddedBytes.padding - count, limit + 1 - count)
            let got = readBytes(descriptor, storage + count, room)
            if got < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, errno: errno)
            }
            if got == 0 { break }
            count += got
            if count > limit { throw tooLarge(path) }
        }
        (storage + count).update(repeating: 0, count: PaddedBytes.padding)
    }

    private func tooLarge(_ path: String) -> FileError {
        count = 0
        return FileError(path: path, reason: "larger than \(sizeText(limit)), the limit for a catalog file")
    }

    /// Makes room for at least `bytes` bytes and the padding, keeping the bytes read.
    private func reserve(_ bytes: Int) {
        let needed = bytes + PaddedBytes.padding
        guard needed > capacity else { return }
        var grown = capacity
        while grown < needed { grown *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.initialize(repeating: 0, count: grown)
        larger.update(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity = grown
    }
}
