import SwiftErr

// The problems found in one catalog file, kept within a limit.

/// Collects the problems of one catalog file: it keeps the `limit` problems that come first in
/// the file and only counts the others.
///
/// A hostile file can hold millions of problems (`"base": [0, 0, …]`). Kept problems are a
/// max-heap by file offset, so each report costs O(log limit), memory stays O(limit), and the
/// message of a problem that is not kept is never built (it is an autoclosure).
struct ProblemCollector: Sendable {
    /// The most problems kept.
    let limit: Int
    /// Every problem reported, kept or not.
    private(set) var count = 0
    /// The kept problems as a max-heap ordered by (offset, order of report).
    private var heap: [Kept] = []

    private struct Kept: Sendable {
        var problem: DraftProblem
        var sequence: Int

        func comesAfter(_ other: Kept) -> Bool {
            (problem.offset, sequence) > (other.problem.offset, other.sequence)
        }
    }

    /// A collector keeping at most `limit` problems (a negative limit keeps none).
    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Whether no problem was reported.
    var isEmpty: Bool { count == 0 }

    /// Problems reported but not kept.
    var omittedCount: Int { count - heap.count }

    /// Records a problem at byte `offset`.
    /// - Parameters:
    ///   - offset: Where the problem is.
    ///   - message: What is wrong; evaluated only when the problem is kept.
    ///   - related: The other place involved, if any.
    mutating func report(_ offset: Int, _ message: @autoclosure () -> String, related: Int? = nil) {
        count += 1
        if heap.count < limit {
            heap.append(
                Kept(problem: DraftProblem(offset: offset, message: message(), relatedOffset: related), sequence: count)
            )
            siftUp(heap.count - 1)
        } else if limit > 0 && offset < heap[0].problem.offset {
            // A later report never wins a tie: only a strictly earlier offset displaces the last kept problem.
            heap[0] = Kept(
                problem: DraftProblem(offset: offset, message: message(), relatedOffset: related), sequence: count)
            siftDown(0)
        }
    }

    /// The kept problems in file order (ties in the order reported).
    var problems: [DraftProblem] {
        heap.sorted { $1.comesAfter($0) }.map(\.problem)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].comesAfter(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var largest = parent
            let left = 2 * parent + 1
            if left < heap.count && heap[left].comesAfter(heap[largest]) { largest = left }
            if left + 1 < heap.count && heap[left + 1].comesAfter(heap[largest]) { largest = left + 1 }
            if largest == parent { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
