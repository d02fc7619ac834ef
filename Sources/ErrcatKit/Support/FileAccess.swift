// Opening inputs and reading small files whole, with errno turned into readable reasons.

import SwiftErr
import SwiftErrCatalogFile

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's description of an errno value (`strerror`), e.g. "No space left on device".
func systemErrorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// A failed file operation: which file and why (strerror text).
struct FileError: Error {
    var path: String
    var reason: String

    init(path: String, errno code: Int32) {
        self.path = path
        self.reason = systemErrorText(code)
    }

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "PATH: REASON", the path escaped when it holds characters a terminal would not show
    /// as they are (``DisplayText/bare(_:limit:)``).
    var description: String { "\(DisplayText.bare(path)): \(reason)" }
}

/// The largest catalog file errcat reads: 64 MiB (67,108,864 bytes).
let catalogSizeLimit = 64 << 20

/// Opens `path` for reading; `-` means standard input (`standardInput`, not to be closed).
/// - Returns: The descriptor.
/// - Throws: `FileError` when the file cannot be opened or is a directory.
func openInput(_ path: String, standardInput: Int32) throws(FileError) -> Int32 {
    if path == "-" { return standardInput }
    let descriptor = open(path, O_RDONLY)
    if descriptor < 0 { throw FileError(path: path, errno: errno) }
    var info = stat()
    if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
        close(descriptor)
        throw FileError(path: path, reason: "is a directory")
    }
    return descriptor
}

/// Reads a whole file (catalog files: small); `-` reads `standardInput`.
/// - Parameters:
///   - path: The file, or `-`.
///   - limit: Refuse files larger than this many bytes (a regular file is refused before it is
///     read, a stream once it has delivered more).
/// - Returns: The file's bytes.
/// - Throws: `FileError` when it cannot be opened or read, or is larger than `limit`.
func readWholeFile(_ path: String, standardInput: Int32, limit: Int = catalogSizeLimit) throws(FileError) -> [UInt8] {
    let descriptor = try openInput(path, standardInput: standardInput)
    defer { if path != "-" { close(descriptor) } }
    do {
        return try BoundedRead.all(descriptor, limit: limit)
    } catch {
        switch error {
        case .tooLarge:
            throw FileError(path: path, reason: "larger than \(sizeText(limit)), the limit for a catalog file")
        case .system(let code): throw FileError(path: path, errno: code)
        }
    }
}

/// True when `descriptor` is a terminal.
func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) != 0
}

/// Seconds on a monotonic clock, for throughput and progress.
func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// `bytes` as errcat writes sizes: "64 MiB (67,108,864 bytes)" for whole MiB, else "N bytes".
func sizeText(_ bytes: Int) -> String {
    var digits = String(bytes)
    var grouped = ""
    while digits.count > 3 {
        grouped = "," + digits.suffix(3) + grouped
        digits.removeLast(3)
    }
    grouped = digits + grouped
    if bytes > 0 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB (\(grouped) bytes)" }
    return "\(grouped) bytes"
}

/// The files one command writes. It never writes the same file twice, and never a file it
/// reads: files are told apart by device and inode, so a second name for a file (a hard or
/// symbolic link, or a name differing only in letter case on a case-insensitive disk) is caught
/// too.
struct WrittenFiles {
    private struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// What each known file is, by identity: "written earlier as PATH" or "the catalog being read".
    private var known: [Identity: String] = [:]

    /// Records `path`, when it is an existing regular file, as a file that must not be written
    /// (an input).
    mutating func protect(_ path: String, as role: String) {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        known[Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))] = role
    }

    /// Writes `bytes` to `path`, replacing its contents (a new file gets mode 0644).
    ///
    /// The file is opened without truncating it and its identity checked first, so a refused
    /// write leaves it as it was.
    /// - Throws: `FileError` when the file cannot be opened or written, when closing it reports
    ///   an error, or when it is a file this command wrote or reads already.
    mutating func write(_ path: String, _ bytes: [UInt8]) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o644)
        if descriptor < 0 { throw FileError(path: path, errno: errno) }
        var closed = false
        defer { if !closed { close(descriptor) } }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileError(path: path, errno: errno) }
        // Devices and pipes (/dev/null, /dev/stdout) are written as they are, and may be written again.
        if (info.st_mode & S_IFMT) == S_IFREG {
            let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            if let role = known[identity] {
                throw FileError(path: path, reason: "refusing to overwrite \(role) (the same file)")
            }
            known[identity] = "the file written earlier as \(DisplayText.bare(path))"
            guard ftruncate(descriptor, 0) == 0 else { throw FileError(path: path, errno: errno) }
        }
        if let failure = bytes.withUnsafeBytes({ writeAll(descriptor, $0) }) {
            throw FileError(path: path, errno: failure)
        }
        closed = true
        if close(descriptor) != 0 { throw FileError(path: path, errno: errno) }
    }
}

/// Writes all of `bytes` to `descriptor`, continuing after short writes and `EINTR`.
/// - Returns: nil when everything was written, else the `errno` of the failed write.
func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += written
    }
    return nil
}
