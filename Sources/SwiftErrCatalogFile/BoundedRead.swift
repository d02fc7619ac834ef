// Reading all of an open file or stream, refusing more than a limit: catalog files are read
// whole, and a file that is not a catalog (a log, a device) must not fill memory first.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the whole of an open descriptor, at most `limit` bytes.
package enum BoundedRead {
    /// Why the read stopped.
    package enum Failure: Error, Equatable {
        /// More than the limit: a regular file refused before it is read, a stream once it has
        /// delivered more.
        case tooLarge
        /// `read(2)` failed with this `errno` (`EINTR` is retried, never reported).
        case system(Int32)
    }

    /// All of `descriptor`'s bytes from its current position.
    /// - Parameters:
    ///   - descriptor: An open descriptor; not closed here.
    ///   - limit: The most bytes accepted.
    /// - Returns: The bytes.
    /// - Throws: ``Failure``.
    package static func all(_ descriptor: Int32, limit: Int) throws(Failure) -> [UInt8] {
        var info = stat()
        var bytes: [UInt8] = []
        if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG {
            if info.st_size > limit { throw .tooLarge }
            bytes.reserveCapacity(Int(info.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { throw .tooLarge }
        }
    }
}
