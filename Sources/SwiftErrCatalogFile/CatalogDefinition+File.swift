// Reading a catalog file from disk: the whole file, bounded, with errno turned into words.

import SwiftErr

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension CatalogDefinition {
    /// The largest catalog file ``init(contentsOfFile:)`` reads: 64 MiB (67,108,864 bytes).
    public static let fileSizeLimit = 64 << 20

    /// Reads and checks a catalog file, as ``init(json:problemLimit:)`` does with its bytes.
    ///
    /// ```swift
    /// let definition = try CatalogDefinition(contentsOfFile: "/etc/shop/catalog.json")
    /// ```
    /// - Parameter path: The file.
    /// - Throws: ``CatalogLoadError`` when the file cannot be read (missing, a directory, larger
    ///   than ``fileSizeLimit``) or is not a catalog (each problem with its line and column).
    public init(contentsOfFile path: String) throws(CatalogLoadError) {
        let bytes: [UInt8]
        do {
            bytes = try Self.readWholeFile(path)
        } catch {
            throw CatalogLoadError(path: path, reason: .unreadable(error.reason))
        }
        do {
            try self.init(json: bytes)
        } catch {
            throw CatalogLoadError(path: path, reason: .invalid(error))
        }
    }

    /// Why a file could not be read.
    struct ReadFailure: Error {
        var reason: String
    }

    /// The whole of a regular file or stream, refused past ``fileSizeLimit``.
    static func readWholeFile(_ path: String) throws(ReadFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        if descriptor < 0 { throw ReadFailure(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let tooLarge = ReadFailure(reason: "larger than \(fileSizeLimit) bytes, the limit for a catalog file")
        var info = stat()
        var bytes: [UInt8] = []
        if fstat(descriptor, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw ReadFailure(reason: "is a directory") }
            if (info.st_mode & S_IFMT) == S_IFREG {
                if info.st_size > fileSizeLimit { throw tooLarge }
                bytes.reserveCapacity(Int(info.st_size))
            }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadFailure(reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > fileSizeLimit { throw tooLarge }
        }
    }
}
