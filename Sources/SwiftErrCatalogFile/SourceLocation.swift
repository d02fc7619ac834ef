import SwiftErr

// Line and column of byte offsets in a catalog file.

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

/// Maps byte offsets of one document to line and column.
///
/// Lines end at LF; a CR before it is part of the line. A column counts the bytes of the line
/// before the offset that are not UTF-8 continuation bytes (that is, Unicode scalars in valid
/// UTF-8), so finding it reads the line up to the offset. ``locations(of:)`` locates many offsets
/// in one pass over the document, which keeps a file with many problems on one long line linear.
struct LineIndex: Sendable {
    private let bytes: [UInt8]
    private let lineStarts: [Int]

    /// Indexes the line starts of `bytes`.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A {
            starts.append(offset + 1)
        }
        self.lineStarts = starts
    }

    /// The number of lines (a document without a newline has one).
    var lineCount: Int { lineStarts.count }

    /// The 0-based line holding byte `offset` (already clamped to the document).
    private func lineIndex(of offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The location of byte `offset` (clamped to the document): O(log lines + column).
    func location(of offset: Int) -> SourceLocation {
        locations(of: [offset])[0]
    }

    /// The locations of many byte offsets (each clamped to the document), in the order given.
    ///
    /// The offsets are sorted and the document is read once from the first to the last of them,
    /// so the cost is O(n log n) in the number of offsets plus the bytes up to the last offset,
    /// however many offsets share a line.
    /// - Parameter offsets: Byte offsets, in any order, repeats allowed.
    /// - Returns: One location per offset, at the same index.
    func locations(of offsets: [Int]) -> [SourceLocation] {
        var result = [SourceLocation](repeating: SourceLocation(line: 1, column: 1), count: offsets.count)
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        // The sweep: `position` is a byte of line `line`, and `column` is the column of `position`.
        var line = -1
        var position = 0
        var column = 1
        for index in order {
            let offset = max(0, min(offsets[index], bytes.count))
            let target = lineIndex(of: offset)
            if target != line {
                line = target
                position = lineStarts[target]
                column = 1
            }
            while position < offset {
                // Count every byte that is not a UTF-8 continuation byte.
                if bytes[position] & 0xC0 != 0x80 { column += 1 }
                position += 1
            }
            result[index] = SourceLocation(line: line + 1, column: column)
        }
        return result
    }
}
