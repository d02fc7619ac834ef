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
    /// <!-- listing: context=app -->
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
        var info = stat()
        if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw ReadFailure(reason: "is a directory")
        }
        do {
            return try BoundedRead.all(descriptor, limit: fileSizeLimit)
        } catch {
            switch error {
            case .tooLarge:
                throw ReadFailure(reason: "larger than \(fileSizeLimit) bytes, the limit for a catalog file")
            case .system(let code): throw ReadFailure(reason: String(cString: strerror(code)))
            }
        }
    }
}
