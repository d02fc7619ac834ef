// Line and column of a byte offset in a catalog file.

/// A position in a catalog file, as editors count it.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column: Unicode scalars from the start of the line, plus one.
    public var column: Int

    /// Creates a location.
    /// - Parameters:
    ///   - line: The 1-based line number.
    ///   - column: The 1-based column in Unicode scalars.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// "line:column", e.g. "12:7".
    public var description: String { "\(line):\(column)" }

    /// Orders by line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// Maps byte offsets of one document to line and column, in O(log lines) per lookup.
struct LineIndex: Sendable {
    private let bytes: [UInt8]
    private let lineStarts: [Int]

    /// Indexes the line starts of `bytes` (lines end at LF; a CR before it is part of the line).
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A {
            starts.append(offset + 1)
        }
        self.lineStarts = starts
    }

    /// The location of byte `offset` (clamped to the document).
    func location(of offset: Int) -> SourceLocation {
        let offset = max(0, min(offset, bytes.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        var column = 1
        var position = lineStarts[low]
        while position < offset {
            // Count every byte that is not a UTF-8 continuation byte.
            if bytes[position] & 0xC0 != 0x80 { column += 1 }
            position += 1
        }
        return SourceLocation(line: low + 1, column: column)
    }
}
