// Opening inputs and reading small files whole, with errno turned into readable reasons.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed file operation: which file and why (strerror text).
struct FileError: Error {
    var path: String
    var reason: String

    init(path: String, errno code: Int32) {
        self.path = path
        self.reason = String(cString: strerror(code))
    }

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    var description: String { "\(path): \(reason)" }
}

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
///   - limit: Refuse files larger than this many bytes.
/// - Returns: The file's bytes.
/// - Throws: `FileError` when it cannot be opened or read, or is larger than `limit`.
func readWholeFile(_ path: String, standardInput: Int32, limit: Int = 64 << 20) throws(FileError) -> [UInt8] {
    let descriptor = try openInput(path, standardInput: standardInput)
    defer { if path != "-" { close(descriptor) } }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw FileError(path: path, errno: errno)
        }
        if count == 0 { return bytes }
        bytes.append(contentsOf: chunk[0..<count])
        if bytes.count > limit {
            throw FileError(path: path, reason: "larger than \(limit >> 20) MiB")
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

/// Writes `bytes` to `path`, replacing its contents (created with mode 0644).
/// - Throws: `FileError` when the file cannot be opened or written.
func writeWholeFile(_ path: String, _ bytes: [UInt8]) throws(FileError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if descriptor < 0 { throw FileError(path: path, errno: errno) }
    defer { close(descriptor) }
    var failure: Int32? = nil
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            offset += written
        }
    }
    if let failure { throw FileError(path: path, errno: failure) }
}
