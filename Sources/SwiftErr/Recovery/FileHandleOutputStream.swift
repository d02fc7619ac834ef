import Foundation

/// A `TextOutputStream` that writes UTF-8 to a `FileHandle` (standard error, a file, a pipe).
///
/// A failed write (a closed pipe, a full disk) is not thrown by `TextOutputStream`'s API; it is
/// counted in ``failedWrites`` instead of being lost silently.
public struct FileHandleOutputStream: TextOutputStream, Sendable {
    /// The handle written to.
    public let handle: FileHandle
    /// How many writes failed.
    public private(set) var failedWrites = 0

    /// Creates a stream.
    /// - Parameter handle: The handle to write to.
    public init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// Standard error.
    public static var standardError: FileHandleOutputStream { FileHandleOutputStream(.standardError) }
    /// Standard output.
    public static var standardOutput: FileHandleOutputStream { FileHandleOutputStream(.standardOutput) }

    /// Writes a string as UTF-8.
    /// - Parameter string: The text.
    public mutating func write(_ string: String) {
        do {
            try handle.write(contentsOf: Data(string.utf8))
        } catch {
            failedWrites += 1
        }
    }
}
